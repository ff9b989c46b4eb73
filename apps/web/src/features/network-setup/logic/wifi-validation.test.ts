import { describe, expect, it } from "vitest";
import { isFiveGhzOnly, otherNetworkWarning, utf8Length, validateWifi } from "./wifi-validation.ts";

const home = { connected: true, ssid: "AquaHome", band: "2.4GHz" as const, ip: "192.168.1.23" };
const home5 = { connected: true, ssid: "AquaHome-5G", band: "5GHz" as const, ip: "192.168.1.23" };
const networks = [
  { ssid: "AquaHome", band: "2.4GHz" as const, secured: true, rssi: -48 },
  { ssid: "AquaHome-5G", band: "5GHz" as const, secured: true, rssi: -55 },
  { ssid: "Dual", band: "5GHz" as const, secured: true, rssi: -60 },
  { ssid: "Dual", band: "2.4GHz" as const, secured: true, rssi: -62 },
];

describe("Wi-Fi validation (spec §5, §9)", () => {
  it("needs the name and the password", () => {
    expect(validateWifi("", "secret", "ble")).toBe("required");
    expect(validateWifi("   ", "secret", "ble")).toBe("required");
    expect(validateWifi("AquaHome", "", "ble")).toBe("required");
    expect(validateWifi("AquaHome", "softwater24", "ble")).toBeNull();
    expect(validateWifi("AquaHome", "softwater24", "ap")).toBeNull();
  });

  it("counts UTF-8 bytes, not characters: names up to 32 bytes", () => {
    expect(utf8Length("Café")).toBe(5);
    expect(validateWifi("a".repeat(32), "p", "ble")).toBeNull();
    expect(validateWifi("a".repeat(33), "p", "ble")).toBe("nameTooLong");
    // 11 characters, 33 bytes
    expect(validateWifi("家".repeat(11), "p", "ble")).toBe("nameTooLong");
    expect(validateWifi("家".repeat(10), "p", "ap")).toBeNull();
  });

  it("allows 64-byte passwords on the new version and 32 on the old one", () => {
    expect(validateWifi("AquaHome", "p".repeat(64), "ble")).toBeNull();
    expect(validateWifi("AquaHome", "p".repeat(65), "ble")).toBe("passwordTooLong");
    expect(validateWifi("AquaHome", "p".repeat(32), "ap")).toBeNull();
    expect(validateWifi("AquaHome", "p".repeat(33), "ap")).toBe("passwordTooLongOld");
    expect(validateWifi("AquaHome", "ñ".repeat(17), "ap")).toBe("passwordTooLongOld");
  });

  it("refuses a network the phone knows as 5 GHz only", () => {
    expect(validateWifi("AquaHome-5G", "softwater24", "ble", { current: home5, networks: null })).toBe("fiveGhz");
    expect(validateWifi("AquaHome-5G", "softwater24", "ble", { current: home, networks })).toBe("fiveGhz");
    expect(validateWifi("AquaHome", "softwater24", "ble", { current: home5, networks })).toBeNull();
    // one name on both bands: the module takes the 2.4 GHz half
    expect(isFiveGhzOnly("Dual", { current: null, networks })).toBe(false);
    // unknown names pass: the module reports it if it cannot find them
    expect(isFiveGhzOnly("Elsewhere", { current: home5, networks })).toBe(false);
    expect(isFiveGhzOnly("AquaHome-5G", { current: null, networks: null })).toBe(false);
  });

  it("warns on the old version when the phone is on another network", () => {
    expect(otherNetworkWarning("AquaHome", "ap", home)).toBe(false);
    expect(otherNetworkWarning("Neighbour-WiFi", "ap", home)).toBe(true);
    expect(otherNetworkWarning("Neighbour-WiFi", "ble", home)).toBe(false);
    expect(otherNetworkWarning("AquaHome", "ap", null)).toBe(false);
    expect(otherNetworkWarning("AquaHome", "ap", { connected: false, ssid: null, band: null, ip: null })).toBe(false);
  });
});
