import { describe, expect, it } from "vitest";
import { fromUtf8, utf8 } from "./bytes.ts";
import {
  BLE_NAME_PREFIX,
  BLE_SETUP_FAILURES,
  BLE_SETUP_STEPS,
  BleSetupFailure,
  decodeModuleWifiState,
  encodeModuleWifiState,
  moduleBluetoothName,
  SETUP_AP_SSID,
  SMART_SETUP_FAILURES,
  SMART_SETUP_STEPS,
  SmartSetupFailure,
} from "./setup.ts";

/**
 * The set-up flows' vocabulary as spec §4 lists it (progress steps and failures of the Bluetooth and the smart flow, in
 * the spec's order) and the module's Wi-Fi state answer (blsync_ble.c CMD_WIFI_STATE_GET fields, docs/device-protocol.md
 * §13), checked at the edges of every field.
 */

describe("the set-up flows of spec §4", () => {
  it("Bluetooth: starting, adding, added; failures 1–8 in the spec's order", () => {
    expect(BLE_SETUP_STEPS).toEqual(["starting", "adding", "added"]);
    expect(BleSetupFailure).toEqual({
      InitializationFailed: 1,
      ConnectionTimedOut: 2,
      AccessPointTimeout: 3,
      RouterPassword: 4,
      DnsResolutionFailed: 5,
      ActivationStepOneFailed: 6,
      ActivationStepTwoFailed: 7,
      NoServerResponse: 8,
    });
    expect(BLE_SETUP_FAILURES).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it("smart: starting, searching, connected to Wi-Fi, connecting to the server, adding, added; failures 1–4", () => {
    expect(SMART_SETUP_STEPS).toEqual([
      "starting",
      "searching",
      "wifiConnected",
      "connectingServer",
      "adding",
      "added",
    ]);
    expect(SmartSetupFailure).toEqual({
      InitializationFailed: 1,
      ConnectionTimedOut: 2,
      DeviceNotFound: 3,
      ServerConnectionFailed: 4,
    });
    expect(SMART_SETUP_FAILURES).toEqual([1, 2, 3, 4]);
  });

  it("names the module: its access point WiFi-BL3372, its Bluetooth name with the MAC's last four hex digits", () => {
    expect(SETUP_AP_SSID).toBe("WiFi-BL3372");
    expect(BLE_NAME_PREFIX).toBe("WiFi-BL3372-");
    // Any separator, either case; the digits 0–9 and a–f/A–F at the edges of their ranges.
    expect(moduleBluetoothName("12-34-56-78-9a-f0")).toBe("WiFi-BL3372-9AF0");
    expect(moduleBluetoothName("123456789AF0")).toBe("WiFi-BL3372-9AF0");
    expect(moduleBluetoothName("12.34.56.78.0F.A9")).toBe("WiFi-BL3372-0FA9");
  });
});

describe("the module's Wi-Fi state answer", () => {
  const longest = {
    state: 4,
    ip: "255.255.255.255",
    gw: "192.168.100.254",
    mask: "255.255.255.000",
    ssid: "s".repeat(32),
    bssid: "AA:BB:CC:DD:EE:FF",
    failure: 8,
    pairingCode: "p".repeat(256),
  };

  it("is compact JSON, read back whole, with trailing NULs dropped", () => {
    const state = { state: 0, ip: "", gw: "", mask: "", ssid: "", bssid: "", failure: 0 };
    const text = '{"state":0,"ip":"","gw":"","mask":"","ssid":"","bssid":"","failure":0}';
    expect(fromUtf8(encodeModuleWifiState(state))).toBe(text);
    expect(decodeModuleWifiState(utf8(`${text}\0\0\0`))).toEqual(state);
    expect(decodeModuleWifiState(encodeModuleWifiState(longest))).toEqual(longest);
    expect(decodeModuleWifiState(utf8('{"state":1,"ip":"","gw":"","mask":"","ssid":"a","bssid":""}'))).toEqual({
      state: 1,
      ip: "",
      gw: "",
      mask: "",
      ssid: "a",
      bssid: "",
      failure: 0,
    });
    expect(decodeModuleWifiState(utf8(JSON.stringify({ ...longest, pairingCode: "M:T" }))).pairingCode).toBe("M:T");
  });

  it("a NUL anywhere but at the end is not JSON", () => {
    expect(() => decodeModuleWifiState(utf8('{"state":1,\0"ip":"","gw":"","mask":"","ssid":"","bssid":""}'))).toThrow(
      SyntaxError,
    );
  });

  it("refuses each field one step past its range", () => {
    const past: Array<Partial<Record<keyof typeof longest, unknown>>> = [
      { state: -1 },
      { state: 5 },
      { state: 1.5 },
      { ip: "1".repeat(16) },
      { gw: "1".repeat(16) },
      { mask: "1".repeat(16) },
      { ssid: "s".repeat(33) },
      { bssid: "b".repeat(18) },
      { failure: -1 },
      { failure: 9 },
      { failure: 0.5 },
      { pairingCode: "p".repeat(257) },
      { pairingCode: "M:" },
      { state: "4" },
      { ip: 1 },
      { gw: null },
      { mask: 0 },
      { ssid: [] },
      { bssid: false },
      { failure: "0" },
      { pairingCode: 7 },
    ];
    for (const change of past) {
      expect(
        () => decodeModuleWifiState(utf8(JSON.stringify({ ...longest, ...change }))),
        JSON.stringify(change),
      ).toThrow();
    }
    for (const field of ["state", "ip", "gw", "mask", "ssid", "bssid"]) {
      const { [field as keyof typeof longest]: _, ...without } = longest;
      expect(() => decodeModuleWifiState(utf8(JSON.stringify(without))), field).toThrow();
    }
  });
});
