import { fireEvent, screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { familyItem, shareAnalysis } from "../../../shared/testing/fixtures.ts";
import { clickInDialog, fail, renderScreen } from "../../../shared/testing/render.tsx";
import { NoFamilyScreen } from "./no-family-screen.tsx";

const preview = shareAnalysis();

describe("NoFamily screen", () => {
  it("explains and offers to create a household", async () => {
    const view = await renderScreen(<NoFamilyScreen />, { route: "/NoFamily" });
    expect(screen.getByText("No household yet")).toBeTruthy();
    expect(screen.getByText("Join a household")).toBeTruthy();
    fireEvent.click(screen.getByText("Create a household"));
    expect(view.navigatedTo()?.split("?")[0]).toBe("/FamilyCreate");
    expect(view.navigatedParams()).toEqual({ from: "NoFamily" });
  });

  it("goes Home in its place for someone who has a household, and stays for someone who has none", async () => {
    const member = await renderScreen(<NoFamilyScreen />, {
      route: "/NoFamily",
      api: { getFamilies: { items: [familyItem()], totalCount: 1 } },
    });
    await waitFor(() => expect(member.navigatedTo()).toBe("/index/home"));
    member.unmount();

    const newcomer = await renderScreen(<NoFamilyScreen />, {
      route: "/NoFamily",
      api: { getFamilies: { items: [], totalCount: 0 } },
    });
    await waitFor(() => expect(newcomer.api.callsTo("getFamilies").length).toBeGreaterThan(0));
    await new Promise((r) => setTimeout(r, 50));
    expect(newcomer.navigatedTo()).toBeNull();
    expect(screen.getByText("No household yet")).toBeTruthy();
  });

  it("joins with a pasted code after the preview's confirmation", async () => {
    const view = await renderScreen(<NoFamilyScreen />, {
      api: { analysisCode: ({ query }) => ({ ...preview, joined: query.preview !== "true" }) },
    });
    fireEvent.change(screen.getByTestId("family-join-code"), { target: { value: " SHARE-1 " } });
    fireEvent.click(screen.getByTestId("family-join-submit"));
    expect((await screen.findByTestId("family-join-name")).textContent).toBe("Lake house");
    await clickInDialog("Join");
    await view.findToast("You joined Lake house");
    expect(view.api.callsTo("analysisCode").map((c) => c.query)).toEqual([
      { code: "SHARE-1", preview: "true" },
      { code: "SHARE-1" },
    ]);
    expect(view.navigatedTo()).toBe("/index/home");
  });

  it("shows the server's refusal of an expired code", async () => {
    const view = await renderScreen(<NoFamilyScreen />, {
      api: { analysisCode: () => fail(400, "The share code has expired") },
    });
    fireEvent.change(screen.getByTestId("family-join-code"), { target: { value: "OLD" } });
    fireEvent.click(screen.getByTestId("family-join-submit"));
    await view.findToast("The share code has expired");
    expect(view.navigatedTo()).toBeNull();
  });
});
