import { fireEvent, screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { fail, never, renderScreen, routeOf } from "../../../shared/testing/render.tsx";
import { DeviceSettingScreen } from "./device-setting-screen.tsx";

const device = {
  id: "d1",
  name: "Kitchen",
  familyId: "f1",
  mac: "A1",
  image: null,
  online: true,
  settings: { saltAddition: 2 },
};
const model = {
  deviceModel: "AP-200",
  sources: [],
  fields: [
    {
      name: "saltAddition",
      type: "number",
      unit: "kg",
      picker: null,
      min: 0.5,
      max: 8,
      step: null,
      options: null,
      readOnly: false,
    },
  ],
};
const units = { volumeUnit: "L", hardnessUnit: "mgL" };
const route = routeOf("/DeviceSetting", { deviceId: "d1" });
const api = { getDeviceWithData: device, getDeviceModelSetting: model, getUnitPreferences: units };
const input = () => screen.getByTestId("device-setting-input-saltAddition") as HTMLInputElement;

describe("DeviceSetting screen", () => {
  it("shows loading until the device has answered", async () => {
    await renderScreen(<DeviceSettingScreen />, { route, api: { ...api, getDeviceWithData: never } });
    expect(screen.getByTestId("device-setting-loading")).toBeTruthy();
  });

  it("shows the model's fields with the device's values and allowed ranges", async () => {
    await renderScreen(<DeviceSettingScreen />, { route, api });
    await waitFor(() => expect(input().value).toBe("2"));
    expect(screen.getByText("Salt per regeneration")).toBeTruthy();
    expect(screen.getByTestId("device-setting-range-saltAddition").textContent).toBe("Allowed 0.5–8 kg");
  });

  it("shows a load failure", async () => {
    await renderScreen(<DeviceSettingScreen />, {
      route,
      api: { ...api, getDeviceWithData: () => fail(404, "Device not found.") },
    });
    expect(await screen.findByText("Could not load the settings")).toBeTruthy();
  });

  it("refuses a value out of range without sending anything", async () => {
    const view = await renderScreen(<DeviceSettingScreen />, { route, api });
    await waitFor(() => expect(input().value).toBe("2"));
    fireEvent.change(input(), { target: { value: "20" } });
    fireEvent.click(screen.getByTestId("device-setting-save"));
    expect((await screen.findByTestId("device-setting-error-saltAddition")).textContent).toBe("Out of range");
    expect(screen.getByTestId("device-setting-status").textContent).toContain("Please enter the correct configuration");
    expect(view.api.callsTo("controlDevice")).toHaveLength(0);
  });

  it("sends the changed setting as set-config and shows the device's acknowledgement", async () => {
    const view = await renderScreen(<DeviceSettingScreen />, {
      route,
      api: {
        ...api,
        controlDevice: ({ query }) => ({ commandId: query.commandId, status: "done", error: null, message: null }),
      },
    });
    await waitFor(() => expect(input().value).toBe("2"));
    fireEvent.change(input(), { target: { value: "3" } });
    expect(screen.getByTestId("device-setting-status").textContent).toBe("1 unsaved change");
    fireEvent.click(screen.getByTestId("device-setting-save"));
    await waitFor(() => expect(screen.getByTestId("device-setting-status").textContent).toBe("Applied by the device"));
    const call = view.api.lastCall("controlDevice");
    expect(call.body).toEqual({ command: "set-config", params: { settings: { saltAddition: 3 } } });
    expect(call.query.deviceId).toBe("d1");
    expect(call.headers["Idempotency-Key"]).toBe(call.query.commandId);
  });

  it.each([
    ["en", "times"],
    ["ru", "раз"],
    ["es", "veces"],
  ] as const)("in %s keeps one unit word beside a count as the owner types 1, 2 or 5: %s", async (language, word) => {
    const count = {
      name: "backWashIntervalNumber",
      type: "number",
      unit: "times",
      picker: null,
      min: 1,
      max: 99,
      step: null,
      options: null,
      readOnly: false,
    };
    await renderScreen(<DeviceSettingScreen />, {
      route,
      language,
      api: {
        ...api,
        getDeviceWithData: { ...device, settings: { backWashIntervalNumber: 2 } },
        getDeviceModelSetting: { ...model, fields: [count] },
      },
    });
    const field = () => screen.getByTestId("device-setting-input-backWashIntervalNumber") as HTMLInputElement;
    await waitFor(() => expect(field().value).toBe("2"));
    for (const typed of ["1", "2", "5"]) {
      fireEvent.change(field(), { target: { value: typed } });
      expect(screen.getByTestId("device-setting-unit-backWashIntervalNumber").textContent, typed).toBe(word);
    }
  });
});
