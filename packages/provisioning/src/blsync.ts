/**
 * Bluetooth provisioning of the new WIFI-BL3372 module (docs/device-protocol.md §13.2), byte for byte as Bouffalo
 * Lab's blsync_ble writes and parses it (bl_iot_sdk components/stage/blsync_ble: inc/blsync_ble.h, inc/transfer.h,
 * inc/payload.h, src/transfer.c, src/encrypt_layer.c, src/payload.c; vectors from those files compiled on a host in
 * packages/provisioning/vectors/).
 *
 * A message (a command, a piece of data, or the module's answer) travels as one or more frames, each one GATT write
 * (phone → module) or one value of the read characteristic (module → phone). Layers, outermost first:
 * - transfer (transfer.c): `ctrl` (bit 0 retry, bit 1 fragmented, bit 2 protected, bit 3 ack, bits 4–5 type: 0
 *   command, 1 data; bits 6–7 version, never read by the SDK and always written 0), `seq`, `frag_ctrl` (LE16: bits
 *   0–14 fragment index, bit 15 last fragment); fragment 0 adds the message's total payload length (LE16); every
 *   fragment then has one length byte for the rest.
 * - encryption (encrypt_layer.c): `enc_ctrl`, and on fragment 0 also `ctr` (LE32) and `mac` (LE32): always present,
 *   always written as zeros, never checked.
 * - payload (payload.c): a command fragment is its id and a 4-byte argument; a data fragment is a length byte, the
 *   data id and the bytes. An answer is data with the ack bit whose id is the result code.
 *
 * The module's answer to a request frame starts at that frame's `seq`; every further fragment takes the next one.
 */

import { readLe16, writeLe16 } from "./bytes.ts";

/** The Bluetooth base UUID with a 16-bit UUID in it, as Web Bluetooth names 16-bit attributes. */
function uuid16(value: number): string {
  return `0000${value.toString(16).padStart(4, "0")}-0000-1000-8000-00805f9b34fb`;
}

/** The provisioning service (blsync_ble.h BT_UUID_WIFI_PROV, 16-bit 0xFFFF). */
export const BLSYNC_SERVICE_UUID = uuid16(0xffff);
/** The characteristic the phone writes requests to (BT_UUID_WIFIPROV_WRITE 0xFF01: write, write without response). */
export const BLSYNC_WRITE_UUID = uuid16(0xff01);
/** The characteristic the phone reads answers from (BT_UUID_WIFIPROV_READ 0xFF02: read, notify). */
export const BLSYNC_READ_UUID = uuid16(0xff02);
/** The Client Characteristic Configuration descriptor of the read characteristic (BT_GATT_CCC). */
export const CCC_DESCRIPTOR_UUID = uuid16(0x2902);
/** The module's protocol version, answered to {@link BlsyncCommand.GetVersion} with its NUL (BLSYNC_BLE_VERSION). */
export const BLSYNC_VERSION = "v1.1.0";
/** Largest frame with the default ATT MTU (23) less the 3-byte ATT header: the phone's default write size. */
export const BLSYNC_MAX_FRAME = 20;
/**
 * Largest answer the module sends: pro_trans_layer_ack_read refuses more than PRO_CONFIG_BUF_SIZE (256) bytes and
 * __protocol_ack passes the length as a uint8_t, so 256 bytes arrive as an empty answer too.
 */
export const BLSYNC_MAX_ANSWER_BYTES = 255;
/** Largest Wi-Fi name the module stores (struct wifi_conn ssid[32]), bytes of UTF-8. */
export const BLSYNC_MAX_SSID_BYTES = 32;
/** Largest Wi-Fi password the module stores (struct wifi_conn pask[64]), bytes of UTF-8. */
export const BLSYNC_MAX_PASSWORD_BYTES = 64;

/** Frame types (transfer.h PRO_TYPE_CMD / PRO_TYPE_DATA). */
export const BlsyncFrameType = { Command: 0, Data: 1 } as const;
export type BlsyncFrameType = (typeof BlsyncFrameType)[keyof typeof BlsyncFrameType];

/**
 * Command ids (transfer.h cmd_id_t). blsync_ble.c's handler acts on ConnectWifi, DisconnectWifi, WifiScan,
 * WifiDataGet, ProvStop, WifiStateGet and GetVersion and answers every other id with {@link BlsyncResult.Error}.
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

/**
 * Data ids (transfer.h data_id_t): the station's BSSID, SSID and password, and DATA_CUSTOM_DATA, which the transfer
 * layer hands to the application's handler like any other data (the product's setup ticket and status extension).
 */
export const BlsyncData = {
  Ack: 0x00,
  StaWifiBssid: 0x01,
  StaWifiSsid: 0x02,
  StaWifiPassword: 0x03,
  CustomData: 0x13,
} as const;
export type BlsyncData = (typeof BlsyncData)[keyof typeof BlsyncData];

/**
 * Result codes carried as the id of an answer. The application's handler answers 0, 1 or 2 (payload.h PRO_OK,
 * PRO_NOT_READY, PRO_ERROR); the transfer layer answers a frame it could not take with the negative code as a byte
 * (−PRO_ERROR = 0xfe, −PRO_NO_MEM = 0xfd).
 */
export const BlsyncResult = {
  Ok: 0,
  NotReady: 1,
  Error: 2,
  FrameError: 0xfe,
  NoMemory: 0xfd,
} as const;
export type BlsyncResult = (typeof BlsyncResult)[keyof typeof BlsyncResult];

/** One decoded frame. `data` is the payload bytes of this fragment (a command's 4-byte argument). */
export interface BlsyncFrame {
  type: BlsyncFrameType;
  ack: boolean;
  retry: boolean;
  fragmented: boolean;
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
  /** Whether this fragment ends its message (not fragmented, or the last flag), as transfer.c __pack_trans_end. */
  end: boolean;
}

/** A whole message, reassembled from its frames. */
export interface BlsyncMessage {
  type: BlsyncFrameType;
  ack: boolean;
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
  /** Command id or data id. */
  id: number;
  /** Data bytes, at most 255 (the SDK's payload layer counts in a uint8_t); a command's argument, at most 4 bytes. */
  data?: Uint8Array;
  /** Seq of the first frame, 0–255. */
  seq: number;
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
const CTRL_ACK = 1 << 3;
const FRAG_LAST = 0x8000;
/** transfer header (ctrl, seq, frag_ctrl) + total length + length byte + encryption header + payload header. */
const FIRST_OVERHEAD = 4 + 2 + 1 + 9;
const LATER_OVERHEAD = 4 + 1 + 1;
/** A version-0 command in one frame: 21 bytes. */
const COMMAND_FRAME = FIRST_OVERHEAD + 5;

function frameOf(ctrl: number, seq: number, fragCtrl: number, total: number | null, payload: Uint8Array): Uint8Array {
  const first = total !== null;
  const head = first ? 7 : 5;
  const enc = first ? 9 : 1;
  const frame = new Uint8Array(head + enc + payload.length);
  frame[0] = ctrl;
  frame[1] = seq & 0xff;
  writeLe16(frame, 2, fragCtrl);
  if (first) writeLe16(frame, 4, total);
  frame[head - 1] = enc + payload.length;
  frame.set(payload, head + enc);
  return frame;
}

function dataPayload(id: number, bytes: Uint8Array): Uint8Array {
  const p = new Uint8Array(2 + bytes.length);
  p[0] = bytes.length;
  p[1] = id;
  p.set(bytes, 2);
  return p;
}

/**
 * The frames of one request message, each at most `maxFrame` bytes (the negotiated ATT MTU less 3; 20 by default),
 * in the layout transfer.c, encrypt_layer.c and payload.c parse (the same as __protocol_send writes).
 *
 * Data is split so every fragment carries what fits; the fragmented bit is set on every frame of a message of more
 * than one. A command is one 21-byte frame when `maxFrame` ≥ 21; below that it goes in two frames the SDK
 * reassembles into the same command: fragment 0 of type data with an empty payload (announcing 4 bytes), then
 * fragment 1 of type command with the id and its 4-byte argument (__pack_trans takes the frame type of each fragment
 * and raises the event with the last one's type and id).
 * @throws RangeError when a command argument exceeds 4 bytes, data exceeds 255 bytes, or `maxFrame` is under 18
 *   (no data byte would fit a first fragment).
 */
export function encodeMessage(message: BlsyncOutgoing, maxFrame = BLSYNC_MAX_FRAME): Uint8Array[] {
  if (maxFrame < FIRST_OVERHEAD + 2) throw new RangeError(`frames of ${maxFrame} bytes carry nothing`);
  const data = message.data ?? new Uint8Array(0);
  if (message.type === BlsyncFrameType.Command) {
    if (data.length > 4) throw new RangeError("a command argument has at most 4 bytes");
    const payload = new Uint8Array(5);
    payload[0] = message.id;
    payload.set(data, 1);
    if (maxFrame >= COMMAND_FRAME) return [frameOf(0x00, message.seq, FRAG_LAST, 4, payload)];
    const lead = frameOf(0x10 | CTRL_FRAG, message.seq, 0, 4, dataPayload(0, new Uint8Array(0)));
    return [lead, frameOf(CTRL_FRAG, message.seq + 1, 1 | FRAG_LAST, null, payload)];
  }
  if (data.length > 0xff) throw new RangeError("a data message carries at most 255 bytes");
  const frames: Uint8Array[] = [];
  let sent = 0;
  for (let index = 0; ; index++) {
    const first = index === 0;
    const room = maxFrame - (first ? FIRST_OVERHEAD : LATER_OVERHEAD) - 2;
    const n = Math.min(room, data.length - sent);
    const last = sent + n >= data.length;
    const payload = dataPayload(message.id, data.subarray(sent, sent + n));
    frames.push(
      frameOf(0x10, message.seq + index, index | (last ? FRAG_LAST : 0), first ? data.length : null, payload),
    );
    sent += n;
    if (last) break;
  }
  if (frames.length > 1) for (const f of frames) f[0] |= CTRL_FRAG;
  return frames;
}

/** The frames of a command request (4-byte zero argument), at most `maxFrame` bytes each. */
export function commandFrames(command: BlsyncCommand, seq: number, maxFrame = BLSYNC_MAX_FRAME): Uint8Array[] {
  return encodeMessage({ type: BlsyncFrameType.Command, id: command, seq }, maxFrame);
}

/** The frames of a data request (`id` e.g. {@link BlsyncData.StaWifiSsid}), at most `maxFrame` bytes each. */
export function dataFrames(id: BlsyncData, data: Uint8Array, seq: number, maxFrame = BLSYNC_MAX_FRAME): Uint8Array[] {
  return encodeMessage({ type: BlsyncFrameType.Data, id, data, seq }, maxFrame);
}

/**
 * The frame that makes the SDK drop a message it holds half-received, sent before a message is started again: a
 * data fragment 1 whose payload length byte (5) disagrees with its size. payload.c refuses it before copying
 * anything, and transfer.c then frees the partial message (__clear_dev) and answers 0xfe. Without it a new fragment 0
 * arriving while a message is held makes __pack_trans clear the announced length after reading it and copy through
 * a NULL buffer (the module crashes); so does any fragment other than 0 sent again after its message ended.
 */
export function discardFrame(seq: number): Uint8Array {
  return frameOf(0x10 | CTRL_FRAG, seq, 1, null, new Uint8Array([5]));
}

/**
 * The frames of the module's answer to the request frame with `requestSeq` (transfer.c __protocol_send called by
 * __protocol_ack): data type with the ack bit, `result` as the id, the data split to `mtu` bytes per frame (the
 * fragmented bit from the first frame on when it does not fit one), seq counting up from `requestSeq`. Data longer
 * than {@link BLSYNC_MAX_ANSWER_BYTES} is dropped, as the SDK drops it: the answer then carries no data.
 * @throws RangeError when `mtu` is under 18.
 */
export function answerFrames(
  requestSeq: number,
  result: number,
  data: Uint8Array = new Uint8Array(0),
  mtu = BLSYNC_MAX_FRAME,
): Uint8Array[] {
  if (mtu < FIRST_OVERHEAD + 2) throw new RangeError(`frames of ${mtu} bytes carry nothing`);
  const body = data.length > BLSYNC_MAX_ANSWER_BYTES ? new Uint8Array(0) : data;
  const frames: Uint8Array[] = [];
  let ctrl = 0x10 | CTRL_ACK;
  let sent = 0;
  for (let index = 0; ; index++) {
    const first = index === 0;
    const room = mtu - (first ? FIRST_OVERHEAD : LATER_OVERHEAD) - 2;
    const n = Math.min(room, body.length - sent);
    if (n < body.length) ctrl |= CTRL_FRAG;
    const last = sent + n >= body.length;
    const payload = dataPayload(result & 0xff, body.subarray(sent, sent + n));
    frames.push(frameOf(ctrl, requestSeq + index, index | (last ? FRAG_LAST : 0), first ? body.length : null, payload));
    sent += n;
    if (last) break;
  }
  return frames;
}

/**
 * Decodes one frame as the SDK parses it (transfer.c pro_trans_read and __pack_trans, encrypt_layer.c
 * __pack_encrypt_read, payload.c __payload_read); the version bits are ignored, as the SDK ignores them.
 * @throws BlsyncFrameError on a frame too short, a length byte that does not match the frame, a payload shorter
 *   than its encryption header, or a payload that breaks its layout (a command's must be 5 bytes; data's length
 *   byte must match).
 */
export function decodeFrame(bytes: Uint8Array): BlsyncFrame {
  if (bytes.length < 5) throw new BlsyncFrameError("shorter than a header");
  const ctrl = bytes[0];
  const type = (ctrl >> 4) & 0x01;
  const fragCtrl = readLe16(bytes, 2);
  const index = fragCtrl & 0x7fff;
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
  const enc = index === 0 ? 9 : 1;
  if (length < enc) throw new BlsyncFrameError("shorter than its encryption header");
  const payload = bytes.subarray(at + enc);
  let id: number;
  let data: Uint8Array;
  if ((ctrl >> 4) & 0x02) throw new BlsyncFrameError(`unknown frame type ${(ctrl >> 4) & 0x03}`);
  if (type === BlsyncFrameType.Command) {
    if (payload.length !== 5) throw new BlsyncFrameError("a command payload must be 5 bytes");
    id = payload[0];
    data = payload.slice(1);
  } else {
    if (payload.length < 2 || payload[0] !== payload.length - 2) {
      throw new BlsyncFrameError("data length byte mismatch");
    }
    id = payload[1];
    data = payload.slice(2);
  }
  const fragmented = (ctrl & CTRL_FRAG) !== 0;
  const last = (fragCtrl & FRAG_LAST) !== 0;
  return {
    type: type as BlsyncFrameType,
    ack: (ctrl & CTRL_ACK) !== 0,
    retry: (ctrl & CTRL_RETRY) !== 0,
    fragmented,
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
 * Reassembles the module's answer from the frames the phone reads, in order: fragment 0 starts it and announces its
 * total length, later fragments follow by index and must be answer frames with the same result code, the answer
 * ends with the last-fragment flag (or at once when not fragmented) and its length must then equal the announced
 * total.
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
      type: first.type,
      ack: first.ack,
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

/**
 * What the module's transfer layer did with one written frame ({@link BlsyncReceiver.receive}):
 * - "fragment": taken, the message goes on; answered with result 0 and no data;
 * - "message": the message is whole: the application's handler decides the answer (type and id from the last
 *   fragment, the bytes of all of them);
 * - "refused": the SDK could not take it and answers {@link BlsyncResult.FrameError}; `dropped` when it also freed
 *   the message it held;
 * - "crash": the SDK would write through a NULL pointer or past its buffer (the module resets).
 * `answer` is false for a frame with the ack bit: the SDK answers only frames without it.
 */
export type BlsyncReceived =
  | { kind: "fragment"; seq: number; answer: boolean }
  | { kind: "message"; seq: number; answer: boolean; type: BlsyncFrameType; id: number; data: Uint8Array }
  | { kind: "refused"; seq: number; answer: boolean; dropped: boolean }
  | { kind: "crash"; seq: number; reason: "null-write" | "overflow" };

/**
 * The module's side of the transfer layer: transfer.c __pack_trans, encrypt_layer.c __pack_encrypt_read and
 * payload.c __payload_read step by step, including what they get wrong — a new fragment 0 while a message is held
 * clears the announced length before allocating (so the copy goes through NULL), a fragment after its message
 * ended copies through NULL, and a fragment sent again copies past the buffer. The retry bit's 10-second seq
 * time-out of pro_trans_read is not modelled. The simulator runs every written frame through it.
 */
export class BlsyncReceiver {
  private buffer: Uint8Array | null = null;
  private total = 0;
  private now = 0;

  /** Takes one written frame; see {@link BlsyncReceived}. */
  receive(bytes: Uint8Array): BlsyncReceived {
    const seq = bytes[1] ?? 0;
    const ctrl = bytes[0] ?? 0;
    const answer = (ctrl & CTRL_ACK) === 0;
    const refused = (dropped: boolean): BlsyncReceived => {
      if (dropped) this.clear();
      return { kind: "refused", seq, answer, dropped };
    };
    if (bytes.length < 5) return refused(false);
    const fragCtrl = readLe16(bytes, 2);
    const type = ((ctrl >> 4) & 0x03) as BlsyncFrameType;
    const first = (fragCtrl & 0x7fff) === 0;
    let at: number;
    let srcLen: number;
    if (first) {
      if (bytes.length < 7) return refused(false);
      const announced = readLe16(bytes, 4);
      srcLen = bytes[6];
      if (bytes.length - 4 !== srcLen + 3) return refused(false);
      this.total = announced;
      if (this.buffer !== null) this.clear();
      if (this.total !== 0) this.buffer = new Uint8Array(this.total);
      at = 7 + 9;
      srcLen -= 9;
    } else {
      srcLen = bytes[4];
      if (bytes.length - 5 !== srcLen) return refused(false);
      at = 5 + 1;
      srcLen -= 1;
    }
    const src = (srcLen & 0xff) as number;
    let id: number;
    let piece: Uint8Array;
    if (type === BlsyncFrameType.Command) {
      if (src !== 5) return refused(true);
      id = bytes[at];
      piece = bytes.subarray(at + 1, at + 5);
    } else {
      if (src - 2 !== bytes[at]) return refused(true);
      id = bytes[at + 1];
      piece = bytes.subarray(at + 2, at + 2 + bytes[at]);
    }
    if (piece.length > 0) {
      if (this.buffer === null) return this.crash(seq, "null-write");
      if (this.now + piece.length > this.buffer.length) return this.crash(seq, "overflow");
      this.buffer.set(piece, this.now);
    }
    this.now += piece.length;
    const end = (ctrl & CTRL_FRAG) === 0 || (fragCtrl & FRAG_LAST) !== 0;
    if (!end) return { kind: "fragment", seq, answer };
    if (this.now !== this.total) return refused(true);
    const data = this.buffer ?? new Uint8Array(0);
    this.buffer = null;
    this.clear();
    return { kind: "message", seq, answer, type, id, data };
  }

  /** Forgets a partial message (pro_trans_reset: no frame for PRO_CONFIG_TIMEOUT, or the module restarted). */
  clear(): void {
    this.buffer = null;
    this.total = 0;
    this.now = 0;
  }

  private crash(seq: number, reason: "null-write" | "overflow"): BlsyncReceived {
    this.clear();
    return { kind: "crash", seq, reason };
  }
}
