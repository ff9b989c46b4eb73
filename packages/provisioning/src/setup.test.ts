import { describe, expect, it } from "vitest";
import { fromUtf8, utf8 } from "./bytes.ts";
import {
  decodeStatusExtension,
  encodeStatusExtension,
  moduleBluetoothName,
  parseSetupCustomData,
  SetupCustomTag,
  setupStateOfSdk,
  setupTicketData,
  statusExtensionRequest,
} from "./setup.ts";

describe("setup answers", () => {
  it("names a module after the last four hex digits of its MAC", () => {
    expect(moduleBluetoothName("02:ab:cd:ef:3f:2a")).toBe("WiFi-BL3372-3F2A");
  });

  it("maps the SDK's Wi-Fi state numbers to spec §3: an address is Wi-Fi connected, else connecting or configured", () => {
    const s = { state: 3, ip: "0.0.0.0", gw: "0.0.0.0", mask: "0.0.0.0", ssid: "", bssid: "00:00:00:00:00:00" };
    expect(setupStateOfSdk(s, false)).toBe(1);
    expect(setupStateOfSdk(s, true)).toBe(2);
    expect(setupStateOfSdk({ ...s, state: 4 }, true)).toBe(3);
    expect(setupStateOfSdk({ ...s, state: 4 }, false)).toBe(3);
  });

  it("the product's custom data: the ticket (tag 1) and the status extension request (tag 2)", () => {
    const ticket = "AbCdEfGhIjKlMnOpQrSt-_";
    const data = setupTicketData(ticket);
    expect(data[0]).toBe(SetupCustomTag.SetupTicket);
    expect(fromUtf8(data.subarray(1))).toBe(ticket);
    expect(parseSetupCustomData(data)).toEqual({ tag: "ticket", ticket });
    expect(parseSetupCustomData(statusExtensionRequest())).toEqual({ tag: "status-extension" });
    expect(() => setupTicketData("short")).toThrow("not a setup ticket");
    expect(parseSetupCustomData(Uint8Array.of(3, ...data.subarray(1)))).toBeNull();
    expect(() => setupTicketData(`${ticket}x`)).toThrow(RangeError);
    expect(() => setupTicketData("AbCdEfGhIjKlMnOpQrSt+/")).toThrow(RangeError);
    expect(parseSetupCustomData(Uint8Array.of(1, 0x41))).toBeNull();
    expect(parseSetupCustomData(Uint8Array.of(1, 0xff, 0xfe))).toBeNull();
    expect(parseSetupCustomData(Uint8Array.of(2, 0))).toBeNull();
    expect(parseSetupCustomData(Uint8Array.of(3))).toBeNull();
    expect(parseSetupCustomData(new Uint8Array(0))).toBeNull();
  });

  it("the status extension is compact JSON with spec §3's state, spec §4's failure and the pairing code", () => {
    const ext = { state: 4, failure: 0, pairingCode: "02ABCDEF3F2A:token" };
    expect(fromUtf8(encodeStatusExtension(ext))).toBe('{"state":4,"failure":0,"pairingCode":"02ABCDEF3F2A:token"}');
    expect(decodeStatusExtension(encodeStatusExtension(ext))).toEqual(ext);
    expect(decodeStatusExtension(utf8('{"state":2,"failure":4}'))).toEqual({ state: 2, failure: 4 });
    for (const bad of [
      '{"state":5,"failure":0}',
      '{"state":1,"failure":9}',
      '{"state":1}',
      '{"state":4,"failure":0,"pairingCode":"M:"}',
    ]) {
      expect(() => decodeStatusExtension(utf8(bad)), bad).toThrow();
    }
  });
});
