import { fireEvent, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { familyItem, shareAnalysis } from "../../../shared/testing/fixtures.ts";
import { clickInDialog, fail, never, renderScreen, routeOf } from "../../../shared/testing/render.tsx";
import { FamilyListScreen } from "./family-list-screen.tsx";

const family = (id: string, name: string, isAdmin: boolean) =>
  familyItem({ id, name, isAdmin, deviceCount: 1, address: `${name} street` });

describe("FamilyList screen", () => {
  it("shows skeletons while the first page loads", async () => {
    const view = await renderScreen(<FamilyListScreen />, { route: "/FamilyList", api: { getFamilies: never } });
    expect(view.container.querySelectorAll(".family-card--skeleton")).toHaveLength(3);
    expect(screen.queryByTestId("family-list-empty")).toBeNull();
  });

  it("lists the households with role, counts and address, and opens one", async () => {
    const view = await renderScreen(<FamilyListScreen />, {
      route: "/FamilyList",
      api: { getFamilies: { totalCount: 2, items: [family("f1", "Lake house", true), family("f2", "Flat", false)] } },
    });
    expect(await screen.findByText("Lake house")).toBeTruthy();
    expect(screen.getByText("Flat")).toBeTruthy();
    expect(screen.getByText("Administrator")).toBeTruthy();
    expect(screen.getByText("Member")).toBeTruthy();
    expect(screen.getByText("Lake house street")).toBeTruthy();
    expect(screen.getByText("No more")).toBeTruthy();
    expect(view.api.lastCall("getFamilies").query).toMatchObject({ skipCount: "0", maxResultCount: "15" });
    fireEvent.click(screen.getByText("Flat"));
    expect(view.navigatedTo()?.split("?")[0]).toBe("/FamilyDetails");
    expect(view.navigatedParams()).toEqual({ familyId: "f2" });
  });

  it("shows the empty state with a create button", async () => {
    const view = await renderScreen(<FamilyListScreen />, { api: { getFamilies: { totalCount: 0, items: [] } } });
    expect(await screen.findByText("No households yet")).toBeTruthy();
    fireEvent.click(screen.getByText("Create household"));
    expect(view.navigatedTo()).toBe("/FamilyCreate");
  });

  it("toasts the server's message when the list fails", async () => {
    const view = await renderScreen(<FamilyListScreen />, { api: { getFamilies: () => fail(500, "Database down") } });
    await screen.findByText("No households yet");
    expect(view.toasts()).toContain("Database down");
  });

  it("opens the join panel with a linked share code filled in, and joins with it (aquapilot://join/<code>)", async () => {
    const code = "AQF1.eyJmIjoiZjkifQ.c2ln";
    const preview = shareAnalysis();
    const view = await renderScreen(<FamilyListScreen />, {
      route: routeOf("/FamilyList", { shareCode: code }),
      api: {
        getFamilies: { totalCount: 0, items: [] },
        analysisCode: ({ query }) => ({ ...preview, joined: query.preview !== "true" }),
      },
    });
    const field = (await screen.findByTestId("family-join-code")) as HTMLTextAreaElement;
    expect(field.value).toBe(code);
    // nothing is sent before the owner taps Join
    expect(view.api.callsTo("analysisCode")).toEqual([]);
    fireEvent.click(screen.getByTestId("family-join-submit"));
    expect((await screen.findByTestId("family-join-name")).textContent).toBe("Lake house");
    await clickInDialog("Join");
    await view.findToast("You joined Lake house");
    expect(view.api.callsTo("analysisCode").map((c) => c.query)).toEqual([{ code, preview: "true" }, { code }]);
    expect(view.navigatedTo()).toBe("/index/home");
  });
});
