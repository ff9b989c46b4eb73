import { describe, expect, it } from "vitest";
import { classifyBluetoothError } from "./bluetooth-errors.ts";
import { checkPermissions, type PermissionDeps } from "./permissions.ts";

function deps(over: Partial<PermissionDeps> = {}): PermissionDeps {
  return {
    native: true,
    checkPermission: async () => true,
    isLocationEnabled: async () => true,
    bluetooth: async () => "on",
    wifiBridge: "native",
    ...over,
  };
}

describe("permission step (spec §4, §8)", () => {
  it("new version in a shell: four rows, all granted and on", async () => {
    const report = await checkPermissions("ble", deps());
    expect(report.rows.map((r) => [r.item, r.state])).toEqual([
      ["locationPermission", "ok"],
      ["bluetoothPermission", "ok"],
      ["locationService", "ok"],
      ["bluetoothService", "ok"],
    ]);
    expect(report).toMatchObject({ blocked: null, ready: true });
  });

  it("new version in a shell: each refusal with its §8 problem and the way to the settings", async () => {
    const report = await checkPermissions(
      "ble",
      deps({
        checkPermission: async (name) => name !== "bluetooth",
        isLocationEnabled: async () => false,
        bluetooth: async () => "off",
      }),
    );
    expect(report.rows).toEqual([
      { item: "locationPermission", state: "ok" },
      { item: "bluetoothPermission", state: "failed", problem: "bluetoothDenied", intent: "settings" },
      { item: "locationService", state: "failed", problem: "locationOff", intent: "location-settings" },
      { item: "bluetoothService", state: "failed", problem: "bluetoothOff", intent: "bluetooth-settings" },
    ]);
    expect(report.ready).toBe(false);
    const denied = await checkPermissions("ble", deps({ checkPermission: async (n) => n !== "location" }));
    expect(denied.rows[0]).toEqual({
      item: "locationPermission",
      state: "failed",
      problem: "locationDenied",
      intent: "settings",
    });
  });

  it("a throwing check counts as not granted", async () => {
    const report = await checkPermissions(
      "ble",
      deps({
        isLocationEnabled: async () => {
          throw new Error("bridge broke");
        },
      }),
    );
    expect(report.rows[2]).toMatchObject({ state: "failed", problem: "locationOff" });
    expect(report.ready).toBe(false);
  });

  it("new version in a browser: location rows skipped, the radio checked", async () => {
    const on = await checkPermissions("ble", deps({ native: false, wifiBridge: "none" }));
    expect(on.rows.map((r) => r.state)).toEqual(["skipped", "skipped", "skipped", "ok"]);
    expect(on.ready).toBe(true);
    const off = await checkPermissions("ble", deps({ native: false, bluetooth: async () => "unavailable" }));
    expect(off.rows[3]).toEqual({
      item: "bluetoothService",
      state: "failed",
      problem: "bluetoothUnavailable",
      intent: null,
    });
    expect(off).toMatchObject({ blocked: null, ready: false });
    const none = await checkPermissions("ble", deps({ native: false, bluetooth: async () => "unsupported" }));
    expect(none).toMatchObject({ blocked: "unsupported", ready: false });
    const refused = await checkPermissions("ble", deps({ native: false, bluetooth: async () => "permission" }));
    expect(refused.rows[1]).toMatchObject({ state: "failed", problem: "bluetoothDenied" });
  });

  it("old version: location only in a shell; skipped with the development bridge; needs the app otherwise", async () => {
    const shell = await checkPermissions("ap", deps({ isLocationEnabled: async () => false }));
    expect(shell.rows.map((r) => r.item)).toEqual(["locationPermission", "locationService"]);
    expect(shell.rows[1]).toMatchObject({ state: "failed", problem: "locationOff" });
    const dev = await checkPermissions("ap", deps({ native: false, wifiBridge: "dev" }));
    expect(dev).toMatchObject({ blocked: null, ready: true });
    expect(dev.rows.every((r) => r.state === "skipped")).toBe(true);
    const browser = await checkPermissions("ap", deps({ native: false, wifiBridge: "none" }));
    expect(browser).toMatchObject({ blocked: "needsApp", ready: false });
  });
});

describe("Bluetooth errors (spec §8)", () => {
  const domError = (name: string, message: string) => Object.assign(new Error(message), { name });
  it("reads Web Bluetooth's and the plugin's errors", () => {
    expect(classifyBluetoothError(domError("NotFoundError", "Bluetooth adapter not available."))).toBe("unavailable");
    expect(classifyBluetoothError(domError("NotFoundError", "User cancelled the requestDevice() chooser."))).toBe(
      "cancelled",
    );
    expect(
      classifyBluetoothError(Object.assign(new Error("No Bluetooth radio available."), { code: "UNAVAILABLE" })),
    ).toBe("unavailable");
    expect(
      classifyBluetoothError(
        Object.assign(new Error("Web Bluetooth API not available in this browser."), { code: "UNAVAILABLE" }),
      ),
    ).toBe("unsupported");
    expect(classifyBluetoothError(domError("SecurityError", "Origin is not allowed to access Bluetooth"))).toBe(
      "permission",
    );
    expect(classifyBluetoothError(new Error("Permission denied."))).toBe("permission");
    expect(classifyBluetoothError(new Error("Bluetooth not enabled."))).toBe("unavailable");
    expect(classifyBluetoothError(domError("NetworkError", "Connection attempt failed."))).toBe("failed");
    expect(classifyBluetoothError(null)).toBe("failed");
  });
});
