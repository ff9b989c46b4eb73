import type { TDeviceInfo } from "@aquapilot/contract/wire";
import { fireEvent, screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { deviceChange, deviceInfo } from "../../../shared/testing/fixtures.ts";
import { fail, renderScreen, routeOf } from "../../../shared/testing/render.tsx";
import { DeviceScreen } from "./device-screen.tsx";

const info = (patch: Partial<TDeviceInfo> = {}) => deviceInfo({ lastReportTime: new Date().toISOString(), ...patch });
const route = routeOf("/Device", { deviceId: "d1", familyId: "f1" });
const background = {
  getFamilyDevices: { totalCount: 1, items: [{ id: "d1", name: "Kitchen softener", familyId: "f1", sort: 1 }] },
  queryOtaVersion: { updating: false, progress: null, currentVersion: "1.0", latestVersion: "1.0" },
  getUnitPreferences: { volumeUnit: "L", hardnessUnit: "mgL" },
};

describe("Device screen", () => {
  it("shows the device with its online state and last report, and opens its details", async () => {
    const view = await renderScreen(<DeviceScreen />, { route, api: { ...background, queryDeviceInfo: info() } });
    expect((await screen.findByTestId("device-name")).textContent).toBe("Kitchen softener");
    expect(screen.getByTestId("device-online").textContent).toBe("Online");
    expect(screen.getByTestId("device-last-report").textContent).toBe("Last reported just now");
    expect(view.api.lastCall("queryDeviceInfo").query).toEqual({ deviceId: "d1" });
    fireEvent.click(screen.getByTestId("device-open-attribute"));
    expect(view.navigatedTo()?.split("?")[0]).toBe("/DeviceAttribute");
  });

  it("shows vacation mode and a close reason leading to the faults", async () => {
    const view = await renderScreen(<DeviceScreen />, {
      route,
      api: { ...background, queryDeviceInfo: info({ vacation: true, closeReason: 513, online: false }) },
    });
    expect(await screen.findByText("Vacation mode is on")).toBeTruthy();
    expect(screen.getByTestId("device-online").textContent).toBe("Offline");
    fireEvent.click(screen.getByTestId("device-close-reason"));
    expect(view.navigatedTo()?.split("?")[0]).toBe("/Fault");
  });

  it("shows a load failure with a retry", async () => {
    await renderScreen(<DeviceScreen />, {
      route,
      api: { ...background, queryDeviceInfo: () => fail(403, "Not your device") },
    });
    expect(await screen.findByText("Could not load the device")).toBeTruthy();
    expect(screen.getByText("Retry")).toBeTruthy();
  });

  it("follows the device going offline on hub 1", async () => {
    const view = await renderScreen(<DeviceScreen />, { route, api: { ...background, queryDeviceInfo: info() } });
    await screen.findByTestId("device-name");
    const message = deviceChange({
      mac: "A1B2C3D4E5F6",
      online: false,
      station: null,
      remainingWaterL: null,
      flowRateLpm: null,
      lastReportTime: new Date().toISOString(),
    });
    await view.sendDeviceChange(message);
    await waitFor(() => expect(screen.getByTestId("device-online").textContent).toBe("Offline"));
  });
});
