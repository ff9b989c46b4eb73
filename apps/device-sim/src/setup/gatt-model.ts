/**
 * The provisioning GATT service of the new WIFI-BL3372 module as a transport-independent model
 * (docs/device-protocol.md §13.1–§13.2): GATT writes go in, GATT reads come out, and the meaning of each request
 * (store the SSID, connect, report the Wi-Fi state, …) is delegated to a {@link BlsyncModule}. Whatever carries the
 * bytes — Chromium's DevTools BluetoothEmulation (cdp-peripheral.ts), a test, a browser test — calls
 * {@link BlsyncGattModel.write} and {@link BlsyncGattModel.read}.
 *
 * Browser-safe: no Node-only imports (only the provisioning codecs), so a browser test can run it too.
 */

import {
  answerFrames,
  BLSYNC_MAX_PASSWORD_BYTES,
  BLSYNC_MAX_SSID_BYTES,
  BLSYNC_READ_UUID,
  BLSYNC_VERSION,
  BLSYNC_WRITE_UUID,
  BlsyncAssembler,
  BlsyncCommand,
  BlsyncData,
  BlsyncFrameType,
  BlsyncResult,
  BlsyncVersion,
  decodeFrame,
  encodeModuleWifiState,
  fromUtf8,
  type TModuleWifiState,
  utf8,
} from "@aquapilot/provisioning";

/** ATT error codes the model answers with (Bluetooth Core Vol 3 Part F 3.4.1.1); 0 is success. */
export const AttError = {
  Success: 0x00,
  /** The handle does not name a usable attribute. */
  InvalidHandle: 0x01,
  ReadNotPermitted: 0x02,
  WriteNotPermitted: 0x03,
  /** Invalid PDU: what blsync_ble's read_data answers when nothing is prepared to read. */
  InvalidPdu: 0x04,
  /** No attribute of that UUID in the service. */
  AttributeNotFound: 0x0a,
} as const;
export type AttError = (typeof AttError)[keyof typeof AttError];

/**
 * What the module behind the GATT service does with each request (docs/device-protocol.md §13.2 "Rules of the
 * modelled module"). Each method returns a {@link BlsyncResult} code (0 OK, 1 not ready, 2 error) that becomes the
 * answer's id.
 */
export interface BlsyncModule {
  /** Stores the Wi-Fi name (1–32 bytes of UTF-8, already checked): state 1, failure 0. */
  setSsid(ssid: string): number;
  /** Stores the Wi-Fi password (0–64 bytes of UTF-8, already checked): state 1, failure 0. */
  setPassword(password: string): number;
  /** CONNECT_WIFI: starts joining the stored network (2 without an SSID). */
  connectWifi(): number;
  /** DISCONNECT_WIFI: aborts an attempt (or leaves the network) and returns to state 1. */
  disconnectWifi(): number;
  /** GET Wi-Fi state: the answer's JSON (state 0–4, addresses, failure, pairing code at state 4). */
  wifiState(): TModuleWifiState;
  /** PROV_STOP: setup is over; the module stops advertising and drops the link once the answer was read. */
  stopProvisioning(): number;
}

/** The result of a GATT write: an ATT code (0 success). */
export interface GattWriteResult {
  code: number;
}

/** The result of a GATT read: an ATT code and, on success, the value (one frame of the prepared answer). */
export interface GattReadResult {
  code: number;
  value?: Uint8Array;
}

/** The value {@link BlsyncCommand.GetVersion} answers: the SDK's version string with its terminating NUL. */
export const BLSYNC_VERSION_ANSWER = utf8(`${BLSYNC_VERSION}\0`);

/**
 * The module's BLE address: the Wi-Fi MAC with 1 added to its last octet (mod 256), "AA:BB:CC:DD:EE:FF"
 * (docs/device-protocol.md §13.2).
 * @param mac 12 hex digits, any separators.
 * @throws RangeError when `mac` does not have 12 hex digits.
 */
export function bluetoothAddressOf(mac: string): string {
  const hex = mac.replace(/[^0-9a-fA-F]/g, "").toUpperCase();
  if (hex.length !== 12) throw new RangeError(`MAC must have 12 hex digits: ${mac}`);
  const octets = hex.match(/../g) as string[];
  octets[5] = ((Number.parseInt(octets[5], 16) + 1) & 0xff).toString(16).padStart(2, "0").toUpperCase();
  return octets.join(":");
}

function sameUuid(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

/**
 * The blsync_ble provisioning service as GATT writes and reads (docs/device-protocol.md §13.1–§13.2;
 * bl_iot_sdk blsync_ble.c `write_data` / `read_data`, transfer.c):
 *
 * - Every frame written to {@link BLSYNC_WRITE_UUID} is answered: the answer's frames are prepared in the read
 *   buffer and read one per GATT read of {@link BLSYNC_READ_UUID} (until the last-fragment bit). A write before the
 *   previous answer was read replaces it; a read with nothing prepared fails with ATT 0x04.
 * - Frames are reassembled with `BlsyncAssembler`; each fragment of a long SSID or password gets an empty OK answer,
 *   the last one the result of storing it.
 * - A frame with the retry bit and the seq of the last request frame is a retransmission: its answer is prepared
 *   again and nothing is done twice.
 * - A frame that cannot be parsed is answered with result 0xfe (−PRO_ERROR), an unknown command or data id with 2.
 * - The answer uses the frame layout version (0 SDK, 1 compact) of the request and starts at its seq.
 *
 * Commands handled: CONNECT_WIFI, DISCONNECT_WIFI, GET_VERSION ("v1.1.0\0"), WIFI_STATE_GET (compact JSON via
 * `encodeModuleWifiState`), PROV_STOP; data: station SSID (1–32 bytes UTF-8) and password (0–64 bytes UTF-8).
 * Scanning (WIFI_SCAN, WIFI_DATA_GET) is not part of the modelled exchange and is answered with 2 like any other
 * command.
 */
export class BlsyncGattModel {
  private readonly assembler = new BlsyncAssembler();
  private prepared: Uint8Array[] = [];
  private lastSeq: number | null = null;
  private lastAnswer: Uint8Array[] | null = null;
  private stopped = false;

  private readonly module: BlsyncModule;
  /** @param module what the requests mean (the setup-mode device). */
  constructor(module: BlsyncModule) {
    this.module = module;
  }

  /** Whether PROV_STOP was received: setup is over and the link should be dropped once its answer was read. */
  get provisioningStopped(): boolean {
    return this.stopped;
  }

  /** Whether answer frames are waiting to be read. */
  get hasPendingAnswer(): boolean {
    return this.prepared.length > 0;
  }

  /**
   * A GATT write of `value` (one frame, at most 20 bytes in practice) to `characteristicUuid` (any case).
   * @returns code 0 when the write was taken (even when the frame was malformed: the answer then carries 0xfe), 0x03
   *   for the read characteristic, 0x0A for a UUID the service does not have.
   */
  write(characteristicUuid: string, value: Uint8Array): GattWriteResult {
    if (sameUuid(characteristicUuid, BLSYNC_READ_UUID)) return { code: AttError.WriteNotPermitted };
    if (!sameUuid(characteristicUuid, BLSYNC_WRITE_UUID)) return { code: AttError.AttributeNotFound };
    this.prepared = this.handleFrame(value);
    return { code: AttError.Success };
  }

  /**
   * A GATT read of `characteristicUuid` (any case): the next frame of the prepared answer.
   * @returns code 0 and the frame; 0x04 when nothing is prepared; 0x02 for the write characteristic; 0x0A for a UUID
   *   the service does not have.
   */
  read(characteristicUuid: string): GattReadResult {
    if (sameUuid(characteristicUuid, BLSYNC_WRITE_UUID)) return { code: AttError.ReadNotPermitted };
    if (!sameUuid(characteristicUuid, BLSYNC_READ_UUID)) return { code: AttError.AttributeNotFound };
    const next = this.prepared.shift();
    if (!next) return { code: AttError.InvalidPdu };
    return { code: AttError.Success, value: next };
  }

  /** The link dropped: forgets a partial message and any prepared answer (a retransmission starts afresh). */
  reset(): void {
    this.assembler.reset();
    this.prepared = [];
    this.lastSeq = null;
    this.lastAnswer = null;
  }

  private handleFrame(bytes: Uint8Array): Uint8Array[] {
    let frame: ReturnType<typeof decodeFrame>;
    try {
      frame = decodeFrame(bytes);
    } catch {
      this.assembler.reset();
      return this.remember(
        bytes[1] ?? 0,
        answerFrames(bytes[1] ?? 0, BlsyncResult.FrameError, undefined, versionOf(bytes)),
      );
    }
    if (frame.retry && this.lastSeq === frame.seq && this.lastAnswer) return [...this.lastAnswer];
    let message: ReturnType<BlsyncAssembler["push"]>;
    try {
      message = this.assembler.push(bytes);
    } catch {
      return this.remember(frame.seq, answerFrames(frame.seq, BlsyncResult.FrameError, undefined, frame.version));
    }
    // A fragment that does not end its message: an empty OK answer, as blsync_ble acks every frame.
    if (!message) return this.remember(frame.seq, answerFrames(frame.seq, BlsyncResult.Ok, undefined, frame.version));
    const { result, data } = message.ack ? { result: BlsyncResult.Error, data: undefined } : this.perform(message);
    return this.remember(frame.seq, answerFrames(frame.seq, result, data, frame.version));
  }

  private remember(seq: number, answer: Uint8Array[]): Uint8Array[] {
    this.lastSeq = seq;
    this.lastAnswer = answer;
    return [...answer];
  }

  private perform(message: { type: number; id: number; data: Uint8Array }): { result: number; data?: Uint8Array } {
    if (message.type === BlsyncFrameType.Data) {
      let text: string;
      try {
        text = fromUtf8(message.data);
      } catch {
        return { result: BlsyncResult.Error };
      }
      switch (message.id) {
        case BlsyncData.StaWifiSsid:
          if (message.data.length < 1 || message.data.length > BLSYNC_MAX_SSID_BYTES)
            return { result: BlsyncResult.Error };
          return { result: this.module.setSsid(text) };
        case BlsyncData.StaWifiPassword:
          if (message.data.length > BLSYNC_MAX_PASSWORD_BYTES) return { result: BlsyncResult.Error };
          return { result: this.module.setPassword(text) };
        default:
          return { result: BlsyncResult.Error };
      }
    }
    switch (message.id) {
      case BlsyncCommand.ConnectWifi:
        return { result: this.module.connectWifi() };
      case BlsyncCommand.DisconnectWifi:
        return { result: this.module.disconnectWifi() };
      case BlsyncCommand.GetVersion:
        return { result: BlsyncResult.Ok, data: BLSYNC_VERSION_ANSWER };
      case BlsyncCommand.WifiStateGet:
        return { result: BlsyncResult.Ok, data: encodeModuleWifiState(this.module.wifiState()) };
      case BlsyncCommand.ProvStop: {
        const result = this.module.stopProvisioning();
        if (result === BlsyncResult.Ok) this.stopped = true;
        return { result };
      }
      default:
        return { result: BlsyncResult.Error };
    }
  }
}

/** The layout version of a frame that could not be parsed (its ctrl bits 6–7), compact when not 0 or 1. */
function versionOf(bytes: Uint8Array): BlsyncVersion {
  const v = ((bytes[0] ?? 0) >> 6) & 0x03;
  return v === BlsyncVersion.Sdk ? BlsyncVersion.Sdk : BlsyncVersion.Compact;
}
