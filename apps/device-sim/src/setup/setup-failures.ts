/**
 * The failures of spec §4 that a setup-mode device can be told to provoke (CLI `--fail <name>`), what each flow then
 * reports, and how the simulator provokes each (docs/device-sim.md §13.2, docs/device-protocol.md §13). The codes are
 * `@aquapilot/provisioning`'s.
 */
import { BleSetupFailure, SmartSetupFailure } from "@aquapilot/provisioning";

/** The module generation: "new" (after 2024, Bluetooth) or "old" (2024 and before, access point and UDP). */
export type SetupGeneration = "new" | "old";

/**
 * What runs on the Wi-Fi module: `stock` is Bouffalo Lab's SDK component as shipped plus only the product's small
 * handler (it receives the phone's setup ticket and reports nothing beyond the SDK's own status); `product` is the
 * product's firmware, which also reports the cloud's pairing code and the failure reason to the phone
 * (docs/device-protocol.md §13).
 */
export type ModuleFirmware = "stock" | "product";

/** The failures a setup-mode device can be told to provoke (CLI `--fail <name>`); see {@link SETUP_FAILURES}. */
export type SetupFailureName =
  | "init"
  | "timeout"
  | "ap-timeout"
  | "password"
  | "dns"
  | "activation-1"
  | "activation-2"
  | "no-server-response"
  | "not-found"
  | "server";

/** One provokable failure: where it applies, what each flow then reports, and how the simulator provokes it. */
export interface SetupFailureInfo {
  name: SetupFailureName;
  /** The generations it applies to. */
  generations: readonly SetupGeneration[];
  /** New generation: the failure code the module reports in its Wi-Fi state answer (spec §4), or null. */
  bleFailure: BleSetupFailure | null;
  /** Old generation: the failure the app concludes (spec §4 smart flow), or null. */
  smartFailure: SmartSetupFailure | null;
  /** Old generation: the failure code in the module's hello answer (cloud state 3), or null when none is sent. */
  cloudFailure: number | null;
  /** How the simulator provokes it (printed by `--help`, written in docs/device-sim.md). */
  provoked: string;
}

/** Every failure of spec §4 and how the setup-mode device provokes it (docs/device-sim.md "Setup mode"). */
export const SETUP_FAILURES: readonly SetupFailureInfo[] = [
  {
    name: "init",
    generations: ["new", "old"],
    bleFailure: BleSetupFailure.InitializationFailed,
    smartFailure: SmartSetupFailure.InitializationFailed,
    cloudFailure: null,
    provoked:
      "new: the Wi-Fi stack does not start, failure 1 at once after CONNECT_WIFI; old: the access point never comes up (its UDP socket is not opened)",
  },
  {
    name: "timeout",
    generations: ["new", "old"],
    bleFailure: BleSetupFailure.ConnectionTimedOut,
    smartFailure: SmartSetupFailure.ConnectionTimedOut,
    cloudFailure: null,
    provoked:
      "new: stalls after 'connecting to WiFi' and reports failure 2 at the module deadline; old: the module ignores join packets (no acknowledgement)",
  },
  {
    name: "ap-timeout",
    generations: ["new", "old"],
    bleFailure: BleSetupFailure.AccessPointTimeout,
    smartFailure: SmartSetupFailure.DeviceNotFound,
    cloudFailure: null,
    provoked:
      "the radio sees no network: no access point answers within the AP-scan timeout (an unknown or 5 GHz-only network does this on its own)",
  },
  {
    name: "password",
    generations: ["new", "old"],
    bleFailure: BleSetupFailure.RouterPassword,
    smartFailure: SmartSetupFailure.DeviceNotFound,
    cloudFailure: null,
    provoked: "the router refuses every key (a wrong password does this on its own)",
  },
  {
    name: "dns",
    generations: ["new", "old"],
    bleFailure: BleSetupFailure.DnsResolutionFailed,
    smartFailure: SmartSetupFailure.ServerConnectionFailed,
    cloudFailure: BleSetupFailure.DnsResolutionFailed,
    provoked: "the router's DNS answers nothing: the cloud's host name does not resolve within the DNS timeout",
  },
  {
    name: "activation-1",
    generations: ["new", "old"],
    bleFailure: BleSetupFailure.ActivationStepOneFailed,
    smartFailure: SmartSetupFailure.ServerConnectionFailed,
    cloudFailure: BleSetupFailure.ActivationStepOneFailed,
    provoked: "the device was never registered at the factory: the real cloud answers step one with 404 unknown-device",
  },
  {
    name: "activation-2",
    generations: ["new", "old"],
    bleFailure: BleSetupFailure.ActivationStepTwoFailed,
    smartFailure: SmartSetupFailure.ServerConnectionFailed,
    cloudFailure: BleSetupFailure.ActivationStepTwoFailed,
    provoked:
      "the device presents a corrupted copy of its secret: the real cloud answers step two with 401 bad-credentials",
  },
  {
    name: "no-server-response",
    generations: ["new", "old"],
    bleFailure: BleSetupFailure.NoServerResponse,
    smartFailure: SmartSetupFailure.ServerConnectionFailed,
    cloudFailure: BleSetupFailure.NoServerResponse,
    provoked:
      "the router drops MQTT: the device connects to a local TCP listener that accepts and never answers, so the MQTT client waits for CONNACK in vain",
  },
  {
    name: "not-found",
    generations: ["old"],
    bleFailure: null,
    smartFailure: SmartSetupFailure.DeviceNotFound,
    cloudFailure: null,
    provoked: "the module joins the home network but never answers hello there",
  },
  {
    name: "server",
    generations: ["old"],
    bleFailure: null,
    smartFailure: SmartSetupFailure.ServerConnectionFailed,
    cloudFailure: BleSetupFailure.DnsResolutionFailed,
    provoked: "the cloud part fails (the router's DNS answers nothing): cloud state 3 with failure code 5",
  },
];

/**
 * The entry of {@link SETUP_FAILURES} named `name` (a CLI `--fail` value).
 * @throws RangeError for an unknown name (the message lists the known ones).
 */
export function setupFailureInfo(name: string): SetupFailureInfo {
  const info = SETUP_FAILURES.find((f) => f.name === name);
  if (!info) throw new RangeError(`unknown failure "${name}" (one of ${SETUP_FAILURES.map((f) => f.name).join(", ")})`);
  return info;
}
