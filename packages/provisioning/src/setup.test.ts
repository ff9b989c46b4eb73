import { describe, expect, it } from "vitest";
import { utf8 } from "./bytes.ts";
import { decodeModuleWifiState, encodeModuleWifiState, moduleBluetoothName } from "./setup.ts";

describe("setup answers", () => {
  it("names a module after the last four hex digits of its MAC", () => {
    expect(moduleBluetoothName("02:ab:cd:ef:3f:2a")).toBe("WiFi-BL3372-3F2A");
  });

  it("round-trips the Wi-Fi state answer and reads the SDK's own fields without our additions", () => {
    const state = {
      state: 4,
      ip: "192.168.1.57",
      gw: "192.168.1.1",
      mask: "255.255.255.0",
      ssid: "AquaHome",
      bssid: "A0:B1:C2:D3:E4:F5",
      failure: 0,
      pairingCode: "02ABCDEF3F2A:token",
    };
    expect(decodeModuleWifiState(encodeModuleWifiState(state))).toEqual(state);
    const sdk = utf8(
      '{\n\t"state":\t2,\n\t"ip":\t"",\n\t"gw":\t"",\n\t"mask":\t"",\n\t"ssid":\t"AquaHome",\n\t"bssid":\t""\n}\0',
    );
    expect(decodeModuleWifiState(sdk)).toMatchObject({ state: 2, failure: 0, ssid: "AquaHome" });
    expect(() => decodeModuleWifiState(utf8('{"state":9}'))).toThrow();
  });
});
