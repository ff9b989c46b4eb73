/**
 * What a setup-mode device reports (spec §3 setup states 0–4, spec §4 failure codes 1–8): its status, the names and
 * texts of states and failures, and the status as the Bluetooth Wi-Fi state answer (docs/device-protocol.md §13.2).
 */
import { BluetoothSetupState } from "@aquapilot/contract";
import { SdkWifiState, type TSdkWifiState, type TStatusExtension } from "@aquapilot/provisioning";

/** What a setup-mode device reports: its state, failure, addresses and (at state 4) the pairing code. */
export interface SetupStatus {
  /** Setup state 0–4 (spec §3). */
  state: BluetoothSetupState;
  /** Failure code 1–8 of spec §4 (old generation: 1 when the access point never came up), 0 none. */
  failure: number;
  /** The configured network, or "". */
  ssid: string;
  /** The module's address on that network once DHCP answered, else "". */
  ip: string;
  gw: string;
  mask: string;
  bssid: string;
  /** "MAC:TOKEN" from activation step two, once state 4 was reached; else null. A secret: never log it. */
  pairingCode: string | null;
}

/** Names of the setup states 0–4 (spec §3). */
export const SETUP_STATE_NAMES: readonly string[] = [
  "awaiting",
  "config received",
  "connecting to WiFi",
  "WiFi connected",
  "server connected",
];

/** Texts of the failure codes 1–8 (spec §4, Bluetooth flow; codes 5–8 also in the old flow's hello answer). */
export const SETUP_FAILURE_TEXTS: Readonly<Record<number, string>> = {
  1: "initialization failed",
  2: "connection timed out",
  3: "module connection to the access point timed out",
  4: "password issue with the module's connection to the router",
  5: "DNS resolution failed",
  6: "activation step one failed",
  7: "activation step two failed",
  8: "no server response on the persistent connection",
};

/**
 * The one-line text of a status, e.g. "state 2 connecting to WiFi", "failure 4 password issue …" or, at state 4
 * with a code, "state 4 server connected — pairing code issued" (the code itself is never part of it).
 */
export function describeSetupStatus(status: Pick<SetupStatus, "state" | "failure" | "pairingCode">): string {
  if (status.failure !== 0) return `failure ${status.failure} ${SETUP_FAILURE_TEXTS[status.failure] ?? ""}`.trim();
  const name = SETUP_STATE_NAMES[status.state] ?? "";
  if (status.state === BluetoothSetupState.ServerConnected && status.pairingCode) {
    return `state ${status.state} ${name} — pairing code issued`;
  }
  return `state ${status.state} ${name}`;
}

/** The status fields of a module that is on no network. */
export const OFF_NETWORK = { ip: "", gw: "", mask: "", bssid: "", pairingCode: null } as const;

/** What the SDK's state callback reports for a field the module does not have yet (lwIP's ip4addr_ntoa of 0). */
const NO_ADDRESS = "0.0.0.0";

/**
 * The Wi-Fi state answer of blsync_ble's CMD_WIFI_STATE_GET for `status`, as the SDK's example application fills it
 * (blsync_ble_app.c `wifiprov_api_state_get`): state 4 with an address, else 3; addresses "0.0.0.0" and the BSSID
 * all zeros until DHCP answered; the SSID of the configured network. Nothing about failures or the cloud.
 */
export function sdkWifiState(status: Readonly<SetupStatus>): TSdkWifiState {
  return {
    state: status.ip ? SdkWifiState.Address : SdkWifiState.NoAddress,
    ip: status.ip || NO_ADDRESS,
    gw: status.gw || NO_ADDRESS,
    mask: status.mask || NO_ADDRESS,
    ssid: status.ssid,
    bssid: status.bssid || "00:00:00:00:00:00",
  };
}

/**
 * The product firmware's status extension for `status` (docs/device-protocol.md §13.2): spec §3's state, spec §4's
 * failure and, at state 4 only, the pairing code.
 */
export function statusExtensionOf(status: Readonly<SetupStatus>): TStatusExtension {
  return {
    state: status.state,
    failure: status.failure,
    ...(status.pairingCode && status.state === BluetoothSetupState.ServerConnected
      ? { pairingCode: status.pairingCode }
      : {}),
  };
}
