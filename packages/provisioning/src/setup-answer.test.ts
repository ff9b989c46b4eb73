import { describe, expect, it } from "vitest";
import { fromUtf8, utf8 } from "./bytes.ts";
import {
  BLE_NAME_PREFIX,
  BLE_SETUP_FAILURES,
  BLE_SETUP_STEPS,
  BleSetupFailure,
  decodeSdkWifiState,
  encodeSdkWifiState,
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

describe("the module's Wi-Fi state answer (blsync_ble.c CMD_WIFI_STATE_GET)", () => {
  const longest = {
    state: 4,
    ip: "255.255.255.255",
    gw: "192.168.100.254",
    mask: "255.255.255.000",
    ssid: "家".repeat(10) + "ab",
    bssid: "AA:BB:CC:DD:EE:FF",
  };

  it("is cJSON_Print's indented JSON, read back whole, with trailing NULs dropped", () => {
    const state = {
      state: 3,
      ip: "0.0.0.0",
      gw: "0.0.0.0",
      mask: "0.0.0.0",
      ssid: 'a"b\\c',
      bssid: "00:00:00:00:00:00",
    };
    const text =
      '{\n\t"state":\t3,\n\t"ip":\t"0.0.0.0",\n\t"gw":\t"0.0.0.0",\n\t"mask":\t"0.0.0.0",\n\t"ssid":\t"a\\"b\\\\c",\n\t"bssid":\t"00:00:00:00:00:00"\n}';
    expect(fromUtf8(encodeSdkWifiState(state))).toBe(text);
    expect(decodeSdkWifiState(utf8(`${text}\0\0\0`))).toEqual(state);
    expect(decodeSdkWifiState(encodeSdkWifiState(longest))).toEqual(longest);
    expect(decodeSdkWifiState(utf8(JSON.stringify({ ...longest, extra: 1 })))).toEqual(longest);
  });

  it("names an SSID over 32 bytes of UTF-8", () => {
    expect(() => decodeSdkWifiState(utf8(JSON.stringify({ ...longest, ssid: "家".repeat(11) })))).toThrow(
      /ssid longer than 32 bytes/,
    );
  });

  it("a NUL anywhere but at the end is not JSON", () => {
    expect(() => decodeSdkWifiState(utf8('{"state":1,\0"ip":"","gw":"","mask":"","ssid":"","bssid":""}'))).toThrow(
      SyntaxError,
    );
  });

  it("refuses each field one step past its range", () => {
    const past: Array<Partial<Record<keyof typeof longest, unknown>>> = [
      { state: -1 },
      { state: 256 },
      { state: 1.5 },
      { ip: "1".repeat(16) },
      { gw: "1".repeat(16) },
      { mask: "1".repeat(16) },
      { ssid: `${longest.ssid}c` },
      { bssid: "b".repeat(18) },
      { state: "4" },
      { ip: 1 },
      { gw: null },
      { mask: 0 },
      { ssid: [] },
      { bssid: false },
    ];
    for (const change of past) {
      expect(
        () => decodeSdkWifiState(utf8(JSON.stringify({ ...longest, ...change }))),
        JSON.stringify(change),
      ).toThrow();
    }
    for (const field of ["state", "ip", "gw", "mask", "ssid", "bssid"]) {
      const { [field as keyof typeof longest]: _, ...without } = longest;
      expect(() => decodeSdkWifiState(utf8(JSON.stringify(without))), field).toThrow();
    }
  });
});
