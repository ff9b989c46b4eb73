import { fireEvent, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { familyItem } from "../../../shared/testing/fixtures.ts";
import { clickInDialog, fail, renderScreen, routeOf } from "../../../shared/testing/render.tsx";
import { FamilyUserDetailsScreen } from "./family-user-details-screen.tsx";

const family = (isAdmin: boolean) => familyItem({ isAdmin });
const users = [
  { id: "u1", userName: "tester", name: "", isAdmin: true, avatar: null, joinTime: "2026-01-01T00:00:00Z" },
  { id: "u2", userName: "bob", name: "Bob", isAdmin: false, avatar: null, joinTime: "2026-02-01T00:00:00Z" },
];
const route = routeOf("/FamilyUserDetails", { familyId: "f1", familyUserId: "u2" });

describe("FamilyUserDetails screen", () => {
  it("shows the member with account, name and role, and the administrator's actions", async () => {
    await renderScreen(<FamilyUserDetailsScreen />, {
      route,
      api: { getFamily: family(true), getFamilyUsers: users },
    });
    expect((await screen.findByTestId("family-user-name")).textContent).toBe("Bob");
    expect(screen.getByText("bob")).toBeTruthy();
    expect(screen.getByText("Transfer administration")).toBeTruthy();
    expect(screen.getByText("Remove member")).toBeTruthy();
  });

  it("gives a member no actions", async () => {
    await renderScreen(<FamilyUserDetailsScreen />, {
      route,
      api: { getFamily: family(false), getFamilyUsers: users },
    });
    await screen.findByTestId("family-user-name");
    expect(screen.queryByText("Remove member")).toBeNull();
  });

  it("says the member is gone when not in the list", async () => {
    await renderScreen(<FamilyUserDetailsScreen />, {
      route,
      api: { getFamily: family(true), getFamilyUsers: [users[0]] },
    });
    expect(await screen.findByText("This member is no longer in the household")).toBeTruthy();
  });

  it("shows a load failure", async () => {
    await renderScreen(<FamilyUserDetailsScreen />, {
      route,
      api: { getFamily: family(true), getFamilyUsers: () => fail(500, "Database down") },
    });
    expect((await screen.findByTestId("family-user-gone")).textContent).toContain("Database down");
  });

  it("removes the member after the confirmation and goes back", async () => {
    const view = await renderScreen(<FamilyUserDetailsScreen />, {
      route,
      api: { getFamily: family(true), getFamilyUsers: users, removeFamilyUser: null },
    });
    fireEvent.click(await screen.findByText("Remove member"));
    await clickInDialog("Remove");
    await view.findToast("Member removed");
    expect(view.api.lastCall("removeFamilyUser").params).toEqual({ id: "u2" });
    expect(view.wentBack()).toBe(true);
  });
});
