/**
 * UDP packets of the old WIFI-BL3372 module (2024 and before, smart/AP setup), modelled on the BroadLink protocol
 * as python-broadlink implements it (mjg59/python-broadlink: broadlink/__init__.py `setup()`, broadlink/device.py
 * `scan()`, broadlink/protocol.py `Datetime.pack`; protocol.md). See docs/device-protocol.md §13.
 *
 * - Join packet (0x88 bytes), sent by the phone to the module's access point: SSID and password, their lengths, the
 *   security mode, byte 0x26 = 0x14, and the checksum at 0x20.
 * - Hello (discovery) packet (0x30 bytes) broadcast by the phone on the home network: the phone's time, IP and
 *   port, byte 0x26 = 0x06, checksum.
 * - Hello answer (ours: 0x80 bytes as python-broadlink reads them, then an extension): device type at 0x34, the MAC
 *   reversed at 0x3a, the name at 0x40, the lock flag at 0x7f; from 0x80 the module's cloud state, failure code and
 *   the pairing code the app binds with. Byte 0x26 = 0x07.
 * - Join acknowledgement (ours, 0x30 bytes, 0x26 = 0x15): python-broadlink sends the join packet without waiting for
 *   anything; our module answers so the app can tell a lost packet from a received one ("connection timed out").
 *
 * Every packet's checksum is the 16-bit sum of all its bytes (with the checksum field zero) starting from 0xbeaf,
 * stored little-endian at 0x20.
 */

import { fromUtf8, readLe16, utf8, writeLe16 } from "./bytes.ts";

/** Starting value of the BroadLink checksum. */
export const BROADLINK_CHECKSUM_SEED = 0xbeaf;
/** UDP port of the module, both on its access point and on the home network (python-broadlink DEFAULT_PORT). */
export const BROADLINK_PORT = 80;
/** Address of the module on its own access point (BroadLink AP mode). */
export const SETUP_AP_ADDRESS = "192.168.10.1";
/** Where the phone broadcasts discovery on the home network. */
export const BROADCAST_ADDRESS = "255.255.255.255";
/** Device type the modelled module reports in its hello answer (our number; BroadLink assigns them per product). */
export const BL3372_DEVICE_TYPE = 0x3372;

/** Command byte at 0x26 of each packet kind. */
export const BroadlinkPacketKind = { Hello: 0x06, HelloAnswer: 0x07, Join: 0x14, JoinAck: 0x15 } as const;

/** Wireless security modes of the join packet (python-broadlink: 0 none, 1 WEP, 2 WPA1, 3 WPA2, 4 WPA1/2). */
export const WifiSecurity = { None: 0, Wep: 1, Wpa1: 2, Wpa2: 3, Wpa12: 4 } as const;
export type WifiSecurity = (typeof WifiSecurity)[keyof typeof WifiSecurity];

/** Largest SSID and password in a join packet: 32 bytes each (offsets 0x44–0x63 and 0x64–0x83). */
export const JOIN_MAX_SSID_BYTES = 32;
export const JOIN_MAX_PASSWORD_BYTES = 32;

/** The module's cloud state in its hello answer (our extension at 0x80). */
export const CloudState = {
  /** On its own access point, no Wi-Fi configured yet. */
  Setup: 0,
  /** On the home network, connecting to the cloud. */
  Connecting: 1,
  /** Connected; the answer carries the pairing code. */
  Connected: 2,
  /** The cloud connection failed; the answer carries the failure code. */
  Failed: 3,
} as const;
export type CloudState = (typeof CloudState)[keyof typeof CloudState];

/** A packet that breaks its layout; `reason` names the rule. */
export class BroadlinkPacketError extends Error {
  readonly reason: string;
  constructor(reason: string) {
    super(`broadlink packet: ${reason}`);
    this.reason = reason;
    this.name = "BroadlinkPacketError";
  }
}

/** The BroadLink checksum of `packet`, computed as if bytes 0x20–0x21 were zero. */
export function broadlinkChecksum(packet: Uint8Array): number {
  let sum = BROADLINK_CHECKSUM_SEED;
  for (let i = 0; i < packet.length; i++) if (i !== 0x20 && i !== 0x21) sum = (sum + packet[i]) & 0xffff;
  return sum;
}

function seal(packet: Uint8Array): Uint8Array {
  writeLe16(packet, 0x20, broadlinkChecksum(packet));
  return packet;
}

function check(packet: Uint8Array, kind: number, minLength: number, name: string): void {
  if (packet.length < minLength) throw new BroadlinkPacketError(`${name} shorter than ${minLength} bytes`);
  if (packet[0x26] !== kind) throw new BroadlinkPacketError(`${name} has kind 0x${packet[0x26].toString(16)}`);
  if (readLe16(packet, 0x20) !== broadlinkChecksum(packet)) throw new BroadlinkPacketError(`${name} checksum`);
}

/** What a join packet carries. */
export interface JoinRequest {
  ssid: string;
  password: string;
  security: WifiSecurity;
}

/**
 * The 0x88-byte join packet (python-broadlink `setup(ssid, password, security_mode)`), SSID and password as UTF-8.
 * @throws RangeError when the SSID is empty or longer than 32 bytes, or the password longer than 32 bytes.
 */
export function encodeJoinPacket(request: JoinRequest): Uint8Array {
  const ssid = utf8(request.ssid);
  const password = utf8(request.password);
  if (ssid.length === 0 || ssid.length > JOIN_MAX_SSID_BYTES) throw new RangeError("SSID must have 1–32 bytes");
  if (password.length > JOIN_MAX_PASSWORD_BYTES) throw new RangeError("password must have at most 32 bytes");
  const packet = new Uint8Array(0x88);
  packet[0x26] = BroadlinkPacketKind.Join;
  packet.set(ssid, 0x44);
  packet.set(password, 0x64);
  packet[0x84] = ssid.length;
  packet[0x85] = password.length;
  packet[0x86] = request.security;
  return seal(packet);
}

/**
 * Reads a join packet.
 * @throws BroadlinkPacketError on a wrong length, kind or checksum, lengths over 32, an unknown security mode, or
 *   text that is not UTF-8.
 */
export function decodeJoinPacket(packet: Uint8Array): JoinRequest {
  if (packet.length !== 0x88) throw new BroadlinkPacketError("join packet must be 0x88 bytes");
  check(packet, BroadlinkPacketKind.Join, 0x88, "join packet");
  const ssidLength = packet[0x84];
  const passwordLength = packet[0x85];
  const security = packet[0x86];
  if (ssidLength < 1 || ssidLength > JOIN_MAX_SSID_BYTES) throw new BroadlinkPacketError("SSID length");
  if (passwordLength > JOIN_MAX_PASSWORD_BYTES) throw new BroadlinkPacketError("password length");
  if (security > 4) throw new BroadlinkPacketError(`security mode ${security}`);
  try {
    return {
      ssid: fromUtf8(packet.subarray(0x44, 0x44 + ssidLength)),
      password: fromUtf8(packet.subarray(0x64, 0x64 + passwordLength)),
      security: security as WifiSecurity,
    };
  } catch {
    throw new BroadlinkPacketError("text is not UTF-8");
  }
}

/** What a hello (discovery) packet carries: the phone's local time and where to answer. */
export interface HelloRequest {
  /** The phone's clock. */
  time: Date;
  /** The phone's offset from UTC in minutes (packed as whole hours, as python-broadlink does). */
  utcOffsetMinutes: number;
  /** The phone's IPv4 address, dotted. */
  localIp: string;
  /** The phone's UDP port, 0–65535. */
  localPort: number;
}

function ipv4Bytes(ip: string): number[] {
  const parts = ip.split(".").map((p) => Number(p));
  if (parts.length !== 4 || parts.some((p) => !Number.isInteger(p) || p < 0 || p > 255)) {
    throw new RangeError(`not an IPv4 address: ${ip}`);
  }
  return parts;
}

/**
 * The 0x30-byte hello packet (python-broadlink `scan()`): Datetime.pack of the phone's local time at 0x08
 * (UTC offset in hours LE32, year LE16, minute, hour, two-digit year, ISO weekday, day, month), the phone's IP
 * reversed at 0x18, its port LE16 at 0x1c, kind 0x06.
 * @throws RangeError on an address that is not IPv4 or a port out of range.
 */
export function encodeHelloPacket(request: HelloRequest): Uint8Array {
  if (!Number.isInteger(request.localPort) || request.localPort < 0 || request.localPort > 0xffff) {
    throw new RangeError("port must be 0–65535");
  }
  const packet = new Uint8Array(0x30);
  const local = new Date(request.time.getTime() + request.utcOffsetMinutes * 60_000);
  const hours = Math.trunc(request.utcOffsetMinutes / 60);
  new DataView(packet.buffer).setInt32(0x08, hours, true);
  writeLe16(packet, 0x0c, local.getUTCFullYear());
  packet[0x0e] = local.getUTCMinutes();
  packet[0x0f] = local.getUTCHours();
  packet[0x10] = local.getUTCFullYear() % 100;
  packet[0x11] = local.getUTCDay() === 0 ? 7 : local.getUTCDay();
  packet[0x12] = local.getUTCDate();
  packet[0x13] = local.getUTCMonth() + 1;
  packet.set(ipv4Bytes(request.localIp).reverse(), 0x18);
  writeLe16(packet, 0x1c, request.localPort);
  packet[0x26] = BroadlinkPacketKind.Hello;
  return seal(packet);
}

/**
 * Reads a hello packet: the sender's IP and port and its UTC offset (hours).
 * @throws BroadlinkPacketError on a short packet, a wrong kind or checksum.
 */
export function decodeHelloPacket(packet: Uint8Array): { localIp: string; localPort: number; utcOffsetHours: number } {
  check(packet, BroadlinkPacketKind.Hello, 0x30, "hello packet");
  return {
    localIp: Array.from(packet.subarray(0x18, 0x1c)).reverse().join("."),
    localPort: readLe16(packet, 0x1c),
    utcOffsetHours: new DataView(packet.buffer, packet.byteOffset).getInt32(0x08, true),
  };
}

/** What the module answers to hello. */
export interface HelloAnswer {
  /** 12 hex digits (any separators on input; upper case on output). */
  mac: string;
  deviceType: number;
  /** The module's IPv4 address. */
  ip: string;
  /** Its name, at most 62 bytes of UTF-8. */
  name: string;
  locked: boolean;
  cloudState: CloudState;
  /** A {@link BleSetupFailure} code of the cloud part (5–8) when `cloudState` is Failed, else 0. */
  failure: number;
  /** "MAC:TOKEN" once connected, else null. */
  pairingCode: string | null;
}

/**
 * The hello answer: 0x80 bytes as python-broadlink `scan()` reads them (device type LE16 at 0x34, the IP reversed at
 * 0x36, the MAC reversed at 0x3a, the name NUL-terminated from 0x40, the lock flag at 0x7f) and our extension (cloud
 * state at 0x80, failure code at 0x81, pairing-code length at 0x82, its ASCII from 0x83). Kind 0x07.
 * @throws RangeError on a MAC without 12 hex digits, a name over 62 bytes, or a pairing code over 255 bytes.
 */
export function encodeHelloAnswer(answer: HelloAnswer): Uint8Array {
  const mac = answer.mac.replace(/[^0-9a-fA-F]/g, "");
  if (mac.length !== 12) throw new RangeError("MAC must have 12 hex digits");
  const name = utf8(answer.name);
  if (name.length > 62) throw new RangeError("name must have at most 62 bytes");
  const code = utf8(answer.pairingCode ?? "");
  if (code.length > 255) throw new RangeError("pairing code must have at most 255 bytes");
  const packet = new Uint8Array(0x83 + code.length);
  packet[0x26] = BroadlinkPacketKind.HelloAnswer;
  writeLe16(packet, 0x34, answer.deviceType);
  packet.set(ipv4Bytes(answer.ip).reverse(), 0x36);
  for (let i = 0; i < 6; i++) packet[0x3a + i] = Number.parseInt(mac.slice((5 - i) * 2, (5 - i) * 2 + 2), 16);
  packet.set(name, 0x40);
  packet[0x7f] = answer.locked ? 1 : 0;
  packet[0x80] = answer.cloudState;
  packet[0x81] = answer.failure;
  packet[0x82] = code.length;
  packet.set(code, 0x83);
  return seal(packet);
}

/**
 * Reads a hello answer.
 * @throws BroadlinkPacketError on a short packet, a wrong kind or checksum, an unknown cloud state, or a pairing code
 *   that runs past the packet.
 */
export function decodeHelloAnswer(packet: Uint8Array): HelloAnswer {
  check(packet, BroadlinkPacketKind.HelloAnswer, 0x83, "hello answer");
  const macBytes = Array.from(packet.subarray(0x3a, 0x40)).reverse();
  const nameEnd = packet.indexOf(0, 0x40);
  const name = fromUtf8(packet.subarray(0x40, nameEnd === -1 || nameEnd > 0x7f ? 0x7f : nameEnd));
  const cloudState = packet[0x80];
  if (cloudState > 3) throw new BroadlinkPacketError(`cloud state ${cloudState}`);
  const codeLength = packet[0x82];
  if (packet.length < 0x83 + codeLength) throw new BroadlinkPacketError("pairing code runs past the packet");
  return {
    mac: macBytes
      .map((b) => b.toString(16).padStart(2, "0"))
      .join("")
      .toUpperCase(),
    deviceType: readLe16(packet, 0x34),
    ip: Array.from(packet.subarray(0x36, 0x3a)).reverse().join("."),
    name,
    locked: packet[0x7f] !== 0,
    cloudState: cloudState as CloudState,
    failure: packet[0x81],
    pairingCode: codeLength > 0 ? fromUtf8(packet.subarray(0x83, 0x83 + codeLength)) : null,
  };
}

/** Our 0x30-byte acknowledgement of a join packet (kind 0x15). */
export function encodeJoinAck(): Uint8Array {
  const packet = new Uint8Array(0x30);
  packet[0x26] = BroadlinkPacketKind.JoinAck;
  return seal(packet);
}

/** Whether `packet` is a valid join acknowledgement. */
export function isJoinAck(packet: Uint8Array): boolean {
  try {
    check(packet, BroadlinkPacketKind.JoinAck, 0x30, "join ack");
    return true;
  } catch {
    return false;
  }
}
