/**
 * UDP packets of the old WIFI-BL3372 module (2024 and before, access-point setup), the BroadLink protocol as
 * python-broadlink implements it (mjg59/python-broadlink at 730853e5faf2cf979596662faf9def2b1f8fee6d:
 * broadlink/__init__.py `setup()` lines 298–333, broadlink/device.py `scan()` lines 23–76, broadlink/protocol.py
 * `Datetime.pack` lines 9–22, broadlink/const.py lines 2–3). See docs/device-protocol.md §13.1 and §13.3; the test
 * vectors python-broadlink itself wrote are packages/provisioning/vectors/broadlink-python.json.
 *
 * - Join packet (0x88 bytes, kind 0x14 at 0x26), broadcast by the phone on the module's access point to
 *   255.255.255.255:80: SSID at 0x44, password at 0x64, their lengths at 0x84–0x85, the security mode at 0x86
 *   (setup() lines 306–323). Ours on top, in bytes setup() leaves zero: the one-time setup ticket's ASCII from 0x28
 *   and its length at 0x87 (zero without a ticket).
 * - Hello (discovery) packet (0x30 bytes, kind 0x06), broadcast on the home network: the phone's time, IP and port
 *   (scan() lines 41–48).
 * - Hello answer: the 0x80 bytes scan() reads (device type at 0x34, MAC reversed at 0x3a, name from 0x40, lock flag
 *   at 0x7f; scan() lines 65–73), the IP reversed at 0x36 and kind 0x07. The product's firmware appends its
 *   extension from 0x80 ("AQ", cloud state, failure code, pairing code); a stock module sends none.
 * - Join acknowledgement (0x30 bytes, kind 0x15): the product's firmware only. setup() sends its datagram and closes
 *   the socket (lines 329–333) without reading anything, and stock modules send nothing back.
 *
 * The checksum is the 16-bit sum of all the packet's bytes (with the checksum field zero) starting from 0xbeaf,
 * stored little-endian at 0x20 (setup() lines 325–327, scan() lines 47–48), always over the packet as sent.
 */

import { fromUtf8, readLe16, utf8, writeLe16 } from "./bytes.ts";

/** Starting value of the BroadLink checksum. */
export const BROADLINK_CHECKSUM_SEED = 0xbeaf;
/** UDP port of the module, on its access point and on the home network (python-broadlink DEFAULT_PORT, broadlink/const.py line 3). */
export const BROADLINK_PORT = 80;
/**
 * Address of the module on its own access point (the product's access point; the phone does not send to it: the join
 * packet is broadcast).
 */
export const SETUP_AP_ADDRESS = "192.168.10.1";
/**
 * Where the phone sends the join packet (on the access point) and the hello packet (on the home network):
 * python-broadlink DEFAULT_BCAST_ADDR (broadlink/const.py line 2), used by setup() and scan().
 */
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

/** The module's cloud state in its hello answer (the product's extension, at 0x82). */
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
  /**
   * The one-time setup ticket the phone got from the cloud (22 characters of base64url), handed to the module so its
   * activation proves which phone set it up; absent or null for none.
   */
  setupTicket?: string | null;
}

/** Where the setup ticket's ASCII starts in the join packet (bytes setup() leaves zero: 0x28–0x43 before the SSID). */
export const JOIN_TICKET_OFFSET = 0x28;
/** Where the join packet carries the setup ticket's length (the byte after the security mode, zero in setup()). */
export const JOIN_TICKET_LENGTH_OFFSET = 0x87;
/** A setup ticket: 22 characters of base64url (128 bits). */
const TICKET = /^[A-Za-z0-9_-]{22}$/;

/**
 * The 0x88-byte join packet of python-broadlink `setup(ssid, password, security_mode)` (broadlink/__init__.py lines
 * 306–327): kind 0x14 at 0x26, SSID at 0x44, password at 0x64, their lengths at 0x84–0x85, the security mode at 0x86,
 * the checksum at 0x20. SSID and password go as UTF-8, which is byte for byte what setup() writes for ASCII; setup()
 * writes `ord()` of each character (Latin-1 for U+0080–U+00FF, a ValueError above), which would not match the
 * UTF-8 name a router broadcasts. With a setup ticket its ASCII goes from 0x28 and its length (22) to 0x87, and the
 * checksum covers the packet as sent.
 * @throws RangeError when the SSID is empty or longer than 32 bytes, the password longer than 32 bytes, or the setup
 *   ticket not 22 characters of base64url.
 */
export function encodeJoinPacket(request: JoinRequest): Uint8Array {
  const ssid = utf8(request.ssid);
  const password = utf8(request.password);
  if (ssid.length === 0 || ssid.length > JOIN_MAX_SSID_BYTES) throw new RangeError("SSID must have 1–32 bytes");
  if (password.length > JOIN_MAX_PASSWORD_BYTES) throw new RangeError("password must have at most 32 bytes");
  const ticket = request.setupTicket ?? null;
  if (ticket !== null && !TICKET.test(ticket)) {
    throw new RangeError("setup ticket must be 22 characters of base64url");
  }
  const packet = new Uint8Array(0x88);
  packet[0x26] = BroadlinkPacketKind.Join;
  packet.set(ssid, 0x44);
  packet.set(password, 0x64);
  packet[0x84] = ssid.length;
  packet[0x85] = password.length;
  packet[0x86] = request.security;
  if (ticket !== null) {
    packet.set(utf8(ticket), JOIN_TICKET_OFFSET);
    packet[JOIN_TICKET_LENGTH_OFFSET] = ticket.length;
  }
  return seal(packet);
}

/**
 * Reads a join packet, as the module does: SSID, password, security mode and the setup ticket (null when 0x87 is
 * zero, as in python-broadlink's packets).
 * @throws BroadlinkPacketError on a wrong length, kind or checksum, lengths over 32, an unknown security mode, text
 *   that is not UTF-8, or a setup ticket that is not 22 characters of base64url.
 */
export function decodeJoinPacket(packet: Uint8Array): JoinRequest & { setupTicket: string | null } {
  if (packet.length !== 0x88) throw new BroadlinkPacketError("join packet must be 0x88 bytes");
  check(packet, BroadlinkPacketKind.Join, 0x88, "join packet");
  const ssidLength = packet[0x84];
  const passwordLength = packet[0x85];
  const security = packet[0x86];
  const ticketLength = packet[JOIN_TICKET_LENGTH_OFFSET];
  if (ssidLength < 1 || ssidLength > JOIN_MAX_SSID_BYTES) throw new BroadlinkPacketError("SSID length");
  if (passwordLength > JOIN_MAX_PASSWORD_BYTES) throw new BroadlinkPacketError("password length");
  if (security > 4) throw new BroadlinkPacketError(`security mode ${security}`);
  let setupTicket: string | null = null;
  if (ticketLength !== 0) {
    const bytes = packet.subarray(JOIN_TICKET_OFFSET, JOIN_TICKET_OFFSET + ticketLength);
    setupTicket = String.fromCharCode(...bytes);
    if (!TICKET.test(setupTicket)) throw new BroadlinkPacketError("setup ticket");
  }
  try {
    return {
      ssid: fromUtf8(packet.subarray(0x44, 0x44 + ssidLength)),
      password: fromUtf8(packet.subarray(0x64, 0x64 + passwordLength)),
      security: security as WifiSecurity,
      setupTicket,
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

/** The product's extension of the hello answer (from 0x80; its firmware only). */
export interface HelloExtension {
  cloudState: CloudState;
  /** A {@link BleSetupFailure} code of the cloud part (5–8) when `cloudState` is Failed, else 0. */
  failure: number;
  /** "MAC:TOKEN" once connected, else null. */
  pairingCode: string | null;
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
  /** The product's extension; null in a stock module's 0x80-byte answer. */
  extension: HelloExtension | null;
}

/** Length of the stock hello answer: python-broadlink scan() reads up to 0x7f (broadlink/device.py line 73). */
export const HELLO_ANSWER_STOCK_BYTES = 0x80;
/** The two bytes ("AQ") that open the product's extension at 0x80. */
const EXTENSION_MAGIC = [0x41, 0x51] as const;

/**
 * The hello answer: the 0x80 bytes python-broadlink `scan()` reads (broadlink/device.py lines 65–73: device type LE16
 * at 0x34, the MAC reversed at 0x3a, the name NUL-terminated from 0x40, the lock flag at 0x7f), the IP reversed at
 * 0x36, kind 0x07, the checksum at 0x20. With an extension (the product's firmware) from 0x80: "AQ", the cloud state,
 * the failure code, the pairing code's length and its ASCII.
 * @throws RangeError on a MAC without 12 hex digits, a name over 62 bytes, or a pairing code over 255 bytes.
 */
export function encodeHelloAnswer(answer: HelloAnswer): Uint8Array {
  const mac = answer.mac.replace(/[^0-9a-fA-F]/g, "");
  if (mac.length !== 12) throw new RangeError("MAC must have 12 hex digits");
  const name = utf8(answer.name);
  if (name.length > 62) throw new RangeError("name must have at most 62 bytes");
  const ext = answer.extension;
  const code = utf8(ext?.pairingCode ?? "");
  if (code.length > 255) throw new RangeError("pairing code must have at most 255 bytes");
  const packet = new Uint8Array(ext ? 0x85 + code.length : HELLO_ANSWER_STOCK_BYTES);
  packet[0x26] = BroadlinkPacketKind.HelloAnswer;
  writeLe16(packet, 0x34, answer.deviceType);
  packet.set(ipv4Bytes(answer.ip).reverse(), 0x36);
  for (let i = 0; i < 6; i++) packet[0x3a + i] = Number.parseInt(mac.slice((5 - i) * 2, (5 - i) * 2 + 2), 16);
  packet.set(name, 0x40);
  packet[0x7f] = answer.locked ? 1 : 0;
  if (ext) {
    packet.set(EXTENSION_MAGIC, 0x80);
    packet[0x82] = ext.cloudState;
    packet[0x83] = ext.failure;
    packet[0x84] = code.length;
    packet.set(code, 0x85);
  }
  return seal(packet);
}

/**
 * Reads a hello answer as python-broadlink `scan()` does (broadlink/device.py lines 65–73): any datagram of at least
 * 0x80 bytes, fields at fixed offsets, neither kind nor checksum read. The name ends at its NUL or at 0x7f (scan()
 * reads on past the lock byte when there is no NUL). From 0x80, the product's extension when it opens with "AQ";
 * anything else there is left unread (extension null). An extension is the product's own: its answer must carry kind
 * 0x07 and the checksum.
 * @throws BroadlinkPacketError on a packet under 0x80 bytes, a name that is not UTF-8, or an extension with a wrong
 *   kind or checksum, an unknown cloud state, or a pairing code that runs past the packet.
 */
export function decodeHelloAnswer(packet: Uint8Array): HelloAnswer {
  if (packet.length < HELLO_ANSWER_STOCK_BYTES) throw new BroadlinkPacketError("hello answer shorter than 128 bytes");
  const macBytes = Array.from(packet.subarray(0x3a, 0x40)).reverse();
  const nameEnd = packet.indexOf(0, 0x40);
  let name: string;
  try {
    name = fromUtf8(packet.subarray(0x40, nameEnd === -1 || nameEnd > 0x7f ? 0x7f : nameEnd));
  } catch {
    throw new BroadlinkPacketError("name is not UTF-8");
  }
  return {
    mac: macBytes
      .map((b) => b.toString(16).padStart(2, "0"))
      .join("")
      .toUpperCase(),
    deviceType: readLe16(packet, 0x34),
    ip: Array.from(packet.subarray(0x36, 0x3a)).reverse().join("."),
    name,
    locked: packet[0x7f] !== 0,
    extension: readExtension(packet),
  };
}

function readExtension(packet: Uint8Array): HelloExtension | null {
  if (packet.length < 0x85 || packet[0x80] !== EXTENSION_MAGIC[0] || packet[0x81] !== EXTENSION_MAGIC[1]) return null;
  check(packet, BroadlinkPacketKind.HelloAnswer, 0x85, "hello answer");
  const cloudState = packet[0x82];
  if (cloudState > 3) throw new BroadlinkPacketError(`cloud state ${cloudState}`);
  const codeLength = packet[0x84];
  if (packet.length < 0x85 + codeLength) throw new BroadlinkPacketError("pairing code runs past the packet");
  return {
    cloudState: cloudState as CloudState,
    failure: packet[0x83],
    pairingCode: codeLength > 0 ? fromUtf8(packet.subarray(0x85, 0x85 + codeLength)) : null,
  };
}

/**
 * The product firmware's 0x30-byte acknowledgement of a join packet (kind 0x15). Stock modules send none and
 * python-broadlink reads none (broadlink/__init__.py lines 329–333), so the app never waits for it.
 */
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
