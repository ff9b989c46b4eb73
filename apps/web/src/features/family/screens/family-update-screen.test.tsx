import { fireEvent, screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { familyItem } from "../../../shared/testing/fixtures.ts";
import { fail, renderScreen, routeOf } from "../../../shared/testing/render.tsx";
import { FamilyUpdateScreen } from "./family-update-screen.tsx";

const family = familyItem({ memberCount: 1 });
const route = routeOf("/FamilyUpdate", { familyId: "f1" });
const input = () => screen.getByTestId("family-update-name") as HTMLInputElement;

describe("FamilyUpdate screen", () => {
  it("fills the current name and saves a new one", async () => {
    const view = await renderScreen(<FamilyUpdateScreen />, {
      route,
      api: { getFamily: family, updateFamilyName: { ...family, name: "Cabin" } },
    });
    await waitFor(() => expect(input().value).toBe("Lake house"));
    fireEvent.change(input(), { target: { value: "  Cabin " } });
    fireEvent.click(screen.getByTestId("family-update-save"));
    await view.findToast("Saved");
    expect(view.api.lastCall("updateFamilyName").query).toEqual({ familyId: "f1", name: "Cabin" });
    expect(view.wentBack()).toBe(true);
  });

  it("refuses an empty name without calling the server", async () => {
    const view = await renderScreen(<FamilyUpdateScreen />, { route, api: { getFamily: family } });
    await waitFor(() => expect(input().value).toBe("Lake house"));
    fireEvent.change(input(), { target: { value: "  " } });
    fireEvent.click(screen.getByTestId("family-update-save"));
    await view.findToast("Please enter the household name");
    expect(view.api.callsTo("updateFamilyName")).toHaveLength(0);
  });

  it("shows the server's refusal", async () => {
    const view = await renderScreen(<FamilyUpdateScreen />, {
      route,
      api: { getFamily: family, updateFamilyName: () => fail(403, "Only the administrator can rename") },
    });
    await waitFor(() => expect(input().value).toBe("Lake house"));
    fireEvent.change(input(), { target: { value: "Cabin" } });
    fireEvent.click(screen.getByTestId("family-update-save"));
    await view.findToast("Only the administrator can rename");
  });
});
