import { describe, expect, it } from "vitest";
import {
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
import { toHex } from "./bytes.ts";

/**
 * The BroadLink packet rules at their edges, with packets built by hand from the layout of docs/device-protocol.md §13
 * and python-broadlink (kind at 0x26; checksum at 0x20 LE16: 0xbeaf plus every byte but 0x20–0x21, mod 2^16; join:
 * SSID at 0x44, password at 0x64, their lengths at 0x84–0x85, security at 0x86; hello answer: device type at 0x34, IP
 * reversed at 0x36, MAC reversed at 0x3a, name from 0x40, lock at 0x7f; the product's extension from 0x80: "AQ",
 * cloud state, failure, code length and code; join: the setup ticket from 0x28, its length at 0x87).
 */

/** `packet` with its checksum written as python-broadlink computes it. */
function sealed(packet: Uint8Array): Uint8Array {
  let sum = 0xbeaf;
  packet.forEach((b, i) => {
    if (i !== 0x20 && i !== 0x21) sum += b;
  });
  sum %= 0x10000;
  packet[0x20] = sum & 0xff;
  packet[0x21] = sum >> 8;
  return packet;
}

/** A join packet with the given raw fields, sealed. */
function joinPacket(ssid: number[], ssidLength: number, password: number[], passwordLength: number, security: number) {
  const p = new Uint8Array(0x88);
  p[0x26] = 0x14;
  p.set(ssid, 0x44);
  p.set(password, 0x64);
  p[0x84] = ssidLength;
  p[0x85] = passwordLength;
  p[0x86] = security;
  return sealed(p);
}

/** The reason of the BroadlinkPacketError `run` throws. */
function reasonOf(run: () => unknown): string {
  try {
    run();
  } catch (err) {
    if (err instanceof BroadlinkPacketError) return err.reason;
    throw err;
  }
  throw new Error("no BroadlinkPacketError thrown");
}

const a = "a".charCodeAt(0);

describe("the BroadLink checksum", () => {
  it("starts at 0xbeaf, skips its own two bytes, adds every other byte and wraps at 16 bits", () => {
    expect(broadlinkChecksum(new Uint8Array(0x30))).toBe(0xbeaf);
    const own = new Uint8Array(0x30);
    own[0x20] = 0xff;
    own[0x21] = 0xff;
    expect(broadlinkChecksum(own)).toBe(0xbeaf);
    const one = new Uint8Array(0x30);
    one[0x1f] = 1;
    one[0x22] = 2;
    expect(broadlinkChecksum(one)).toBe(0xbeaf + 3);
    // 0x200 bytes of 0xff: 510 count.
    expect(broadlinkChecksum(new Uint8Array(0x200).fill(0xff))).toBe((0xbeaf + 510 * 0xff) % 0x10000);
  });

  it("the join acknowledgement is 0x30 bytes of kind 0x15 with checksum 0xbeaf + 0x15", () => {
    expect(toHex(encodeJoinAck())).toBe(`${"00".repeat(0x20)}c4be${"00".repeat(4)}15${"00".repeat(9)}`);
  });
});

describe("join packets refused, and why", () => {
  it("a packet error names its rule", () => {
    const err = new BroadlinkPacketError("SSID length");
    expect(err.message).toBe("broadlink packet: SSID length");
    expect(err.name).toBe("BroadlinkPacketError");
    expect(err).toBeInstanceOf(Error);
  });

  it("takes lengths 1–32 and security modes 0–4, and nothing else", () => {
    expect(decodeJoinPacket(joinPacket([a], 1, [], 0, 4))).toEqual({
      ssid: "a",
      password: "",
      security: 4,
      setupTicket: null,
    });
    expect(reasonOf(() => decodeJoinPacket(joinPacket([], 0, [], 0, 3)))).toBe("SSID length");
    expect(reasonOf(() => decodeJoinPacket(joinPacket([a], 33, [], 0, 3)))).toBe("SSID length");
    expect(reasonOf(() => decodeJoinPacket(joinPacket([a], 1, [], 33, 3)))).toBe("password length");
    expect(reasonOf(() => decodeJoinPacket(joinPacket([a], 1, [], 0, 5)))).toBe("security mode 5");
    expect(reasonOf(() => decodeJoinPacket(joinPacket([0xff], 1, [], 0, 3)))).toBe("text is not UTF-8");
    expect(reasonOf(() => decodeJoinPacket(joinPacket([a], 1, [0xc3], 1, 3)))).toBe("text is not UTF-8");
  });

  it("checks the length, then the kind, then the checksum", () => {
    expect(reasonOf(() => decodeJoinPacket(new Uint8Array(0x89)))).toBe("join packet must be 0x88 bytes");
    const kind = joinPacket([a], 1, [], 0, 3);
    kind[0x26] = 0x06;
    expect(reasonOf(() => decodeJoinPacket(sealed(kind)))).toBe("join packet has kind 0x6");
    const sum = joinPacket([a], 1, [], 0, 3);
    sum[0x20] ^= 1;
    expect(reasonOf(() => decodeJoinPacket(sum))).toBe("join packet checksum");
  });

  it("encodes names up to 32 bytes with their messages for what does not fit", () => {
    expect(() => encodeJoinPacket({ ssid: "", password: "", security: WifiSecurity.None })).toThrow(
      "SSID must have 1–32 bytes",
    );
    expect(() => encodeJoinPacket({ ssid: "s".repeat(33), password: "", security: WifiSecurity.None })).toThrow(
      "SSID must have 1–32 bytes",
    );
    expect(() => encodeJoinPacket({ ssid: "s", password: "p".repeat(33), security: WifiSecurity.None })).toThrow(
      "password must have at most 32 bytes",
    );
    expect(toHex(encodeJoinPacket({ ssid: "a", password: "", security: WifiSecurity.Wep }))).toBe(
      toHex(joinPacket([a], 1, [], 0, 1)),
    );
  });
});

describe("hello packets at their edges", () => {
  const hello = { time: new Date("2025-03-02T12:00:00Z"), utcOffsetMinutes: 0, localIp: "255.0.0.1", localPort: 65535 };

  it("takes any port 0–65535 and every octet 0–255", () => {
    const p = encodeHelloPacket(hello);
    expect(toHex(p.subarray(0x18, 0x1e))).toBe("010000ff" + "ffff");
    expect(decodeHelloPacket(p)).toEqual({ localIp: "255.0.0.1", localPort: 65535, utcOffsetHours: 0 });
  });

  it("refuses a port out of range or not whole, and anything but a dotted IPv4 address", () => {
    for (const localPort of [-1, 65536, 1.5])
      expect(() => encodeHelloPacket({ ...hello, localPort })).toThrow("port must be 0–65535");
    for (const localIp of ["1.2.3", "1.2.3.4.5", "1.2.3.256", "1.2.3.-1", "1.2.x.4"])
      expect(() => encodeHelloPacket({ ...hello, localIp })).toThrow(`not an IPv4 address: ${localIp}`);
  });

  it("packs a Sunday as ISO weekday 7 and a Saturday as 6", () => {
    // 2025-03-02 is a Sunday, 2025-03-01 a Saturday.
    expect(encodeHelloPacket(hello)[0x11]).toBe(7);
    expect(encodeHelloPacket({ ...hello, time: new Date("2025-03-01T12:00:00Z") })[0x11]).toBe(6);
  });

  it("refuses a short packet, another kind and a broken checksum, naming the rule", () => {
    const p = encodeHelloPacket(hello);
    expect(reasonOf(() => decodeHelloPacket(p.subarray(0, 0x2f)))).toBe("hello packet shorter than 48 bytes");
    const kind = Uint8Array.from(p);
    kind[0x26] = 0x07;
    expect(reasonOf(() => decodeHelloPacket(sealed(kind)))).toBe("hello packet has kind 0x7");
    const sum = Uint8Array.from(p);
    sum[0x21] ^= 0x80;
    expect(reasonOf(() => decodeHelloPacket(sum))).toBe("hello packet checksum");
  });
});

describe("hello answers at their edges", () => {
  const answer = {
    mac: "90:af:0A:F9:12:34",
    deviceType: 0x3372,
    ip: "10.0.0.9",
    name: "n".repeat(62),
    locked: true,
    extension: { cloudState: CloudState.Connecting, failure: 0, pairingCode: "c".repeat(255) },
  };

  it("takes any hex digit in either case and any separator in the MAC, a 62-byte name, a 255-byte code", () => {
    const p = encodeHelloAnswer(answer);
    expect(p).toHaveLength(0x85 + 255);
    expect(toHex(p.subarray(0x3a, 0x40))).toBe("3412f90aaf90");
    expect(toHex(p.subarray(0x80, 0x85))).toBe("41510100ff");
    expect(p[0x7f]).toBe(1);
    expect(decodeHelloAnswer(p)).toEqual({ ...answer, mac: "90AF0AF91234" });
    expect(encodeHelloAnswer({ ...answer, extension: null })).toHaveLength(0x80);
  });

  it("refuses a MAC without 12 hex digits, a longer name or code", () => {
    expect(() => encodeHelloAnswer({ ...answer, mac: "90:af:0A:F9:12:3" })).toThrow("MAC must have 12 hex digits");
    expect(() => encodeHelloAnswer({ ...answer, mac: "90:af:0A:F9:12:34:5" })).toThrow("MAC must have 12 hex digits");
    expect(() => encodeHelloAnswer({ ...answer, name: "n".repeat(63) })).toThrow("name must have at most 62 bytes");
    expect(() =>
      encodeHelloAnswer({ ...answer, extension: { ...answer.extension, pairingCode: "c".repeat(256) } }),
    ).toThrow("pairing code must have at most 255 bytes");
  });

  /** A hand-made answer whose name fills 0x40–0x7e (63 bytes, no NUL) and `tail` from 0x7f. */
  function fullName(tail: number[]): Uint8Array {
    const p = new Uint8Array(0x7f + tail.length);
    p[0x26] = 0x07;
    p.fill(a, 0x40, 0x7f);
    p.set(tail, 0x7f);
    return sealed(p);
  }
  const AQ = [0x41, 0x51];

  it("a name without NUL ends before the lock byte", () => {
    expect(decodeHelloAnswer(fullName([1]))).toMatchObject({ name: "a".repeat(63), locked: true, extension: null });
    // Locked, and the first NUL after the lock byte: the name still ends at 0x7f.
    expect(decodeHelloAnswer(fullName([1, 0]))).toMatchObject({ name: "a".repeat(63), locked: true });
    const noNul = decodeHelloAnswer(fullName([1, ...AQ, 2, 5, 1, "x".charCodeAt(0)]));
    expect(noNul).toMatchObject({
      name: "a".repeat(63),
      locked: true,
      extension: { cloudState: 2, failure: 5, pairingCode: "x" },
    });
  });

  it("reads a stock answer as python-broadlink does: 0x80 bytes, neither kind nor checksum", () => {
    const stock = fullName([0]);
    stock[0x26] = 0;
    stock[0x20] ^= 0xff;
    expect(decodeHelloAnswer(stock)).toMatchObject({ name: "a".repeat(63), locked: false, extension: null });
    expect(reasonOf(() => decodeHelloAnswer(stock.subarray(0, 0x7f)))).toBe("hello answer shorter than 128 bytes");
    // Anything after 0x80 that does not open with "AQ" is a stock module's own: left unread.
    expect(decodeHelloAnswer(fullName([0, 0x41, 0x52, 9, 9, 9])).extension).toBeNull();
    expect(decodeHelloAnswer(fullName([0, 0x42, 0x51, 9, 9, 9])).extension).toBeNull();
    expect(decodeHelloAnswer(fullName([0, ...AQ, 2, 0])).extension).toBeNull();
    const name = fullName([0]);
    name[0x40] = 0xff;
    expect(reasonOf(() => decodeHelloAnswer(sealed(name)))).toBe("name is not UTF-8");
  });

  it("checks the product's extension: kind, checksum, cloud state and code, naming the rule", () => {
    expect(decodeHelloAnswer(fullName([0, ...AQ, 3, 0, 0])).extension).toEqual({
      cloudState: 3,
      failure: 0,
      pairingCode: null,
    });
    expect(reasonOf(() => decodeHelloAnswer(fullName([0, ...AQ, 4, 0, 0])))).toBe("cloud state 4");
    expect(reasonOf(() => decodeHelloAnswer(fullName([0, ...AQ, 2, 0, 2, 1])))).toBe(
      "pairing code runs past the packet",
    );
    const kind = fullName([0, ...AQ, 2, 0, 0]);
    kind[0x26] = 0x06;
    expect(reasonOf(() => decodeHelloAnswer(sealed(kind)))).toBe("hello answer has kind 0x6");
    const sum = fullName([0, ...AQ, 2, 0, 0]);
    sum[0x20] ^= 1;
    expect(reasonOf(() => decodeHelloAnswer(sum))).toBe("hello answer checksum");
  });
});

describe("join acknowledgements", () => {
  it("a short, foreign or corrupted packet is not one", () => {
    const ack = encodeJoinAck();
    expect(isJoinAck(ack)).toBe(true);
    expect(isJoinAck(ack.subarray(0, 0x2f))).toBe(false);
    const broken = Uint8Array.from(ack);
    broken[0x20] ^= 1;
    expect(isJoinAck(broken)).toBe(false);
    const other = Uint8Array.from(ack);
    other[0x26] = 0x14;
    expect(isJoinAck(sealed(other))).toBe(false);
  });
});
