import { fireEvent, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { clickInDialog, never, renderScreen } from "../../../shared/testing/render.tsx";
import { FamilyShareListScreen } from "./family-share-list-screen.tsx";

const inAnHour = new Date(Date.now() + 3_600_000).toISOString();
const share = (id: string, familyName: string, extra: object = {}) => ({
  id,
  familyId: "f1",
  familyName,
  code: `CODE-${id}`,
  createdAt: "2026-01-01T00:00:00Z",
  expiresAt: inAnHour,
  revoked: false,
  joinCount: 1,
  ...extra,
});

describe("FamilyShareList screen", () => {
  it("shows skeletons while loading", async () => {
    const view = await renderScreen(<FamilyShareListScreen />, { api: { getMyShares: never } });
    expect(view.container.querySelectorAll(".share-card")).toHaveLength(2);
    expect(screen.queryByTestId("family-share-item")).toBeNull();
  });

  it("lists the shares with their status and join count", async () => {
    await renderScreen(<FamilyShareListScreen />, {
      api: {
        getMyShares: {
          totalCount: 2,
          items: [share("s1", "Lake house"), share("s2", "Flat", { revoked: true, joinCount: 2 })],
        },
      },
    });
    const items = await screen.findAllByTestId("family-share-item");
    expect(items.map((i) => i.getAttribute("data-status"))).toEqual(["valid", "revoked"]);
    expect(screen.getByText("1 person joined")).toBeTruthy();
    expect(screen.getByText("2 people joined")).toBeTruthy();
    expect(screen.getAllByText("Revoke")).toHaveLength(1);
  });

  it("shows the empty state", async () => {
    await renderScreen(<FamilyShareListScreen />, { api: { getMyShares: { totalCount: 0, items: [] } } });
    expect(await screen.findByText("No shares yet")).toBeTruthy();
  });

  it("revokes a valid code after the confirmation", async () => {
    const view = await renderScreen(<FamilyShareListScreen />, {
      api: { getMyShares: { totalCount: 1, items: [share("s1", "Lake house")] }, revokeShareCode: null },
    });
    fireEvent.click(await screen.findByTestId("family-share-revoke"));
    await clickInDialog("Revoke");
    await view.findToast("Code revoked");
    expect(view.api.lastCall("revokeShareCode").query).toEqual({ id: "s1" });
  });
});
