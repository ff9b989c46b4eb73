import { fireEvent, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { clickInDialog, fail, never, renderScreen, routeOf } from "../../../shared/testing/render.tsx";
import { DeviceInfoScreen } from "./device-info-screen.tsx";

const device = {
  id: "d1",
  name: "Kitchen softener",
  familyId: "f1",
  mac: "A1B2C3D4E5F6",
  image: null,
  model: "AP-200",
  deviceModel: { name: "AquaPilot 200" },
  deviceSerialNumber: "DSN-1",
  serialNumber: null,
  firmwareVersion: "1.4.2",
};
const families = (isAdmin: boolean) => ({ totalCount: 1, items: [{ id: "f1", name: "Home", isAdmin }] });
const route = routeOf("/DeviceInfo", { deviceId: "d1" });

describe("DeviceInfo screen", () => {
  it("shows loading, then the device's identity with unreported values marked", async () => {
    const view = await renderScreen(<DeviceInfoScreen />, { route, api: { getDeviceWithData: never } });
    expect(screen.getByTestId("device-info-loading")).toBeTruthy();
    view.unmount();
    await renderScreen(<DeviceInfoScreen />, {
      route,
      api: { getDeviceWithData: device, getFamilies: families(false) },
    });
    expect((await screen.findByTestId("device-info-title")).textContent).toBe("Kitchen softener");
    expect(screen.getByTestId("device-info-model").textContent).toContain("AP-200");
    expect(screen.getByTestId("device-info-firmware").textContent).toContain("1.4.2");
    expect(screen.getByTestId("device-info-serial-number").textContent).toContain("Not reported");
    expect(screen.queryByTestId("device-info-delete")).toBeNull();
  });

  it("shows a load failure", async () => {
    await renderScreen(<DeviceInfoScreen />, {
      route,
      api: { getDeviceWithData: () => fail(404, "Device not found.") },
    });
    expect((await screen.findByTestId("device-info-error")).textContent).toContain("Device not found.");
  });

  it("lets the administrator delete the device after the confirmation", async () => {
    const view = await renderScreen(<DeviceInfoScreen />, {
      route,
      api: { getDeviceWithData: device, getFamilies: families(true), deleteDevice: null },
    });
    fireEvent.click(await screen.findByTestId("device-info-delete"));
    await clickInDialog("Delete device");
    await view.findToast("Device deleted");
    expect(view.api.lastCall("deleteDevice").query).toEqual({ deviceId: "d1" });
    expect(view.navigatedTo()).toBe("/index/home");
  });

  it("opens the name editor", async () => {
    const view = await renderScreen(<DeviceInfoScreen />, {
      route,
      api: { getDeviceWithData: device, getFamilies: families(false) },
    });
    fireEvent.click(await screen.findByTestId("device-info-name"));
    expect(view.navigatedTo()?.split("?")[0]).toBe("/DeviceNameUpdate");
  });
});
