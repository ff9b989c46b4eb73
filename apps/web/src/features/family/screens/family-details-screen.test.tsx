import { fireEvent, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { familyItem } from "../../../shared/testing/fixtures.ts";
import { clickInDialog, fail, never, renderScreen, routeOf } from "../../../shared/testing/render.tsx";
import { FamilyDetailsScreen } from "./family-details-screen.tsx";

const family = (isAdmin: boolean) =>
  familyItem({
    isAdmin,
    memberCount: 3,
    deviceCount: 2,
    address: "1 Shore Road",
    creationTime: "2026-01-02T03:04:05Z",
  });
const route = routeOf("/FamilyDetails", { familyId: "f1" });

describe("FamilyDetails screen", () => {
  it("shows a skeleton while the household loads", async () => {
    const view = await renderScreen(<FamilyDetailsScreen />, { route, api: { getFamily: never } });
    expect(view.container.querySelector(".family-hero__skeleton")).not.toBeNull();
    expect(screen.queryByTestId("family-details")).toBeNull();
  });

  it("shows the administrator's household with its rows and actions, and opens the members", async () => {
    const view = await renderScreen(<FamilyDetailsScreen />, { route, api: { getFamily: family(true) } });
    expect((await screen.findByTestId("family-details-name")).textContent).toBe("Lake house");
    expect(screen.getByText("Administrator")).toBeTruthy();
    expect(screen.getByText("1 Shore Road")).toBeTruthy();
    expect(screen.getByTestId("family-details-member-count").textContent).toBe("3");
    expect(screen.getByText("Share by QR code")).toBeTruthy();
    expect(screen.getByText("Delete household")).toBeTruthy();
    expect(view.api.lastCall("getFamily").params).toEqual({ id: "f1" });
    fireEvent.click(screen.getByText("Members"));
    expect(view.navigatedTo()?.split("?")[0]).toBe("/FamilyUserList");
    expect(view.navigatedParams()).toEqual({ familyId: "f1" });
  });

  it("shows a member no administrator actions", async () => {
    await renderScreen(<FamilyDetailsScreen />, { route, api: { getFamily: family(false) } });
    expect(await screen.findByText("Member")).toBeTruthy();
    expect(screen.queryByText("Delete household")).toBeNull();
    expect(screen.queryByText("Share by QR code")).toBeNull();
    expect(screen.getByText("Leave household")).toBeTruthy();
  });

  it("says the household is gone on 404 and offers the way home", async () => {
    const view = await renderScreen(<FamilyDetailsScreen />, {
      route,
      api: { getFamily: () => fail(404, "Not found") },
    });
    expect(await screen.findByText("This household no longer exists, or you are no longer a member")).toBeTruthy();
    fireEvent.click(screen.getByText("Back to home"));
    expect(view.navigatedTo()).toBe("/index/home");
  });

  it("shows another failure with a retry", async () => {
    const view = await renderScreen(<FamilyDetailsScreen />, {
      route,
      api: { getFamily: () => fail(500, "Database down") },
    });
    expect((await screen.findAllByText("Database down")).length).toBeGreaterThan(0);
    view.api.on("getFamily", family(true));
    fireEvent.click(screen.getByText("Retry"));
    expect(await screen.findByTestId("family-details")).toBeTruthy();
  });

  it("deletes the household after the confirmation and goes home", async () => {
    const view = await renderScreen(<FamilyDetailsScreen />, {
      route,
      api: { getFamily: family(true), deleteFamily: null },
    });
    fireEvent.click(await screen.findByText("Delete household"));
    await clickInDialog("Delete");
    await view.findToast("Household deleted");
    expect(view.api.lastCall("deleteFamily").params).toEqual({ id: "f1" });
    expect(view.navigatedTo()).toBe("/index/home");
  });

  it("tells the administrator how to leave instead of asking to, and opens the members from there", async () => {
    const view = await renderScreen(<FamilyDetailsScreen />, {
      route,
      api: { getFamily: family(true), withdrawFromFamily: null },
    });
    fireEvent.click(await screen.findByText("Leave household"));
    const dialog = await screen.findByRole("dialog");
    expect(dialog.textContent).toContain("Only you administer this household");
    expect(dialog.textContent).toContain("make another member administrator");
    expect(dialog.textContent).not.toContain("Leave");
    await clickInDialog("Members");
    expect(view.api.callsTo("withdrawFromFamily")).toHaveLength(0);
    expect(view.navigatedTo()?.split("?")[0]).toBe("/FamilyUserList");
    expect(view.navigatedParams()).toEqual({ familyId: "f1" });
  });

  it("asks a member to confirm leaving, then leaves", async () => {
    const view = await renderScreen(<FamilyDetailsScreen />, {
      route,
      api: { getFamily: family(false), withdrawFromFamily: null },
    });
    fireEvent.click(await screen.findByText("Leave household"));
    await clickInDialog("Leave");
    await view.findToast("You left the household");
    expect(view.api.lastCall("withdrawFromFamily").query).toEqual({ familyId: "f1" });
  });
});
