import { describe, expect, it } from "vitest";
import {
  BL3372_DEVICE_TYPE,
  BroadlinkPacketError,
  broadlinkChecksum,
  CloudState,
  decodeHelloAnswer,
  decodeHelloPacket,
  decodeJoinPacket,
  encodeHelloAnswer,
  encodeHelloPacket,
  encodeJoinAck,
  encodeJoinPacket,
  isJoinAck,
  WifiSecurity,
} from "./broadlink.ts";
import { fromHex, readLe16, toHex } from "./bytes.ts";

/**
 * Known-good packets written by python-broadlink itself (mjg59/python-broadlink 0.19.0): `broadlink.setup()` and the
 * discovery packet of `broadlink.device.scan()` run unchanged with the socket replaced by one that records what
 * `sendto` got (the clock fixed to 2025-01-06 10:30:15 +01:00, local address 192.168.1.20, port 0).
 */
const PYTHON = {
  joinAquaHome:
    "00000000000000000000000000000000000000000000000000000000000000002fc6000000001400000000000000000000000000000000" +
    "0000000000000000000000000041717561486f6d65000000000000000000000000000000000000000000000000736f66747761746572" +
    "3234000000000000000000000000000000000000000000080b0300",
  joinLong:
    "000000000000000000000000000000000000000000000000000000000000000007dc000000001400000000000000000000000000000000" +
    "000000000000000000000000007878787878787878787878787878787878787878787878787878787878787878707070707070707070" +
    "707070707070707070707070707070707070707070707020200400",
  hello: "000000000000000001000000e9071e0a19010601000000001401a8c0000000006cc10000000006000000000000000000",
};

describe("BroadLink join packet (python-broadlink setup())", () => {
  it("is byte for byte what python-broadlink sends", () => {
    expect(toHex(encodeJoinPacket({ ssid: "AquaHome", password: "softwater24", security: WifiSecurity.Wpa2 }))).toBe(
      PYTHON.joinAquaHome,
    );
    expect(
      toHex(encodeJoinPacket({ ssid: "x".repeat(32), password: "p".repeat(32), security: WifiSecurity.Wpa12 })),
    ).toBe(PYTHON.joinLong);
  });

  it("reads python-broadlink's packets back", () => {
    expect(decodeJoinPacket(fromHex(PYTHON.joinAquaHome))).toEqual({
      ssid: "AquaHome",
      password: "softwater24",
      security: WifiSecurity.Wpa2,
    });
    expect(decodeJoinPacket(fromHex(PYTHON.joinLong)).password).toBe("p".repeat(32));
  });

  it("carries UTF-8 names and refuses what does not fit", () => {
    const p = encodeJoinPacket({ ssid: "Café-Wi-Fi", password: "", security: WifiSecurity.None });
    expect(decodeJoinPacket(p)).toEqual({ ssid: "Café-Wi-Fi", password: "", security: 0 });
    expect(() => encodeJoinPacket({ ssid: "", password: "x", security: 3 })).toThrow(RangeError);
    expect(() => encodeJoinPacket({ ssid: "a", password: "p".repeat(33), security: 3 })).toThrow(RangeError);
    expect(() => encodeJoinPacket({ ssid: "é".repeat(17), password: "", security: 3 })).toThrow(RangeError);
  });

  it("refuses a packet with a broken checksum, kind or length", () => {
    const p = fromHex(PYTHON.joinAquaHome);
    p[0x50] ^= 1;
    expect(() => decodeJoinPacket(p)).toThrow(/checksum/);
    const k = fromHex(PYTHON.joinAquaHome);
    k[0x26] = 0x06;
    expect(() => decodeJoinPacket(k)).toThrow(BroadlinkPacketError);
    expect(() => decodeJoinPacket(fromHex(PYTHON.joinAquaHome).subarray(0, 0x80))).toThrow(/0x88/);
  });
});

describe("BroadLink hello (discovery)", () => {
  it("is byte for byte python-broadlink's scan() packet", () => {
    const packet = encodeHelloPacket({
      time: new Date("2025-01-06T09:30:15Z"),
      utcOffsetMinutes: 60,
      localIp: "192.168.1.20",
      localPort: 0,
    });
    expect(toHex(packet)).toBe(PYTHON.hello);
    expect(decodeHelloPacket(packet)).toEqual({ localIp: "192.168.1.20", localPort: 0, utcOffsetHours: 1 });
  });

  it("packs a negative offset, a Sunday and the port", () => {
    const packet = encodeHelloPacket({
      time: new Date("2025-01-06T03:00:00Z"),
      utcOffsetMinutes: -300,
      localIp: "10.0.0.2",
      localPort: 40000,
    });
    const d = decodeHelloPacket(packet);
    expect(d).toEqual({ localIp: "10.0.0.2", localPort: 40000, utcOffsetHours: -5 });
    expect(packet[0x11]).toBe(7); // 2025-01-05 22:00 local is a Sunday
    expect(packet[0x12]).toBe(5);
    expect(readLe16(packet, 0x20)).toBe(broadlinkChecksum(packet));
  });

  it("answers with the fields where python-broadlink reads them, and our extension after 0x80", () => {
    const answer = {
      mac: "02:AB:CD:EF:3F:2A",
      deviceType: BL3372_DEVICE_TYPE,
      ip: "192.168.1.57",
      name: "WiFi-BL3372",
      locked: false,
      cloudState: CloudState.Connected,
      failure: 0,
      pairingCode: "02ABCDEF3F2A:tok",
    };
    const packet = encodeHelloAnswer(answer);
    // python-broadlink scan(): devtype = resp[0x34] | resp[0x35] << 8; mac = resp[0x3A:0x40][::-1]; name up to NUL.
    expect(packet[0x34] | (packet[0x35] << 8)).toBe(0x3372);
    expect(toHex(packet.subarray(0x3a, 0x40).slice().reverse())).toBe("02abcdef3f2a");
    expect(new TextDecoder().decode(packet.subarray(0x40, packet.indexOf(0, 0x40)))).toBe("WiFi-BL3372");
    expect(packet[0x7f]).toBe(0);
    expect(decodeHelloAnswer(packet)).toEqual({ ...answer, mac: "02ABCDEF3F2A" });
    const failed = decodeHelloAnswer(
      encodeHelloAnswer({ ...answer, cloudState: CloudState.Failed, failure: 5, pairingCode: null }),
    );
    expect(failed).toMatchObject({ cloudState: 3, failure: 5, pairingCode: null });
    const broken = Uint8Array.from(packet);
    broken[0x82] = 200;
    expect(() => decodeHelloAnswer(broken)).toThrow(BroadlinkPacketError);
  });

  it("acknowledges a join with its own kind", () => {
    expect(isJoinAck(encodeJoinAck())).toBe(true);
    expect(
      isJoinAck(encodeHelloPacket({ time: new Date(), utcOffsetMinutes: 0, localIp: "1.2.3.4", localPort: 1 })),
    ).toBe(false);
  });
});
