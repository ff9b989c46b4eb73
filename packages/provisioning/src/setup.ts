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
 * The module's answer to "get Wi-Fi state" (blsync_ble.c CMD_WIFI_STATE_GET: state, ip, gw, mask, ssid, bssid),
 * sent as compact JSON; we add `failure` (a {@link BleSetupFailure}, 0 none) and, once the state is
 * {@link BluetoothSetupState.ServerConnected}, `pairingCode` ("MAC:TOKEN", single use, expiring) for the app's binding
 * call. Addresses are empty until the module has joined the network.
 */
export const ZModuleWifiState = z.object({
  state: z.number().int().min(0).max(4),
  ip: z.string().max(15),
  gw: z.string().max(15),
  mask: z.string().max(15),
  ssid: z.string().max(32),
  bssid: z.string().max(17),
  failure: z.number().int().min(0).max(8).default(0),
  pairingCode: z.string().min(3).max(256).optional(),
});
export type TModuleWifiState = z.output<typeof ZModuleWifiState>;

/** The JSON bytes of a Wi-Fi state answer (compact, as cJSON_PrintUnformatted writes it). */
export function encodeModuleWifiState(state: TModuleWifiState): Uint8Array {
  return utf8(JSON.stringify(state));
}

/**
 * Parses a Wi-Fi state answer.
 * @throws TypeError when the bytes are not UTF-8; SyntaxError when not JSON; ZodError when a field is missing or out
 *   of range.
 */
export function decodeModuleWifiState(bytes: Uint8Array): TModuleWifiState {
  const text = fromUtf8(bytes).replace(/\0+$/, "");
  return ZModuleWifiState.parse(JSON.parse(text));
}
