/**
 * What the two network-setup flows of spec §4 report: the module's Wi-Fi state answer (Bluetooth flow), the failure
 * codes of both flows, the progress steps, and the module names (docs/device-protocol.md §13).
 */

import { BluetoothSetupState } from "@aquapilot/contract";
import { z } from "zod";
import { fromUtf8, utf8 } from "./bytes.ts";

/**
 * Failures of the Bluetooth flow (spec §4), in the order the module meets them; the module reports the code in its
 * Wi-Fi state answer (`failure`, 0 = none).
 */
export const BleSetupFailure = {
  /** The module's Wi-Fi or cloud stack did not start. */
  InitializationFailed: 1,
  /** The module gave up before the whole connection was made (its overall deadline). */
  ConnectionTimedOut: 2,
  /** No access point of that name answered on 2.4 GHz (unknown name, out of range, or a 5 GHz-only network). */
  AccessPointTimeout: 3,
  /** The router refused the key: a wrong password. */
  RouterPassword: 4,
  /** The cloud's host name did not resolve through the router's DNS. */
  DnsResolutionFailed: 5,
  /** Activation step one (the cloud announces the device's broker) was refused or failed. */
  ActivationStepOneFailed: 6,
  /** Activation step two (the device proves its factory secret, the cloud issues a pairing code) failed. */
  ActivationStepTwoFailed: 7,
  /** The MQTT connection got no CONNACK in time. */
  NoServerResponse: 8,
} as const;
export type BleSetupFailure = (typeof BleSetupFailure)[keyof typeof BleSetupFailure];
/** Every Bluetooth failure code, in order. */
export const BLE_SETUP_FAILURES: readonly BleSetupFailure[] = [1, 2, 3, 4, 5, 6, 7, 8];

/** Failures of the smart (old, access point) flow (spec §4), decided by the app. */
export const SmartSetupFailure = {
  InitializationFailed: 1,
  ConnectionTimedOut: 2,
  DeviceNotFound: 3,
  ServerConnectionFailed: 4,
} as const;
export type SmartSetupFailure = (typeof SmartSetupFailure)[keyof typeof SmartSetupFailure];
/** Every smart-flow failure code, in order. */
export const SMART_SETUP_FAILURES: readonly SmartSetupFailure[] = [1, 2, 3, 4];

/** Progress steps of the Bluetooth flow (spec §4). */
export const BLE_SETUP_STEPS = ["starting", "adding", "added"] as const;
export type BleSetupStep = (typeof BLE_SETUP_STEPS)[number];
/** Progress steps of the smart flow (spec §4), then "added" (Device added successfully) as for Bluetooth. */
export const SMART_SETUP_STEPS = [
  "starting",
  "searching",
  "wifiConnected",
  "connectingServer",
  "adding",
  "added",
] as const;
export type SmartSetupStep = (typeof SMART_SETUP_STEPS)[number];

/** Bluetooth name prefix of a new module in setup mode; the full name ends with the MAC's last four hex digits. */
export const BLE_NAME_PREFIX = "WiFi-BL3372-";
/** Access point name of an old module in setup mode. */
export const SETUP_AP_SSID = "WiFi-BL3372";

/** The Bluetooth name of a new module: "WiFi-BL3372-" and the last four hex digits of its MAC (any separators). */
export function moduleBluetoothName(mac: string): string {
  const hex = mac.replace(/[^0-9a-fA-F]/g, "").toUpperCase();
  return `${BLE_NAME_PREFIX}${hex.slice(-4)}`;
}

/**
 * The Wi-Fi state numbers in the module's state answer. blsync_ble.c copies `state` from the application's
 * `local_wifi_state_get` callback; the SDK's example application (blsync_ble_app.c `wifiprov_api_state_get`)
 * reports 3 while the station has no IPv4 address and 4 once it has one, and nothing else. A module says nothing
 * about the cloud in it: spec §3's state 4 comes from the product's status extension or from the cloud.
 */
export const SdkWifiState = { NoAddress: 3, Address: 4 } as const;
export type SdkWifiState = (typeof SdkWifiState)[keyof typeof SdkWifiState];

/**
 * The module's answer to "get Wi-Fi state" (blsync_ble.c CMD_WIFI_STATE_GET): `state` (any number the application
 * reports, {@link SdkWifiState} for the SDK's example), `ip`, `gw`, `mask` (dotted quads, "0.0.0.0" without an
 * address), `ssid` (the associated network, up to 32 bytes) and `bssid` ("AA:BB:CC:DD:EE:FF").
 */
export const ZSdkWifiState = z.object({
  state: z.number().int().min(0).max(255),
  ip: z.string().max(15),
  gw: z.string().max(15),
  mask: z.string().max(15),
  ssid: z.string().refine((v) => utf8(v).length <= 32, "ssid longer than 32 bytes"),
  bssid: z.string().max(17),
});
export type TSdkWifiState = z.output<typeof ZSdkWifiState>;

/**
 * The bytes of a Wi-Fi state answer as blsync_ble.c writes them: cJSON_Print() of the six fields in the SDK's
 * order, one per line, indented by a tab, a tab after each colon, no NUL. cJSON escapes `"`, `\` and control
 * characters as JSON.stringify does and passes other UTF-8 through.
 */
export function encodeSdkWifiState(state: TSdkWifiState): Uint8Array {
  const fields: Array<[string, string]> = [
    ["state", String(state.state)],
    ["ip", JSON.stringify(state.ip)],
    ["gw", JSON.stringify(state.gw)],
    ["mask", JSON.stringify(state.mask)],
    ["ssid", JSON.stringify(state.ssid)],
    ["bssid", JSON.stringify(state.bssid)],
  ];
  return utf8(`{\n${fields.map(([k, v]) => `\t"${k}":\t${v}`).join(",\n")}\n}`);
}

/**
 * Parses a Wi-Fi state answer (indented or compact JSON; trailing NULs dropped).
 * @throws TypeError when the bytes are not UTF-8; SyntaxError when not JSON; ZodError when a field is missing or out
 *   of range.
 */
export function decodeSdkWifiState(bytes: Uint8Array): TSdkWifiState {
  const text = fromUtf8(bytes).replace(/\0+$/, "");
  return ZSdkWifiState.parse(JSON.parse(text));
}

/**
 * Spec §3's state for a Wi-Fi state answer: an address (state {@link SdkWifiState.Address}) is "WiFi connected"
 * (3); without one the module is "connecting to WiFi" (2) once the phone sent CONNECT_WIFI, else it holds the
 * configuration ("config received", 1).
 */
export function setupStateOfSdk(state: TSdkWifiState, connectSent: boolean): BluetoothSetupState {
  if (state.state === SdkWifiState.Address) return BluetoothSetupState.WifiConnected;
  return connectSent ? BluetoothSetupState.ConnectingToWifi : BluetoothSetupState.ConfigReceived;
}

/**
 * The product's messages inside DATA_CUSTOM_DATA (transfer.h 0x13), which the SDK's layers pass to the
 * application's handler untouched; the first byte says which. A module whose handler does not know a tag answers
 * the SDK's PRO_ERROR (2).
 * - `SetupTicket`: phone → module, followed by the one-time setup ticket (22 base64url characters); the module
 *   presents it when it activates, so the cloud can tell the phone that set it up the outcome.
 * - `StatusExtension`: phone → module, nothing follows; the product's firmware answers {@link ZStatusExtension}.
 */
export const SetupCustomTag = { SetupTicket: 0x01, StatusExtension: 0x02 } as const;
export type SetupCustomTag = (typeof SetupCustomTag)[keyof typeof SetupCustomTag];

/** A setup ticket: 22 base64url characters (128 random bits). */
export const SETUP_TICKET_PATTERN = /^[A-Za-z0-9_-]{22}$/;

/** The custom-data bytes carrying a setup ticket. @throws RangeError when `ticket` is not a setup ticket. */
export function setupTicketData(ticket: string): Uint8Array {
  if (!SETUP_TICKET_PATTERN.test(ticket)) throw new RangeError("not a setup ticket");
  const bytes = new Uint8Array(1 + ticket.length);
  bytes[0] = SetupCustomTag.SetupTicket;
  bytes.set(utf8(ticket), 1);
  return bytes;
}

/** The custom-data bytes asking for the status extension. */
export function statusExtensionRequest(): Uint8Array {
  return new Uint8Array([SetupCustomTag.StatusExtension]);
}

/**
 * What a custom-data message asks (module side): the setup ticket it carries, the status extension, or null for
 * anything else (a tag the handler does not know, a malformed ticket).
 */
export function parseSetupCustomData(
  data: Uint8Array,
): { tag: "ticket"; ticket: string } | { tag: "status-extension" } | null {
  if (data.length === 1 && data[0] === SetupCustomTag.StatusExtension) return { tag: "status-extension" };
  if (data[0] !== SetupCustomTag.SetupTicket) return null;
  let ticket: string;
  try {
    ticket = fromUtf8(data.subarray(1));
  } catch {
    return null;
  }
  return SETUP_TICKET_PATTERN.test(ticket) ? { tag: "ticket", ticket } : null;
}

/**
 * The product firmware's status extension (compact JSON, at most 255 bytes as every answer): spec §3's `state`
 * 0–4, the spec §4 `failure` code ({@link BleSetupFailure}, 0 none) and, at state 4, the cloud's single-use
 * `pairingCode` ("MAC:TOKEN").
 */
export const ZStatusExtension = z.object({
  state: z.number().int().min(0).max(4),
  failure: z.number().int().min(0).max(8),
  pairingCode: z.string().min(3).max(200).optional(),
});
export type TStatusExtension = z.output<typeof ZStatusExtension>;

/** The bytes of a status extension answer (compact JSON). */
export function encodeStatusExtension(extension: TStatusExtension): Uint8Array {
  return utf8(JSON.stringify(extension));
}

/**
 * Parses a status extension answer.
 * @throws TypeError when the bytes are not UTF-8; SyntaxError when not JSON; ZodError when a field is missing or out
 *   of range.
 */
export function decodeStatusExtension(bytes: Uint8Array): TStatusExtension {
  return ZStatusExtension.parse(JSON.parse(fromUtf8(bytes)));
}
