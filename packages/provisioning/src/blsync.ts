/**
 * Bluetooth provisioning frames of the new WIFI-BL3372 module (docs/device-protocol.md §13), following
 * Bouffalo Lab's blsync_ble in bl_iot_sdk (components/stage/blsync_ble: transfer.c, encrypt_layer.c, payload.c;
 * service and characteristic UUIDs from components/network/ble/blestack/src/services/wifi_prov.h).
 *
 * A message (a command, a piece of data, or the module's answer) travels as one or more frames of at most
 * {@link BLSYNC_MAX_FRAME} bytes. Layers, outermost first:
 * - transfer: `ctrl` (bit 0 retry, bit 1 fragmented, bit 2 protected, bit 3 ack, bits 4–5 type: 0 command,
 *   1 data; bits 6–7 version), `seq`, `frag_ctrl` (LE16: bits 0–14 fragment index, bit 15 last fragment); the first
 *   fragment adds the message's total payload length (LE16); every fragment then has one length byte for the rest.
 * - encryption, version 0 only: `enc_ctrl`, and on the first fragment `ctr` (LE32) and `mac` (LE32). The SDK writes
 *   zeros there and encrypts nothing. Version 1 ("compact", our use of the SDK's reserved PRO_VERSION01) leaves the
 *   layer out, so that a command fits one 20-byte ATT write (in version 0 it takes 21 bytes).
 * - payload: a command is its id and a 4-byte argument, in one fragment; data carries, in every fragment, a length
 *   byte, the data id and the bytes. An answer is data with the ack bit, whose id is the result code.
 *
 * Every fragment uses the next `seq` (mod 256); an answer starts at the `seq` of the request frame it answers.
 */

import { readLe16, writeLe16 } from "./bytes.ts";

/** The provisioning GATT service the module advertises in setup mode (wifi_prov.h BT_UUID_WIFI_PROV). */
export const BLSYNC_SERVICE_UUID = "07af8aa0-9f1f-11ea-b294-02fcdc4e7412";
/** The characteristic the app writes requests to (write, write without response). */
export const BLSYNC_WRITE_UUID = "07af8aa1-9f1f-11ea-b294-02fcdc4e7412";
/** The characteristic the app reads answers from (read; notify exists but the app polls). */
export const BLSYNC_READ_UUID = "07af8aa2-9f1f-11ea-b294-02fcdc4e7412";
/** The Client Characteristic Configuration descriptor of the read characteristic (BT_GATT_CCC). */
export const CCC_DESCRIPTOR_UUID = "00002902-0000-1000-8000-00805f9b34fb";
/** The module's protocol version string, answered to {@link BlsyncCommand.GetVersion} (BLSYNC_BLE_VERSION). */
export const BLSYNC_VERSION = "v1.1.0";
/** Largest frame: the default ATT MTU (23) less the 3-byte ATT header. */
export const BLSYNC_MAX_FRAME = 20;
/** Largest Wi-Fi name the module stores (struct wifi_conn ssid[32]), bytes of UTF-8. */
export const BLSYNC_MAX_SSID_BYTES = 32;
/** Largest Wi-Fi password the module stores (struct wifi_conn pask[64]), bytes of UTF-8. */
export const BLSYNC_MAX_PASSWORD_BYTES = 64;

/** Frame types (transfer.h PRO_TYPE_CMD / PRO_TYPE_DATA). */
export const BlsyncFrameType = { Command: 0, Data: 1 } as const;
export type BlsyncFrameType = (typeof BlsyncFrameType)[keyof typeof BlsyncFrameType];

/** Frame layout versions: 0 as the SDK sends (with the encryption header), 1 compact (without). */
export const BlsyncVersion = { Sdk: 0, Compact: 1 } as const;
export type BlsyncVersion = (typeof BlsyncVersion)[keyof typeof BlsyncVersion];

/**
 * Command ids (transfer.h cmd_id_t). The modelled module handles ConnectWifi, DisconnectWifi, GetVersion, ProvStop and
 * WifiStateGet; it answers every other id (WifiScan and WifiDataGet included: the app takes the network's name from
 * the phone, not from the module's scan) with result {@link BlsyncResult.Error}, as blsync_ble.c's default case does.
 */
export const BlsyncCommand = {
  Ack: 0x00,
  SetSecMode: 0x01,
  SetOpMode: 0x02,
  ConnectWifi: 0x03,
  DisconnectWifi: 0x04,
  GetWifiStatus: 0x05,
  Deauthenticate: 0x06,
  GetVersion: 0x07,
  CloseConnection: 0x08,
  WifiScan: 0x09,
  DataGetPrepare: 0x0a,
  WifiDataGet: 0x0b,
  ProvStop: 0x0c,
  WifiStateGet: 0x0d,
} as const;
export type BlsyncCommand = (typeof BlsyncCommand)[keyof typeof BlsyncCommand];

/** Data ids (transfer.h data_id_t); the module uses the station's BSSID, SSID and password. */
export const BlsyncData = {
  Ack: 0x00,
  StaWifiBssid: 0x01,
  StaWifiSsid: 0x02,
  StaWifiPassword: 0x03,
  CustomData: 0x13,
} as const;
export type BlsyncData = (typeof BlsyncData)[keyof typeof BlsyncData];

/**
 * Result codes carried as the id of an answer. The event handler answers 0, 1 or 2 (payload.h PRO_OK,
 * PRO_NOT_READY, PRO_ERROR); the transfer layer answers a frame it could not take with the negative code as a byte
 * (−PRO_ERROR = 0xfe, −PRO_NO_MEM = 0xfd, −PRO_TIMEOUT = 0xfc).
 */
export const BlsyncResult = {
  Ok: 0,
  NotReady: 1,
  Error: 2,
  FrameError: 0xfe,
  NoMemory: 0xfd,
  Timeout: 0xfc,
} as const;
export type BlsyncResult = (typeof BlsyncResult)[keyof typeof BlsyncResult];

/** One decoded frame. `data` is the payload bytes of this fragment (a command's 4-byte argument). */
export interface BlsyncFrame {
  version: BlsyncVersion;
  type: BlsyncFrameType;
  ack: boolean;
  retry: boolean;
  fragmented: boolean;
  protected: boolean;
  seq: number;
  /** Fragment index 0–32767. */
  index: number;
  /** The last-fragment flag (frag_ctrl bit 15). */
  last: boolean;
  /** The message's total payload length; only on fragment 0. */
  totalLength: number | null;
  /** Command id, data id or (answers) result code. */
  id: number;
  data: Uint8Array;
  /** Whether this fragment ends its message (not fragmented, or the last flag), as transfer.c decides. */
  end: boolean;
}

/** A whole message, reassembled from its frames. */
export interface BlsyncMessage {
  version: BlsyncVersion;
  type: BlsyncFrameType;
  ack: boolean;
  retry: boolean;
  /** The seq of its first frame. */
  seq: number;
  id: number;
  data: Uint8Array;
  /** How many frames carried it. */
  frames: number;
}

/** What {@link encodeMessage} needs. */
export interface BlsyncOutgoing {
  type: BlsyncFrameType;
  /** Command id, data id, or the result code of an answer. */
  id: number;
  /** Data bytes; a command's argument (at most 4 bytes, zero-padded). */
  data?: Uint8Array;
  /** Seq of the first frame, 0–255. */
  seq: number;
  /** Answer frames carry the ack bit. */
  ack?: boolean;
  /** A retransmission of frames already sent (same seq). */
  retry?: boolean;
  /** Default {@link BlsyncVersion.Compact}. */
  version?: BlsyncVersion;
}

/** A frame or message that breaks the layout; `reason` names the broken rule. */
export class BlsyncFrameError extends Error {
  readonly reason: string;
  constructor(reason: string) {
    super(`blsync frame: ${reason}`);
    this.reason = reason;
    this.name = "BlsyncFrameError";
  }
}

const CTRL_RETRY = 1 << 0;
const CTRL_FRAG = 1 << 1;
const CTRL_PROTECT = 1 << 2;
const CTRL_ACK = 1 << 3;
const FRAG_LAST = 0x8000;

function encryptionHeaderLength(version: BlsyncVersion, first: boolean): number {
  if (version !== BlsyncVersion.Sdk) return 0;
  return first ? 9 : 1;
}

/**
 * The frames of one message, each at most `maxFrame` bytes (transfer.c __protocol_send, also for requests).
 * Commands go in one frame with their 4-byte argument; data is split so every fragment carries what fits.
 * @throws RangeError when a command argument exceeds 4 bytes, a command does not fit `maxFrame`, data is longer than
 *   65535 bytes, or a fragment could carry no data.
 */
export function encodeMessage(message: BlsyncOutgoing, maxFrame = BLSYNC_MAX_FRAME): Uint8Array[] {
  const version = message.version ?? BlsyncVersion.Compact;
  const data = message.data ?? new Uint8Array(0);
  const flags = (message.ack ? CTRL_ACK : 0) | (message.retry ? CTRL_RETRY : 0);
  const ctrlBase = (version << 6) | (message.type << 4) | flags;
  if (message.type === BlsyncFrameType.Command) {
    if (data.length > 4) throw new RangeError("a command argument has at most 4 bytes");
    const enc = encryptionHeaderLength(version, true);
    const frame = new Uint8Array(4 + 2 + 1 + enc + 5);
    if (frame.length > maxFrame) throw new RangeError(`a command needs ${frame.length} bytes, more than ${maxFrame}`);
    frame[0] = ctrlBase;
    frame[1] = message.seq & 0xff;
    writeLe16(frame, 2, FRAG_LAST);
    writeLe16(frame, 4, 4);
    frame[6] = enc + 5;
    frame[7 + enc] = message.id;
    frame.set(data, 8 + enc);
    return [frame];
  }
  if (data.length > 0xffff) throw new RangeError("a message carries at most 65535 bytes");
  const frames: Uint8Array[] = [];
  let sent = 0;
  for (let index = 0; ; index++) {
    const first = index === 0;
    const head = 4 + (first ? 2 : 0) + 1;
    const enc = encryptionHeaderLength(version, first);
    const room = maxFrame - head - enc - 2;
    if (room <= 0 && data.length > 0) throw new RangeError(`frames of ${maxFrame} bytes carry no data`);
    const n = Math.min(Math.max(room, 0), data.length - sent);
    const last = sent + n >= data.length;
    const frame = new Uint8Array(head + enc + 2 + n);
    frame[1] = (message.seq + index) & 0xff;
    writeLe16(frame, 2, index | (last ? FRAG_LAST : 0));
    if (first) writeLe16(frame, 4, data.length);
    frame[head - 1] = enc + 2 + n;
    frame[head + enc] = n;
    frame[head + enc + 1] = message.id;
    frame.set(data.subarray(sent, sent + n), head + enc + 2);
    frames.push(frame);
    sent += n;
    if (last) break;
  }
  const fragmented = frames.length > 1 ? CTRL_FRAG : 0;
  for (const f of frames) f[0] = ctrlBase | fragmented;
  return frames;
}

/**
 * Decodes one frame (transfer.c pro_trans_read, encrypt_layer.c, payload.c).
 * @throws BlsyncFrameError on a frame too short, an unknown version or type, a length byte that does not match, or a
 *   payload that breaks its layout (a command's payload must be 5 bytes; data's length byte must match).
 */
export function decodeFrame(bytes: Uint8Array): BlsyncFrame {
  if (bytes.length < 5) throw new BlsyncFrameError("shorter than a header");
  const ctrl = bytes[0];
  const version = (ctrl >> 6) & 0x03;
  const type = (ctrl >> 4) & 0x03;
  if (version > 1) throw new BlsyncFrameError(`unsupported version ${version}`);
  if (type > 1) throw new BlsyncFrameError(`unknown frame type ${type}`);
  const fragCtrl = readLe16(bytes, 2);
  const index = fragCtrl & 0x7fff;
  const last = (fragCtrl & FRAG_LAST) !== 0;
  let at = 4;
  let totalLength: number | null = null;
  if (index === 0) {
    if (bytes.length < 7) throw new BlsyncFrameError("first fragment shorter than its header");
    totalLength = readLe16(bytes, 4);
    at = 6;
  }
  const length = bytes[at];
  at += 1;
  if (bytes.length !== at + length) throw new BlsyncFrameError(`length byte ${length} but ${bytes.length - at} follow`);
  const enc = encryptionHeaderLength(version as BlsyncVersion, index === 0);
  if (length < enc) throw new BlsyncFrameError("shorter than its encryption header");
  const payload = bytes.subarray(at + enc);
  let id: number;
  let data: Uint8Array;
  if (type === BlsyncFrameType.Command) {
    if (payload.length !== 5) throw new BlsyncFrameError("a command payload must be 5 bytes");
    id = payload[0];
    data = payload.slice(1);
  } else {
    if (payload.length < 2 || payload[0] !== payload.length - 2)
      throw new BlsyncFrameError("data length byte mismatch");
    id = payload[1];
    data = payload.slice(2);
  }
  const fragmented = (ctrl & CTRL_FRAG) !== 0;
  return {
    version: version as BlsyncVersion,
    type: type as BlsyncFrameType,
    ack: (ctrl & CTRL_ACK) !== 0,
    retry: (ctrl & CTRL_RETRY) !== 0,
    fragmented,
    protected: (ctrl & CTRL_PROTECT) !== 0,
    seq: bytes[1],
    index,
    last,
    totalLength,
    id,
    data,
    end: !fragmented || last,
  };
}

/**
 * Reassembles messages from frames in order (transfer.c __pack_trans): fragment 0 starts a message and announces its
 * total length, later fragments must follow by index, the message ends with the last-fragment flag (or at once when
 * not fragmented) and its length must then equal the announced total. A broken sequence is dropped.
 */
export class BlsyncAssembler {
  private first: BlsyncFrame | null = null;
  private parts: Uint8Array[] = [];
  private received = 0;
  private count = 0;

  /**
   * Takes the next frame.
   * @returns the whole message when this frame ends it, else null.
   * @throws BlsyncFrameError on a malformed frame, a fragment out of order, a fragment of another message, or a
   *   length that does not add up (the partial message is discarded).
   */
  push(bytes: Uint8Array): BlsyncMessage | null {
    let frame: BlsyncFrame;
    try {
      frame = decodeFrame(bytes);
    } catch (err) {
      this.reset();
      throw err;
    }
    if (frame.index === 0) {
      this.reset();
      this.first = frame;
    } else if (!this.first || frame.index !== this.count) {
      this.reset();
      throw new BlsyncFrameError(`fragment ${frame.index} out of order`);
    } else if (frame.type !== this.first.type || frame.id !== this.first.id || frame.ack !== this.first.ack) {
      this.reset();
      throw new BlsyncFrameError("fragment of another message");
    }
    this.parts.push(frame.data);
    this.received += frame.data.length;
    this.count += 1;
    const first = this.first as BlsyncFrame;
    const total = first.totalLength ?? 0;
    if (this.received > total) {
      this.reset();
      throw new BlsyncFrameError(`more than the announced ${total} bytes`);
    }
    if (!frame.end) return null;
    if (this.received !== total) {
      const got = this.received;
      this.reset();
      throw new BlsyncFrameError(`ended after ${got} of ${total} bytes`);
    }
    const data = new Uint8Array(total);
    let at = 0;
    for (const p of this.parts) {
      data.set(p, at);
      at += p.length;
    }
    const message: BlsyncMessage = {
      version: first.version,
      type: first.type,
      ack: first.ack,
      retry: first.retry,
      seq: first.seq,
      id: first.id,
      data,
      frames: this.count,
    };
    this.reset();
    return message;
  }

  /** Forgets a partial message (e.g. after a disconnect). */
  reset(): void {
    this.first = null;
    this.parts = [];
    this.received = 0;
    this.count = 0;
  }
}

/** The frames of a command request (4-byte zero argument unless given). */
export function commandFrames(command: BlsyncCommand, seq: number, version?: BlsyncVersion): Uint8Array[] {
  return encodeMessage({ type: BlsyncFrameType.Command, id: command, seq, version });
}

/** The frames of a data request (`id` e.g. {@link BlsyncData.StaWifiSsid}). */
export function dataFrames(id: BlsyncData, data: Uint8Array, seq: number, version?: BlsyncVersion): Uint8Array[] {
  return encodeMessage({ type: BlsyncFrameType.Data, id, data, seq, version });
}

/** The frames of the module's answer to the request frame with `requestSeq` (transfer.c __protocol_ack). */
export function answerFrames(
  requestSeq: number,
  result: number,
  data: Uint8Array = new Uint8Array(0),
  version?: BlsyncVersion,
): Uint8Array[] {
  return encodeMessage({ type: BlsyncFrameType.Data, id: result & 0xff, data, seq: requestSeq, ack: true, version });
}
