import { fireEvent, screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { familyItem } from "../../../shared/testing/fixtures.ts";
import { fail, renderScreen, routeOf } from "../../../shared/testing/render.tsx";
import { FamilyQrcodeScreen } from "./family-qrcode-screen.tsx";

const family = (isAdmin: boolean) => familyItem({ isAdmin, memberCount: 1 });
const code = (c: string) => ({
  code: c,
  expiresAt: new Date(Date.now() + 15 * 60_000).toISOString(),
  validSeconds: 900,
});
const route = routeOf("/FamilyQrcode", { familyId: "f1" });

describe("FamilyQrcode screen", () => {
  it("shows the administrator's code with its countdown and asks a new one on refresh", async () => {
    const view = await renderScreen(<FamilyQrcodeScreen />, {
      route,
      api: { getFamily: family(true), getShareCode: ({ query }) => code(query.refresh ? "NEW" : "OLD") },
    });
    expect((await screen.findByTestId("family-qr-family-name")).textContent).toBe("Lake house");
    await screen.findByTestId("family-qr-image");
    expect(screen.getByTestId("family-qr-countdown").textContent).toMatch(/^1[45]:\d\d$/);
    expect(view.api.lastCall("getShareCode").query).toEqual({ familyId: "f1" });
    fireEvent.click(screen.getByTestId("family-qr-refresh"));
    await waitFor(() => expect(view.api.lastCall("getShareCode").query).toEqual({ familyId: "f1", refresh: "true" }));
  });

  it("tells a member that only the administrator invites, without asking for a code", async () => {
    const view = await renderScreen(<FamilyQrcodeScreen />, { route, api: { getFamily: family(false) } });
    expect(await screen.findByText("Only the administrator can invite members")).toBeTruthy();
    expect(view.api.callsTo("getShareCode")).toHaveLength(0);
  });

  it("shows a failed code with the refresh prompt", async () => {
    await renderScreen(<FamilyQrcodeScreen />, {
      route,
      api: { getFamily: family(true), getShareCode: () => fail(500, "Signing failed") },
    });
    expect(await screen.findByText("Could not create the QR code")).toBeTruthy();
  });
});
