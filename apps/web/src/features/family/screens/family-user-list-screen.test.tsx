import { fireEvent, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { familyItem } from "../../../shared/testing/fixtures.ts";
import { fail, never, renderScreen, routeOf } from "../../../shared/testing/render.tsx";
import { FamilyUserListScreen } from "./family-user-list-screen.tsx";

const family = (isAdmin: boolean) => familyItem({ isAdmin });
const users = [
  { id: "u2", userName: "bob", name: "Bob", isAdmin: false, avatar: null, joinTime: "2026-02-01T00:00:00Z" },
  { id: "u1", userName: "tester", name: "", isAdmin: true, avatar: null, joinTime: "2026-01-01T00:00:00Z" },
];
const route = routeOf("/FamilyUserList", { familyId: "f1" });

describe("FamilyUserList screen", () => {
  it("shows skeleton rows while the members load", async () => {
    const view = await renderScreen(<FamilyUserListScreen />, {
      route,
      api: { getFamily: family(true), getFamilyUsers: never },
    });
    expect(view.container.querySelectorAll(".member-row__skeleton")).toHaveLength(2);
  });

  it("lists the members, administrator first, marks the caller and opens another member", async () => {
    const view = await renderScreen(<FamilyUserListScreen />, {
      route,
      api: { getFamily: family(true), getFamilyUsers: users },
    });
    const rows = await screen.findAllByTestId("family-user-item");
    expect(rows.map((r) => r.getAttribute("data-user-name"))).toEqual(["tester", "bob"]);
    expect(screen.getByText("(You)")).toBeTruthy();
    expect(screen.getByTestId("family-user-count").textContent).toBe("2 members");
    expect(screen.getByText("Invite members")).toBeTruthy();
    fireEvent.click(screen.getByText("Bob"));
    expect(view.navigatedParams()).toEqual({ familyId: "f1", familyUserId: "u2" });
  });

  it("gives a member no invite button and no links", async () => {
    await renderScreen(<FamilyUserListScreen />, {
      route,
      api: { getFamily: family(false), getFamilyUsers: users },
    });
    await screen.findByText("Bob");
    expect(screen.queryByText("Invite members")).toBeNull();
    expect(screen.queryAllByRole("button", { name: /Bob/ })).toHaveLength(0);
  });

  it("shows the empty state", async () => {
    await renderScreen(<FamilyUserListScreen />, { route, api: { getFamily: family(true), getFamilyUsers: [] } });
    expect(await screen.findByText("No members")).toBeTruthy();
  });

  it("says the household is gone on 403", async () => {
    await renderScreen(<FamilyUserListScreen />, {
      route,
      api: { getFamily: () => fail(403, "Forbidden"), getFamilyUsers: () => fail(403, "Forbidden") },
    });
    expect(await screen.findByText("This household no longer exists, or you are no longer a member")).toBeTruthy();
  });
});
