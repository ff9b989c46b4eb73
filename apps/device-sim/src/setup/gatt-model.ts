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
  BLSYNC_MAX_FRAME,
  BLSYNC_MAX_PASSWORD_BYTES,
  BLSYNC_MAX_SSID_BYTES,
  BLSYNC_READ_UUID,
  BLSYNC_VERSION,
  BLSYNC_WRITE_UUID,
  BlsyncCommand,
  BlsyncData,
  BlsyncFrameType,
  BlsyncReceiver,
  BlsyncResult,
  encodeSdkWifiState,
  encodeStatusExtension,
  fromUtf8,
  parseSetupCustomData,
  type TSdkWifiState,
  type TStatusExtension,
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
 * What the module behind the GATT service does with each request: blsync_ble.c's `__recv_event` calls the
 * application's `blesync_wifi_func` callbacks, and the product's small handler takes DATA_CUSTOM_DATA
 * (docs/device-protocol.md §13.2). Each method returns a {@link BlsyncResult} code (0 OK, 1 not ready, 2 error) that
 * becomes the answer's id.
 */
export interface BlsyncModule {
  /** Stores the Wi-Fi name (1–32 bytes of UTF-8, already checked): state 1, failure 0. */
  setSsid(ssid: string): number;
  /** Stores the Wi-Fi password (0–64 bytes of UTF-8, already checked): state 1, failure 0. */
  setPassword(password: string): number;
  /** CONNECT_WIFI (`local_connect_remote_ap`): starts joining the stored network (2 without an SSID). */
  connectWifi(): number;
  /** DISCONNECT_WIFI (`local_disconnect_remote_ap`): aborts an attempt (or leaves the network), back to state 1. */
  disconnectWifi(): number;
  /** WIFI_STATE_GET (`local_wifi_state_get`): the six fields blsync_ble.c prints. */
  wifiState(): TSdkWifiState;
  /** The product's handler: the phone's one-time setup ticket (both firmwares keep it for activation). */
  setupTicket(ticket: string): number;
  /** The product's handler: the status extension, or null when the firmware has none (stock: answered with 2). */
  statusExtension(): TStatusExtension | null;
  /** PROV_STOP (`complete_cb`): setup is over; the module stops advertising and drops the link once read. */
  stopProvisioning(): number;
  /** The SDK's transfer layer crashed on a frame (a NULL or out-of-bounds write): the module restarts. */
  crashed(reason: string): void;
}

/** The result of a GATT write: an ATT code (0 success); `crash` when the frame crashed the module's SDK. */
export interface GattWriteResult {
  code: number;
  crash?: boolean;
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
 * bl_iot_sdk blsync_ble.c `write_data` / `read_data` / `__recv_event`, transfer.c):
 *
 * - Every frame written to {@link BLSYNC_WRITE_UUID} goes through {@link BlsyncReceiver} (the SDK's transfer,
 *   encryption and payload layers step by step) and, unless it carries the ack bit, is answered: the answer's frames
 *   are prepared in the read buffer and read one per GATT read of {@link BLSYNC_READ_UUID}. A write before the
 *   previous answer was read replaces it; a read with nothing prepared fails with ATT 0x04.
 * - A fragment that does not end its message gets an empty OK answer; a frame the SDK cannot parse 0xfe
 *   (−PRO_ERROR), whatever its version bits; the retry bit changes nothing (the SDK does not recognise a
 *   retransmission). A frame that would make the SDK write through NULL or past its buffer (a fragment sent again,
 *   a new message over a half-received one) crashes the module: the write reports `crash` and the link drops.
 * - Answers are split to {@link mtu} bytes per frame; data over 255 bytes is dropped (an empty answer), as the SDK
 *   drops it.
 *
 * Commands handled as blsync_ble.c does: CONNECT_WIFI, DISCONNECT_WIFI, GET_VERSION ("v1.1.0\0"), WIFI_STATE_GET
 * (cJSON_Print of the six fields), PROV_STOP; data: station BSSID (ignored), SSID (1–32 bytes UTF-8), password (0–64
 * bytes UTF-8), and DATA_CUSTOM_DATA for the product's handler (setup ticket; status extension). Scanning
 * (WIFI_SCAN, WIFI_DATA_GET) is not modelled and answered with 2 like an unknown command.
 */
export class BlsyncGattModel {
  /** The bytes per answer frame: the negotiated ATT MTU less 3 (20 with the default MTU). */
  readonly mtu: number;
  private readonly receiver = new BlsyncReceiver();
  private prepared: Uint8Array[] = [];
  private stopped = false;

  private readonly module: BlsyncModule;
  /**
   * @param module what the requests mean (the setup-mode device).
   * @param mtu bytes per answer frame (default 20).
   */
  constructor(module: BlsyncModule, mtu = BLSYNC_MAX_FRAME) {
    this.module = module;
    this.mtu = mtu;
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
   * A GATT write of `value` (one frame) to `characteristicUuid` (any case).
   * @returns code 0 when the write was taken (even when the frame was malformed: the answer then carries 0xfe; with
   *   `crash` when it crashed the module), 0x03 for the read characteristic, 0x0A for a UUID the service does not
   *   have.
   */
  write(characteristicUuid: string, value: Uint8Array): GattWriteResult {
    if (sameUuid(characteristicUuid, BLSYNC_READ_UUID)) return { code: AttError.WriteNotPermitted };
    if (!sameUuid(characteristicUuid, BLSYNC_WRITE_UUID)) return { code: AttError.AttributeNotFound };
    const received = this.receiver.receive(value);
    if (received.kind === "crash") {
      this.reset();
      this.module.crashed(received.reason);
      return { code: AttError.Success, crash: true };
    }
    if (!received.answer) {
      this.prepared = [];
      return { code: AttError.Success };
    }
    const { result, data } =
      received.kind === "refused"
        ? { result: BlsyncResult.FrameError, data: undefined }
        : received.kind === "fragment"
          ? { result: BlsyncResult.Ok, data: undefined }
          : this.perform(received);
    this.prepared = answerFrames(received.seq, result, data, this.mtu);
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

  /**
   * The link dropped (or the module restarted): forgets any prepared answer and a half-received message (the SDK's
   * task does so after PRO_CONFIG_TIMEOUT without a frame).
   */
  reset(): void {
    this.receiver.clear();
    this.prepared = [];
  }

  private perform(message: { type: number; id: number; data: Uint8Array }): { result: number; data?: Uint8Array } {
    if (message.type === BlsyncFrameType.Data) {
      if (message.id === BlsyncData.StaWifiBssid) return { result: BlsyncResult.Ok };
      if (message.id === BlsyncData.CustomData) return this.custom(message.data);
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
        return { result: BlsyncResult.Ok, data: encodeSdkWifiState(this.module.wifiState()) };
      case BlsyncCommand.ProvStop: {
        const result = this.module.stopProvisioning();
        if (result === BlsyncResult.Ok) this.stopped = true;
        return { result };
      }
      default:
        return { result: BlsyncResult.Error };
    }
  }

  /** The product's handler of DATA_CUSTOM_DATA; an unknown tag is answered with 2. */
  private custom(data: Uint8Array): { result: number; data?: Uint8Array } {
    const asked = parseSetupCustomData(data);
    if (asked?.tag === "ticket") return { result: this.module.setupTicket(asked.ticket) };
    if (asked?.tag === "status-extension") {
      const extension = this.module.statusExtension();
      if (!extension) return { result: BlsyncResult.Error };
      return { result: BlsyncResult.Ok, data: encodeStatusExtension(extension) };
    }
    return { result: BlsyncResult.Error };
  }
}
