import { readFileSync } from "node:fs";
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
  JOIN_TICKET_LENGTH_OFFSET,
  JOIN_TICKET_OFFSET,
  type WifiSecurity,
} from "./broadlink.ts";
import { fromHex, readLe16, toHex, writeLe16 } from "./bytes.ts";

/**
 * Packets written and read by python-broadlink itself: packages/provisioning/vectors/broadlink-python.json, made by
 * vectors/tools/broadlink_vectors.py (python-broadlink's `setup()` and `scan()` run unchanged with a capture socket;
 * the command and versions are in vectors/README.md).
 */
interface JoinVector {
  name: string;
  ssid: string;
  password: string;
  security: WifiSecurity;
  packet?: string;
  address?: string;
  port?: number;
  broadcast?: boolean;
  error?: string;
}
interface HelloVector {
  name: string;
  localIp: string | null;
  localPort: number;
  utcOffsetSeconds: number;
  packet: string;
  address: string;
  port: number;
  broadcast: boolean;
}
interface AnswerVector {
  name: string;
  packet: string;
  scan: { deviceType: number; host: [string, number]; mac: string; name: string; locked: boolean }[];
}
const VECTORS = JSON.parse(readFileSync(new URL("../vectors/broadlink-python.json", import.meta.url), "utf8")) as {
  source: { commit: string; clock: string };
  join: JoinVector[];
  hello: HelloVector[];
  answers: AnswerVector[];
};

const joinVector = (name: string) => {
  const v = VECTORS.join.find((j) => j.name === name);
  if (!v) throw new Error(`no join vector ${name}`);
  return v;
};

/** Whether every character of `text` is ASCII (where UTF-8 and python's `ord()` per character agree). */
const ascii = (text: string) => [...text].every((c) => c.charCodeAt(0) < 0x80);

const TICKET = "AbCdEfGhIjKlMnOpQrSt_-";

describe("join packets against python-broadlink's setup()", () => {
  it("were broadcast by python-broadlink to 255.255.255.255:80 with SO_BROADCAST", () => {
    const sent = VECTORS.join.filter((v) => v.packet);
    expect(sent.length).toBeGreaterThanOrEqual(10);
    for (const v of sent) expect([v.address, v.port, v.broadcast]).toEqual(["255.255.255.255", 80, true]);
  });

  it("are byte for byte what python-broadlink sends for every ASCII SSID and password, each security mode", () => {
    const asciiVectors = VECTORS.join.filter(
      (v) => v.packet && ascii(v.ssid) && ascii(v.password) && v.ssid.length <= 32,
    );
    expect(new Set(asciiVectors.map((v) => v.security))).toEqual(new Set([0, 1, 2, 3, 4]));
    expect(asciiVectors.map((v) => v.name)).toEqual(expect.arrayContaining(["ssid-32", "password-32", "ascii-open"]));
    for (const v of asciiVectors) {
      expect(toHex(encodeJoinPacket(v)), v.name).toBe(v.packet);
      expect(decodeJoinPacket(fromHex(v.packet ?? "")), v.name).toEqual({
        ssid: v.ssid,
        password: v.password,
        security: v.security,
        setupTicket: null,
      });
    }
  });

  it("write UTF-8 where python-broadlink writes ord() per character (Latin-1), and take what it cannot", () => {
    const cafe = joinVector("latin1-cafe");
    const ours = encodeJoinPacket(cafe);
    const python = fromHex(cafe.packet ?? "");
    // python: one byte per character, é = 0xe9; ours: the UTF-8 the router broadcasts, é = c3 a9.
    expect(toHex(python.subarray(0x44, 0x44 + python[0x84]))).toBe(
      toHex(new TextEncoder().encode("Café Corner")).replace("c3a9", "e9"),
    );
    expect(toHex(ours.subarray(0x44, 0x44 + ours[0x84]))).toBe(toHex(new TextEncoder().encode("Café Corner")));
    expect([python[0x84], ours[0x84]]).toEqual([11, 12]);
    // python-broadlink fails on characters above U+00FF; ours carries them.
    for (const name of ["cjk", "emoji-password"]) {
      const v = joinVector(name);
      expect(v.error, name).toBe("ValueError: byte must be in range(0, 256)");
      expect(decodeJoinPacket(encodeJoinPacket(v))).toMatchObject({ ssid: v.ssid, password: v.password });
    }
  });

  it("refuse the 33-byte SSID python-broadlink writes over the password's first byte", () => {
    const v = joinVector("ssid-33");
    expect(fromHex(v.packet ?? "")[0x84]).toBe(33);
    expect(() => encodeJoinPacket(v)).toThrow(RangeError);
    expect(() => decodeJoinPacket(fromHex(v.packet ?? ""))).toThrow(/SSID length/);
  });

  it("carry the setup ticket in bytes python-broadlink leaves zero, with the checksum over the packet as sent", () => {
    const v = joinVector("ascii");
    const python = fromHex(v.packet ?? "");
    expect(python.subarray(JOIN_TICKET_OFFSET, JOIN_TICKET_OFFSET + 22).every((b) => b === 0)).toBe(true);
    expect(python[JOIN_TICKET_LENGTH_OFFSET]).toBe(0);
    const ours = encodeJoinPacket({ ...v, setupTicket: TICKET });
    expect(new TextDecoder().decode(ours.subarray(0x28, 0x3e))).toBe(TICKET);
    expect(ours[0x87]).toBe(22);
    expect(readLe16(ours, 0x20)).toBe(broadlinkChecksum(ours));
    // Without the ticket's bytes and with python's checksum it is python's packet again.
    const stripped = Uint8Array.from(ours);
    stripped.fill(0, 0x28, 0x3e);
    stripped[0x87] = 0;
    writeLe16(stripped, 0x20, readLe16(python, 0x20));
    expect(toHex(stripped)).toBe(v.packet);
    expect(decodeJoinPacket(ours)).toEqual({
      ssid: v.ssid,
      password: v.password,
      security: v.security,
      setupTicket: TICKET,
    });
  });

  it("refuse a setup ticket that is not 22 characters of base64url", () => {
    for (const setupTicket of ["short", `${TICKET}x`, "AbCdEfGhIjKlMnOpQrSt+/"]) {
      expect(() => encodeJoinPacket({ ssid: "a", password: "", security: 0, setupTicket })).toThrow(
        "setup ticket must be 22 characters of base64url",
      );
    }
    const p = encodeJoinPacket({ ssid: "a", password: "", security: 0, setupTicket: TICKET });
    p[0x28] = "+".charCodeAt(0);
    writeLe16(p, 0x20, broadlinkChecksum(p));
    expect(() => decodeJoinPacket(p)).toThrow(/setup ticket/);
    const short = encodeJoinPacket({ ssid: "a", password: "", security: 0, setupTicket: TICKET });
    short[0x87] = 21;
    writeLe16(short, 0x20, broadlinkChecksum(short));
    expect(() => decodeJoinPacket(short)).toThrow(/setup ticket/);
  });

  it("refuse a packet with a broken checksum, kind or length", () => {
    const hex = joinVector("ascii").packet ?? "";
    const p = fromHex(hex);
    p[0x50] ^= 1;
    expect(() => decodeJoinPacket(p)).toThrow(/checksum/);
    const k = fromHex(hex);
    k[0x26] = 0x06;
    expect(() => decodeJoinPacket(k)).toThrow(BroadlinkPacketError);
    expect(() => decodeJoinPacket(fromHex(hex).subarray(0, 0x80))).toThrow(/0x88/);
  });
});

describe("hello packets against python-broadlink's scan()", () => {
  it("are byte for byte python-broadlink's, broadcast to 255.255.255.255:80", () => {
    const clock = new Date(VECTORS.source.clock);
    expect(VECTORS.hello).toHaveLength(3);
    for (const v of VECTORS.hello) {
      expect([v.address, v.port, v.broadcast]).toEqual(["255.255.255.255", 80, true]);
      const localIp = v.localIp ?? "0.0.0.0";
      const packet = encodeHelloPacket({
        time: clock,
        utcOffsetMinutes: v.utcOffsetSeconds / 60,
        localIp,
        localPort: v.localPort,
      });
      expect(toHex(packet), v.name).toBe(v.packet);
      expect(decodeHelloPacket(fromHex(v.packet))).toEqual({
        localIp,
        localPort: v.localPort,
        utcOffsetHours: v.utcOffsetSeconds / 3600,
      });
    }
  });
});

describe("hello answers against python-broadlink's scan()", () => {
  it("read every field python-broadlink reads, from a stock 0x80-byte answer and from the product's", () => {
    expect(VECTORS.answers.map((a) => a.name)).toEqual(["stock", "stock-locked", "product-extension"]);
    for (const v of VECTORS.answers) {
      const [scan] = v.scan;
      const ours = decodeHelloAnswer(fromHex(v.packet));
      expect({
        deviceType: ours.deviceType,
        mac: ours.mac.toLowerCase(),
        name: ours.name,
        locked: ours.locked,
      }).toEqual({
        deviceType: scan.deviceType,
        mac: scan.mac,
        name: scan.name,
        locked: scan.locked,
      });
    }
  });

  it("encode the stock answer byte for byte, and the extension only for the product", () => {
    const [stock, , product] = VECTORS.answers;
    const answer = {
      mac: "02:AB:CD:EF:3F:2A",
      deviceType: BL3372_DEVICE_TYPE,
      ip: "192.168.1.57",
      name: "WiFi-BL3372",
      locked: false,
      extension: null,
    };
    expect(toHex(encodeHelloAnswer(answer))).toBe(stock.packet);
    expect(decodeHelloAnswer(fromHex(stock.packet))).toEqual({ ...answer, mac: "02ABCDEF3F2A" });
    const extension = { cloudState: CloudState.Connected, failure: 0, pairingCode: "02ABCDEF3F2A:tok1" };
    expect(toHex(encodeHelloAnswer({ ...answer, extension }))).toBe(product.packet);
    expect(decodeHelloAnswer(fromHex(product.packet)).extension).toEqual(extension);
  });

  it("read a failure from the extension and refuse a broken one", () => {
    const answer = { mac: "02ABCDEF3F2A", deviceType: 1, ip: "10.0.0.9", name: "m", locked: false };
    const failed = encodeHelloAnswer({
      ...answer,
      extension: { cloudState: CloudState.Failed, failure: 5, pairingCode: null },
    });
    expect(failed).toHaveLength(0x85);
    expect(decodeHelloAnswer(failed).extension).toEqual({ cloudState: 3, failure: 5, pairingCode: null });
    const broken = encodeHelloAnswer({ ...answer, extension: { cloudState: 2, failure: 0, pairingCode: "x" } });
    broken[0x84] = 2;
    writeLe16(broken, 0x20, broadlinkChecksum(broken));
    expect(() => decodeHelloAnswer(broken)).toThrow(/runs past the packet/);
  });

  it("the product's join acknowledgement has its own kind", () => {
    expect(isJoinAck(encodeJoinAck())).toBe(true);
    expect(
      isJoinAck(encodeHelloPacket({ time: new Date(), utcOffsetMinutes: 0, localIp: "1.2.3.4", localPort: 1 })),
    ).toBe(false);
  });
});
