import { fireEvent, screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { getItem, setItem } from "../../../shared/storage/index.ts";
import { fail, renderScreen, routeOf } from "../../../shared/testing/render.tsx";
import { DeviceNameUpdateScreen } from "./device-name-update-screen.tsx";

const device = { id: "d1", name: "Kitchen softener", familyId: "f1", mac: "AA:BB", image: null };
const route = routeOf("/DeviceNameUpdate", { deviceId: "d1" });
const input = () => screen.getByTestId("device-name-input") as HTMLInputElement;

describe("DeviceNameUpdate screen", () => {
  it("fills the device's name, saves a new one and keeps the stored device in step", async () => {
    const view = await renderScreen(<DeviceNameUpdateScreen />, {
      route,
      api: { getDeviceWithData: device, updateDeviceName: { ...device, name: "Cellar" } },
    });
    setItem("device", { id: "d1", name: "Kitchen softener" });
    await waitFor(() => expect(input().value).toBe("Kitchen softener"));
    fireEvent.change(input(), { target: { value: " Cellar " } });
    fireEvent.click(screen.getByTestId("device-name-save"));
    await view.findToast("Name saved");
    expect(view.api.lastCall("updateDeviceName").query).toEqual({ deviceId: "d1", name: "Cellar" });
    expect(getItem("device")?.name).toBe("Cellar");
    expect(view.wentBack()).toBe(true);
  });

  it("refuses an empty name and stays", async () => {
    const view = await renderScreen(<DeviceNameUpdateScreen />, { route, api: { getDeviceWithData: device } });
    await waitFor(() => expect(input().value).toBe("Kitchen softener"));
    fireEvent.change(input(), { target: { value: "   " } });
    fireEvent.click(screen.getByTestId("device-name-save"));
    await view.findToast("Enter a name of 1–32 characters");
    expect(view.api.callsTo("updateDeviceName")).toHaveLength(0);
    expect(view.wentBack()).toBe(false);
  });

  it("shows the server's refusal", async () => {
    const view = await renderScreen(<DeviceNameUpdateScreen />, {
      route,
      api: { getDeviceWithData: device, updateDeviceName: () => fail(404, "Device not found.") },
    });
    await waitFor(() => expect(input().value).toBe("Kitchen softener"));
    fireEvent.change(input(), { target: { value: "Cellar" } });
    fireEvent.click(screen.getByTestId("device-name-save"));
    await view.findToast("Device not found.");
  });
});
