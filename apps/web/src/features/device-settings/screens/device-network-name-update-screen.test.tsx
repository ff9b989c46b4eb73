import { fireEvent, screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { renderScreen, routeOf } from "../../../shared/testing/render.tsx";
import { DeviceNetworkNameUpdateScreen } from "./device-network-name-update-screen.tsx";

const device = { id: "d1", name: "AquaPilot 1", familyId: "f1", mac: "AA:BB", image: null };
const families = { totalCount: 1, items: [{ id: "f1", name: "Lake house", isAdmin: true }] };
const route = routeOf("/DeviceNetworkNameUpdate", { deviceId: "d1", familyId: "f1" });
const input = () => screen.getByTestId("device-network-name-input") as HTMLInputElement;

describe("DeviceNetworkNameUpdate screen", () => {
  it("names the new device in its household, then opens it", async () => {
    const view = await renderScreen(<DeviceNetworkNameUpdateScreen />, {
      route,
      api: { getDeviceWithData: device, getFamilies: families, updateDeviceName: { ...device, name: "Kitchen" } },
    });
    await waitFor(() =>
      expect(screen.getByTestId("device-network-name-intro").textContent).toContain("The device is now in Lake house."),
    );
    await waitFor(() => expect(input().value).toBe("AquaPilot 1"));
    fireEvent.change(input(), { target: { value: "Kitchen" } });
    fireEvent.click(screen.getByTestId("device-network-name-done"));
    await view.findToast("Name saved");
    expect(view.api.lastCall("updateDeviceName").query).toEqual({ deviceId: "d1", name: "Kitchen" });
    expect(view.navigatedTo()?.split("?")[0]).toBe("/Device");
    expect(view.navigatedParams()).toEqual({ deviceId: "d1", familyId: "f1" });
  });

  it("skips naming and opens the device without a call", async () => {
    const view = await renderScreen(<DeviceNetworkNameUpdateScreen />, {
      route,
      api: { getDeviceWithData: device, getFamilies: families },
    });
    fireEvent.click(screen.getByTestId("device-network-name-skip"));
    expect(view.navigatedParams()).toEqual({ deviceId: "d1", familyId: "f1" });
    expect(view.api.callsTo("updateDeviceName")).toHaveLength(0);
  });
});
