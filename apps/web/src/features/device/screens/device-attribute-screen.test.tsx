import { fireEvent, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { deviceInfo } from "../../../shared/testing/fixtures.ts";
import { renderScreen, routeOf } from "../../../shared/testing/render.tsx";
import { DeviceAttributeScreen } from "./device-attribute-screen.tsx";

const info = deviceInfo({
  mac: "A1B2C3D4E5F6",
  model: "AP-200",
  deviceSerialNumber: "DSN-1",
  firmwareVersion: "1.4.2",
  totalWaterL: 12345,
  vacation: true,
  registeredAt: new Date(Date.now() - 2.5 * 365 * 86_400_000).toISOString(),
});
const route = routeOf("/DeviceAttribute", { deviceId: "d1", familyId: "f1" });
const units = { volumeUnit: "L", hardnessUnit: "mgL" };

describe("DeviceAttribute screen", () => {
  it("shows the device's attributes, age and settings summary", async () => {
    const view = await renderScreen(<DeviceAttributeScreen />, {
      route,
      api: { queryDeviceInfo: info, getUnitPreferences: units },
    });
    expect((await screen.findByTestId("attr-model")).textContent).toBe("AP-200");
    expect(screen.getByTestId("attr-serial").textContent).toBe("—");
    expect(screen.getByTestId("attr-firmware").textContent).toBe("1.4.2");
    expect(screen.getByTestId("attr-age").textContent).toBe("2 years");
    expect(screen.getByTestId("attr-vacation").textContent).toBe("On");
    expect(screen.getByTestId("attr-capacity").textContent).toMatch(/1[,.\s ]?000/);
    expect(view.api.lastCall("queryDeviceInfo").query).toEqual({ deviceId: "d1" });
  });

  it("shows no attributes before the device has answered", async () => {
    await renderScreen(<DeviceAttributeScreen />, { route, api: { queryDeviceInfo: () => new Promise(() => {}) } });
    expect(screen.queryByTestId("attr-model")).toBeNull();
    expect(screen.getByTestId("attr-open-info")).toBeTruthy();
  });

  it("opens the advanced settings of the device", async () => {
    const view = await renderScreen(<DeviceAttributeScreen />, { route, api: { queryDeviceInfo: info } });
    fireEvent.click(screen.getByTestId("attr-open-setting"));
    expect(view.navigatedTo()?.split("?")[0]).toBe("/DeviceSetting");
    expect(view.navigatedParams()).toEqual({ deviceId: "d1", familyId: "f1" });
  });
});
