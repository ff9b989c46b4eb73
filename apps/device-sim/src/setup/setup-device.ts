/**
 * A brand-new softener in network-setup mode (docs/device-protocol.md §13, docs/device-sim.md "Setup mode"):
 * an unprovisioned WIFI-BL3372 module that the app puts onto the owner's Wi-Fi, over Bluetooth (new generation,
 * §13.2) or over its access point and UDP (old generation, §13.3). It walks the setup states honestly against a
 * simulated neighbourhood of networks, activates itself with the real cloud over HTTP (§13.4), opens its persistent
 * MQTT connection with its own credentials and from then on is a {@link SimulatedDevice} like every other.
 */
import dgram from "node:dgram";
import dns from "node:dns";
import { EventEmitter } from "node:events";
import net from "node:net";
import {
  ACTIVATION_PATHS,
  BluetoothSetupState,
  normaliseMac,
  ZActivationBeginResult,
  ZActivationCompleteResult,
  ZActivationError,
} from "@aquapilot/contract";
import {
  BL3372_DEVICE_TYPE,
  BleSetupFailure,
  BroadlinkPacketKind,
  CloudState,
  decodeHelloPacket,
  decodeJoinPacket,
  encodeHelloAnswer,
  encodeJoinAck,
  moduleBluetoothName,
  SETUP_AP_ADDRESS,
  SETUP_AP_SSID,
  SmartSetupFailure,
  type TModuleWifiState,
} from "@aquapilot/provisioning";
import { SimulatedDevice, type SimulatedDeviceOptions } from "../device.ts";
import { registerAtFactory } from "../factory.ts";
import { type DeviceIdentity, generateDeviceIdentity } from "../fleet.ts";
import { BlsyncGattModel, type BlsyncModule, bluetoothAddressOf } from "./gatt-model.ts";
import {
  addressOn,
  findNetwork,
  NEIGHBOURHOOD,
  SIM_HOST,
  SIM_NETMASK,
  type SimNetwork,
  sameSubnet,
} from "./neighbourhood.ts";

/** The module generation: "new" (after 2024, Bluetooth) or "old" (2024 and before, access point and UDP). */
export type SetupGeneration = "new" | "old";

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
 * Every delay of the setup walk, real milliseconds (docs/device-protocol.md §13.2 table and §13.3; defaults in
 * {@link DEFAULT_SETUP_TIMING}).
 */
export interface SetupTiming {
  /** From CONNECT (or the AP closing) to associated with an access point. */
  association: number;
  /** From CONNECT until "no access point answered" (failure 3). */
  apScanTimeout: number;
  /** From association until the router refuses a wrong key (failure 4). */
  passwordReject: number;
  /** From association with the right key until DHCP gave an address (state 3). */
  dhcp: number;
  /** How long the module waits for the router's DNS answer (failure 5). */
  dnsTimeout: number;
  /** How long each activation HTTP call may take before it counts as failed (failure 6 / 7). */
  httpTimeout: number;
  /** From MQTT CONNECT until "no server response" (failure 8). */
  connackTimeout: number;
  /** New generation: the whole connection must be made within this from CONNECT, else failure 2. */
  moduleDeadline: number;
  /** Old generation: the access point closes this long after acknowledging a join packet. */
  apCloseAfterAck: number;
  /** Old generation: after a failed join the module reopens its access point this long after the failure. */
  apReopenAfterFailedJoin: number;
}

/** The simulator's default timings (docs/device-protocol.md §13.2/§13.3), real ms. */
export const DEFAULT_SETUP_TIMING: Readonly<SetupTiming> = {
  association: 1500,
  apScanTimeout: 5000,
  passwordReject: 2500,
  dhcp: 500,
  dnsTimeout: 3000,
  httpTimeout: 10_000,
  connackTimeout: 8000,
  moduleDeadline: 45_000,
  apCloseAfterAck: 500,
  apReopenAfterFailedJoin: 10_000,
};

/** Default loopback UDP port of the old module's access point side (SIM_AP_UDP_PORT, §13.6). */
export const DEFAULT_AP_UDP_PORT = 48880;
/** Default loopback UDP port of the old module's home-network side (SIM_LAN_UDP_PORT, §13.6). */
export const DEFAULT_LAN_UDP_PORT = 48881;

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

/** Options of {@link SetupModeDevice}. */
export interface SetupModeDeviceOptions {
  generation: SetupGeneration;
  /** A failure to provoke (must apply to `generation`). */
  failure?: SetupFailureName;
  /** The factory identity (default: a fresh {@link generateDeviceIdentity}). */
  identity?: DeviceIdentity;
  /** The cloud's base URL for activation and the factory, e.g. http://127.0.0.1:8080. */
  serverUrl: string;
  /**
   * Register the identity with `POST /dev/factory/devices` at `serverUrl` in start() (default true). Never done with
   * failure "activation-1": the cloud must not know the device.
   */
  register?: boolean;
  /** Networks in range (default {@link NEIGHBOURHOOD}). */
  networks?: readonly SimNetwork[];
  /** Delays, real ms (defaults {@link DEFAULT_SETUP_TIMING}). */
  timing?: Partial<SetupTiming>;
  /** Old generation: loopback UDP port of the access point side (default 48880; 0 = a free port). */
  apPort?: number;
  /** Old generation: loopback UDP port of the home-network side (default 48881; 0 = a free port). */
  lanPort?: number;
  /** Simulated seconds per real second of the softener it becomes (default 1). */
  timeScale?: number;
  /** Other options of the softener it becomes (household, settings, tick and report intervals, …). */
  softener?: Partial<
    Omit<
      SimulatedDeviceOptions,
      "brokerUrl" | "mac" | "secret" | "model" | "serialNumber" | "deviceSerialNumber" | "timeScale"
    >
  >;
  /** Diagnostics (never secrets, passwords, nonces or pairing codes). */
  log?: (message: string) => void;
}

/** The one-line text of a status, e.g. "state 2 connecting to WiFi" or "failure 4 password issue …". */
export function describeSetupStatus(status: Pick<SetupStatus, "state" | "failure" | "pairingCode">): string {
  if (status.failure !== 0) return `failure ${status.failure} ${SETUP_FAILURE_TEXTS[status.failure] ?? ""}`.trim();
  const name = SETUP_STATE_NAMES[status.state] ?? "";
  if (status.state === BluetoothSetupState.ServerConnected && status.pairingCode) {
    return `state ${status.state} ${name} — pairing code issued`;
  }
  return `state ${status.state} ${name}`;
}

/** The info of failure `name`. @throws RangeError for an unknown name. */
export function setupFailureInfo(name: string): SetupFailureInfo {
  const info = SETUP_FAILURES.find((f) => f.name === name);
  if (!info) throw new RangeError(`unknown failure "${name}" (one of ${SETUP_FAILURES.map((f) => f.name).join(", ")})`);
  return info;
}

/** The status fields of a module that is on no network. */
const OFF_NETWORK = { ip: "", gw: "", mask: "", bssid: "", pairingCode: null } as const;

const BASE64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/** A copy of `secret` with every character changed (failure "activation-2"). */
function corrupted(secret: string): string {
  return Array.from(secret, (c) => BASE64URL[(BASE64URL.indexOf(c) + 1) % BASE64URL.length]).join("");
}

/**
 * A new, unprovisioned softener in setup mode (docs/device-protocol.md §13; docs/device-sim.md "Setup mode").
 *
 * - New generation: {@link gatt} answers the Bluetooth provisioning protocol (attach it to a radio with
 *   `attachBluetoothPeripheral`).
 * - Old generation: UDP on 127.0.0.1: the access point side ({@link apPort}) answers hello with cloud state 0 and
 *   acknowledges join packets, closes 0.5 s later and the module joins the network; the home-network side
 *   ({@link lanPort}) then answers hello from the module's own subnet with cloud state 1, 2 (with the pairing code) or
 *   3 (with the failure code). After a failed join the access point reopens after 10 s.
 *
 * Both walk the states of §13.2 against {@link SetupModeDeviceOptions.networks}: association, DHCP (`.57`), a real DNS
 * lookup of the cloud's host, activation steps one and two over real HTTP, and a real MQTT connection with the
 * device's own MAC and secret to the broker step one named. State 4 comes only after CONNACK; the device then runs
 * as a {@link SimulatedDevice} ({@link softener}) until {@link stop}.
 *
 * Emits "state" ({@link SetupStatus}) on every change of state, failure, address or pairing code, "online"
 * (SimulatedDevice) when the persistent connection is up, and "provisioning-stopped" after PROV_STOP.
 */
export class SetupModeDevice extends EventEmitter implements BlsyncModule {
  /** The generation of its Wi-Fi module. */
  readonly generation: SetupGeneration;
  /** The failure it provokes, or null. */
  readonly failureName: SetupFailureName | null;
  /** Its factory identity (the secret is in there: never print it). */
  readonly identity: DeviceIdentity;
  private readonly opts: SetupModeDeviceOptions;
  private readonly timing: SetupTiming;
  private readonly networks: readonly SimNetwork[];
  private readonly gattModel: BlsyncGattModel | null;
  private status: SetupStatus = {
    state: 0,
    failure: 0,
    ssid: "",
    ip: "",
    gw: "",
    mask: "",
    bssid: "",
    pairingCode: null,
  };
  private password: string | null = null;
  private started = false;
  private stopped = false;
  private attempt = 0;
  private controller = new AbortController();
  private readonly timers = new Set<NodeJS.Timeout>();
  private deadline: NodeJS.Timeout | null = null;
  private candidate: SimulatedDevice | null = null;
  private online: SimulatedDevice | null = null;
  private stall: { server: net.Server; sockets: Set<net.Socket> } | null = null;
  private ap: dgram.Socket | null = null;
  private lan: dgram.Socket | null = null;
  private apBoundPort: number | null = null;
  private lanBoundPort: number | null = null;
  private joinPending = false;
  private readonly pending = new Set<Promise<unknown>>();

  /**
   * @param options generation, failure, identity, cloud URL and the rest of {@link SetupModeDeviceOptions}.
   * @throws RangeError for an unknown failure name or one that does not apply to the generation.
   */
  constructor(options: SetupModeDeviceOptions) {
    super();
    if (options.generation !== "new" && options.generation !== "old") {
      throw new RangeError(`generation must be "new" or "old", not "${options.generation}"`);
    }
    if (options.failure !== undefined) {
      const info = setupFailureInfo(options.failure);
      if (!info.generations.includes(options.generation)) {
        throw new RangeError(`failure "${options.failure}" does not apply to the ${options.generation} generation`);
      }
    }
    this.opts = options;
    this.generation = options.generation;
    this.failureName = options.failure ?? null;
    this.identity = options.identity ?? generateDeviceIdentity();
    this.timing = { ...DEFAULT_SETUP_TIMING, ...options.timing };
    this.networks = options.networks ?? NEIGHBOURHOOD;
    this.gattModel = this.generation === "new" ? new BlsyncGattModel(this) : null;
  }

  /** What the box shows: "WiFi-BL3372-XXXX" (Bluetooth name, new) or "WiFi-BL3372" (access point, old). */
  get name(): string {
    return this.generation === "new" ? moduleBluetoothName(this.identity.mac) : SETUP_AP_SSID;
  }

  /** The Wi-Fi MAC, 12 upper-case hex digits. */
  get mac(): string {
    return normaliseMac(this.identity.mac);
  }

  /** The BLE address (new generation): the MAC with 1 added to its last octet, "AA:BB:CC:DD:EE:FF". */
  get bluetoothAddress(): string {
    return bluetoothAddressOf(this.identity.mac);
  }

  /** Current setup state 0–4 (spec §3). */
  get state(): BluetoothSetupState {
    return this.status.state;
  }

  /** Current failure code (spec §4), 0 none. */
  get failure(): number {
    return this.status.failure;
  }

  /** The pairing code "MAC:TOKEN" once state 4 was reached, else null. */
  get pairingCode(): string | null {
    return this.status.pairingCode;
  }

  /** A copy of the whole status. */
  get setupStatus(): SetupStatus {
    return { ...this.status };
  }

  /** The Bluetooth provisioning service (new generation). @throws Error for the old generation. */
  get gatt(): BlsyncGattModel {
    if (!this.gattModel) throw new Error("the old generation has no Bluetooth provisioning service");
    return this.gattModel;
  }

  /** The softener it became once online (state 4), else null. */
  get softener(): SimulatedDevice | null {
    return this.online;
  }

  /** Old generation: the access point's UDP port once bound (also while the access point is closed), else null. */
  get apPort(): number | null {
    return this.apBoundPort;
  }

  /** Old generation: whether the access point is up. */
  get apOpen(): boolean {
    return this.ap !== null;
  }

  /** Old generation: the home-network side's UDP port once bound, else null. */
  get lanPort(): number | null {
    return this.lanBoundPort;
  }

  /**
   * Enters setup mode: registers the identity at the factory (unless `register: false` or failure "activation-1"),
   * and for the old generation opens the access point (unless failure "init") and the home-network side on
   * 127.0.0.1. Emits "state" with state 0.
   * @throws the factory's refusal or fetch's error; dgram's error when a port is taken (EADDRINUSE). Nothing stays
   *   open after a throw.
   */
  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    const log = this.opts.log;
    if (this.opts.register !== false && this.failureName !== "activation-1") {
      await registerAtFactory(this.opts.serverUrl, this.identity);
      log?.(`${this.mac}: registered at the factory (${this.opts.serverUrl})`);
    }
    try {
      if (this.generation === "old") {
        if (this.failureName === "init") this.status = { ...this.status, failure: 1 };
        else await this.openAccessPoint();
        this.lan = await this.bindUdp(this.opts.lanPort ?? DEFAULT_LAN_UDP_PORT, (msg, rinfo) =>
          this.onLanPacket(msg, rinfo),
        );
        this.lanBoundPort = this.lan.address().port;
      }
    } catch (err) {
      await this.stop();
      throw err;
    }
    this.emit("state", this.setupStatus);
  }

  /** Leaves setup mode: ends any attempt, closes the UDP sockets, stops the softener cleanly (online:false). */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.endAttempt();
    for (const s of [this.ap, this.lan]) if (s) await closeUdp(s);
    this.ap = this.lan = null;
    const online = this.online;
    this.online = null;
    if (online) this.track(online.stop());
    await Promise.allSettled([...this.pending]);
  }

  // ---------- BlsyncModule (new generation, through the GATT model) ----------

  /** Stores the SSID (docs/device-protocol.md §13.2): any attempt ends, state 1, failure 0. @returns 0. */
  setSsid(ssid: string): number {
    this.reconfigure();
    this.update({ ...OFF_NETWORK, state: BluetoothSetupState.ConfigReceived, failure: 0, ssid });
    return 0;
  }

  /** Stores the password (never logged): any attempt ends, state 1, failure 0. @returns 0. */
  setPassword(password: string): number {
    this.reconfigure();
    this.password = password;
    this.update({ ...OFF_NETWORK, state: BluetoothSetupState.ConfigReceived, failure: 0 });
    return 0;
  }

  /** CONNECT_WIFI: starts an attempt (no-op while one runs or once online). @returns 0, or 2 without an SSID. */
  connectWifi(): number {
    if (!this.status.ssid || this.stopped) return 2;
    const running =
      this.status.failure === 0 &&
      (this.status.state === BluetoothSetupState.ConnectingToWifi ||
        this.status.state === BluetoothSetupState.WifiConnected);
    if (running || this.status.state === BluetoothSetupState.ServerConnected) return 0;
    void this.runAttempt();
    return 0;
  }

  /** DISCONNECT_WIFI: ends the attempt (or leaves the network) and returns to state 1 (0 without an SSID). @returns 0. */
  disconnectWifi(): number {
    this.reconfigure();
    this.update({
      ...OFF_NETWORK,
      state: this.status.ssid ? BluetoothSetupState.ConfigReceived : BluetoothSetupState.Awaiting,
      failure: 0,
    });
    return 0;
  }

  /** The Wi-Fi state answer (blsync_ble CMD_WIFI_STATE_GET with our `failure` and `pairingCode`). */
  wifiState(): TModuleWifiState {
    const s = this.status;
    return {
      state: s.state,
      ip: s.ip,
      gw: s.gw,
      mask: s.mask,
      ssid: s.ssid,
      bssid: s.bssid,
      failure: s.failure,
      ...(s.pairingCode && s.state === BluetoothSetupState.ServerConnected ? { pairingCode: s.pairingCode } : {}),
    };
  }

  /** PROV_STOP: setup is over; emits "provisioning-stopped". @returns 0. */
  stopProvisioning(): number {
    this.emit("provisioning-stopped");
    return 0;
  }

  // ---------- the walk ----------

  private update(patch: Partial<SetupStatus>): void {
    const next = { ...this.status, ...patch };
    const changed = (Object.keys(next) as Array<keyof SetupStatus>).some((k) => next[k] !== this.status[k]);
    this.status = next;
    if (changed) this.emit("state", this.setupStatus);
  }

  /** New configuration or DISCONNECT: the attempt ends and, when online, the softener leaves the network. */
  private reconfigure(): void {
    this.endAttempt();
    const online = this.online;
    this.online = null;
    if (online) this.track(online.stop());
  }

  /** Ends the running attempt: cancels its timers and HTTP calls, stops a connecting softener, closes the stall. */
  private endAttempt(): void {
    this.attempt += 1;
    this.controller.abort();
    this.controller = new AbortController();
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    this.deadline = null;
    const candidate = this.candidate;
    this.candidate = null;
    if (candidate) this.track(candidate.stop());
    const stall = this.stall;
    this.stall = null;
    if (stall) {
      for (const s of stall.sockets) s.destroy();
      stall.server.close();
    }
  }

  /** Keeps a background shutdown so stop() can wait for it. */
  private track(p: Promise<unknown>): void {
    const tracked = p.catch(() => undefined).finally(() => this.pending.delete(tracked));
    this.pending.add(tracked);
  }

  private after(ms: number, fn: () => void): NodeJS.Timeout {
    const t = setTimeout(() => {
      this.timers.delete(t);
      fn();
    }, ms);
    this.timers.add(t);
    return t;
  }

  /**
   * Whether `work` settles successfully within `ms` (a module's own timeout on a network step); a rejection is
   * logged with `what` and counts as false.
   */
  private within(ms: number, work: Promise<unknown>, what: string): Promise<boolean> {
    return new Promise<boolean>((resolve) => {
      const timer = this.after(ms, () => resolve(false));
      const settle = (ok: boolean) => {
        clearTimeout(timer);
        this.timers.delete(timer);
        resolve(ok);
      };
      work.then(
        () => settle(true),
        (err: Error) => {
          this.opts.log?.(`${this.mac}: ${what}: ${err.message}`);
          settle(false);
        },
      );
    });
  }

  /** Resolves after `ms`; never resolves when the attempt ends meanwhile (its timer is cancelled). */
  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => this.after(ms, resolve));
  }

  private fail(code: number): void {
    this.endAttempt();
    this.opts.log?.(`${this.mac}: failure ${code} ${SETUP_FAILURE_TEXTS[code] ?? ""}`);
    this.update({ failure: code });
  }

  /** A failed join (3 or 4): reported; the old module reopens its access point later. */
  private wifiFailed(code: number): void {
    this.fail(code);
    if (this.generation !== "old") return;
    this.after(this.timing.apReopenAfterFailedJoin, () => {
      void this.openAccessPoint()
        .then(() => {
          if (this.stopped) return;
          this.password = null;
          this.update({ state: BluetoothSetupState.Awaiting, failure: 0, ssid: "" });
          this.opts.log?.(`${this.mac}: access point ${SETUP_AP_SSID} reopened`);
        })
        .catch((err: Error) => this.opts.log?.(`${this.mac}: access point cannot reopen: ${err.message}`));
    });
  }

  private async runAttempt(): Promise<void> {
    this.endAttempt();
    const run = this.attempt;
    const alive = () => run === this.attempt && !this.stopped;
    const t = this.timing;
    const f = this.failureName;
    const log = this.opts.log;
    const ssid = this.status.ssid;
    this.update({ ...OFF_NETWORK, state: BluetoothSetupState.ConnectingToWifi, failure: 0 });
    log?.(`${this.mac}: joining "${ssid}"`);
    if (this.generation === "new") {
      this.deadline = this.after(t.moduleDeadline, () => {
        if (alive() && this.status.state < BluetoothSetupState.ServerConnected) this.fail(2);
      });
      if (f === "init") return this.fail(BleSetupFailure.InitializationFailed);
      if (f === "timeout") return; // stalls; the deadline reports failure 2
    }

    // Association: only 2.4 GHz access points of that exact name (spec §9).
    const network = f === "ap-timeout" ? undefined : findNetwork(ssid, "2.4GHz", this.networks);
    if (!network) {
      await this.sleep(t.apScanTimeout);
      if (alive()) this.wifiFailed(BleSetupFailure.AccessPointTimeout);
      return;
    }
    await this.sleep(t.association);
    if (!alive()) return;
    if (f === "password" || this.password !== network.password) {
      await this.sleep(t.passwordReject);
      if (alive()) this.wifiFailed(BleSetupFailure.RouterPassword);
      return;
    }
    await this.sleep(t.dhcp);
    if (!alive()) return;
    this.update({
      state: BluetoothSetupState.WifiConnected,
      ip: addressOn(network, SIM_HOST.module),
      gw: addressOn(network, SIM_HOST.gateway),
      mask: SIM_NETMASK,
      bssid: network.bssid,
    });

    // DNS through the router: a real lookup of the cloud's host name (or a router that answers nothing).
    const host = new URL(this.opts.serverUrl).hostname.replace(/^\[|\]$/g, "");
    const resolved =
      f === "dns" || f === "server" ? await this.sleep(t.dnsTimeout).then(() => false) : await this.lookup(host);
    if (!alive()) return;
    if (!resolved) return this.fail(BleSetupFailure.DnsResolutionFailed);

    // Activation step one.
    const begin = await this.post("step one", ACTIVATION_PATHS.begin, {
      mac: this.mac,
      model: this.identity.model,
      firmwareVersion: this.opts.softener?.firmwareVersion ?? "1.0.0",
    });
    if (!alive()) return;
    const beginResult = begin === null ? null : ZActivationBeginResult.safeParse(begin);
    if (!beginResult?.success) return this.fail(BleSetupFailure.ActivationStepOneFailed);

    // Activation step two.
    const secret = f === "activation-2" ? corrupted(this.identity.secret) : this.identity.secret;
    const complete = await this.post("step two", ACTIVATION_PATHS.complete, {
      mac: this.mac,
      nonce: beginResult.data.nonce,
      secret,
    });
    if (!alive()) return;
    const completeResult = complete === null ? null : ZActivationCompleteResult.safeParse(complete);
    if (!completeResult?.success) return this.fail(BleSetupFailure.ActivationStepTwoFailed);

    // The persistent connection, with the device's own MAC and secret.
    let brokerUrl = beginResult.data.mqttUrl;
    if (f === "no-server-response") {
      brokerUrl = await this.openStall();
      if (!alive()) return;
    }
    const softener = new SimulatedDevice({
      utcOffsetMinutes: -new Date().getTimezoneOffset(),
      log,
      ...this.opts.softener,
      brokerUrl,
      mac: this.mac,
      secret: this.identity.secret,
      model: this.identity.model,
      serialNumber: this.identity.serialNumber,
      deviceSerialNumber: this.identity.deviceSerialNumber,
      timeScale: this.opts.timeScale ?? 1,
      connectTimeoutMs: t.connackTimeout,
    });
    this.candidate = softener;
    log?.(`${this.mac}: MQTT CONNECT to ${redactUrl(brokerUrl)}`);
    const connected = await this.within(t.connackTimeout, softener.start(), "MQTT connection refused");
    if (!alive()) return;
    if (!connected) return this.fail(BleSetupFailure.NoServerResponse);
    this.candidate = null;
    this.online = softener;
    if (this.deadline) {
      clearTimeout(this.deadline);
      this.timers.delete(this.deadline);
      this.deadline = null;
    }
    this.update({
      state: BluetoothSetupState.ServerConnected,
      failure: 0,
      pairingCode: completeResult.data.pairingCode,
    });
    this.emit("online", softener);
  }

  /** A real DNS lookup of `host`, at most the DNS timeout. */
  private lookup(host: string): Promise<boolean> {
    return this.within(this.timing.dnsTimeout, dns.promises.lookup(host), `DNS lookup of ${host} failed`);
  }

  /** POSTs JSON to the cloud; the parsed answer of a 2xx, or null (refused, unreachable, not JSON, timed out). */
  private async post(step: string, path: string, body: Record<string, unknown>): Promise<unknown> {
    try {
      const res = await fetch(new URL(path, this.opts.serverUrl), {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
        signal: AbortSignal.any([this.controller.signal, AbortSignal.timeout(this.timing.httpTimeout)]),
      });
      const json: unknown = await res.json().catch(() => null);
      if (!res.ok) {
        const error = ZActivationError.safeParse(json);
        this.opts.log?.(
          `${this.mac}: activation ${step} refused: HTTP ${res.status}${error.success ? ` ${error.data.error}` : ""}`,
        );
        return null;
      }
      return json;
    } catch (err) {
      if (!this.controller.signal.aborted) {
        this.opts.log?.(`${this.mac}: activation ${step} failed: ${(err as Error).message}`);
      }
      return null;
    }
  }

  /** A local TCP listener that accepts and never answers (the router drops MQTT). @returns its mqtt:// URL. */
  private async openStall(): Promise<string> {
    const sockets = new Set<net.Socket>();
    const server = net.createServer((socket) => {
      sockets.add(socket);
      socket.on("error", () => undefined);
      socket.on("close", () => sockets.delete(socket));
    });
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(0, "127.0.0.1", () => resolve());
    });
    this.stall = { server, sockets };
    return `mqtt://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  }

  // ---------- old generation: UDP ----------

  private bindUdp(port: number, onMessage: (msg: Buffer, rinfo: dgram.RemoteInfo) => void): Promise<dgram.Socket> {
    return new Promise((resolve, reject) => {
      const socket = dgram.createSocket("udp4");
      socket.once("error", reject);
      socket.bind(port, "127.0.0.1", () => {
        socket.off("error", reject);
        socket.on("error", (err) => this.opts.log?.(`${this.mac}: UDP ${err.message}`));
        socket.on("message", onMessage);
        resolve(socket);
      });
    });
  }

  private async openAccessPoint(): Promise<void> {
    if (this.ap || this.stopped) return;
    const port = this.apBoundPort ?? this.opts.apPort ?? DEFAULT_AP_UDP_PORT;
    const ap = await this.bindUdp(port, (msg, rinfo) => this.onApPacket(msg, rinfo));
    if (this.stopped) return closeUdp(ap); // stopped while binding
    this.ap = ap;
    this.apBoundPort = ap.address().port;
  }

  private async closeAccessPoint(): Promise<void> {
    const ap = this.ap;
    this.ap = null;
    if (ap) await closeUdp(ap);
  }

  private send(socket: dgram.Socket | null, packet: Uint8Array, rinfo: dgram.RemoteInfo): void {
    socket?.send(packet, rinfo.port, rinfo.address, (err) => {
      if (err) this.opts.log?.(`${this.mac}: UDP send failed: ${err.message}`);
    });
  }

  private helloAnswer(ip: string, cloudState: CloudState): Uint8Array {
    return encodeHelloAnswer({
      mac: this.mac,
      deviceType: BL3372_DEVICE_TYPE,
      ip,
      name: this.name,
      locked: false,
      cloudState,
      failure: cloudState === CloudState.Failed ? this.status.failure : 0,
      pairingCode: cloudState === CloudState.Connected ? this.status.pairingCode : null,
    });
  }

  private onApPacket(msg: Buffer, rinfo: dgram.RemoteInfo): void {
    const packet = new Uint8Array(msg.buffer, msg.byteOffset, msg.length);
    if (packet[0x26] === BroadlinkPacketKind.Hello) {
      try {
        decodeHelloPacket(packet);
      } catch (err) {
        this.opts.log?.(`${this.mac}: access point ignored a packet: ${(err as Error).message}`);
        return;
      }
      this.send(this.ap, this.helloAnswer(SETUP_AP_ADDRESS, CloudState.Setup), rinfo);
      return;
    }
    let join: ReturnType<typeof decodeJoinPacket>;
    try {
      join = decodeJoinPacket(packet);
    } catch (err) {
      this.opts.log?.(`${this.mac}: access point ignored a packet: ${(err as Error).message}`);
      return;
    }
    if (this.failureName === "timeout") {
      this.opts.log?.(`${this.mac}: join packet ignored (failure "timeout")`);
      return;
    }
    this.password = join.password;
    this.update({ state: BluetoothSetupState.ConfigReceived, failure: 0, ssid: join.ssid });
    this.send(this.ap, encodeJoinAck(), rinfo);
    if (this.joinPending) return; // a retry of the same join: acknowledged again, acted on once
    this.joinPending = true;
    this.after(this.timing.apCloseAfterAck, () => {
      this.joinPending = false;
      void this.closeAccessPoint().then(() => {
        if (this.stopped) return;
        this.opts.log?.(`${this.mac}: access point closed`);
        void this.runAttempt();
      });
    });
  }

  private onLanPacket(msg: Buffer, rinfo: dgram.RemoteInfo): void {
    if (this.failureName === "not-found") return;
    let hello: ReturnType<typeof decodeHelloPacket>;
    try {
      hello = decodeHelloPacket(new Uint8Array(msg.buffer, msg.byteOffset, msg.length));
    } catch {
      return;
    }
    const s = this.status;
    if (s.state < BluetoothSetupState.WifiConnected || !s.ip) return; // not on the network
    if (!sameSubnet(hello.localIp, s.ip)) return; // a phone on another network does not reach it
    const cloudState =
      s.failure !== 0
        ? CloudState.Failed
        : s.state === BluetoothSetupState.ServerConnected
          ? CloudState.Connected
          : CloudState.Connecting;
    this.send(this.lan, this.helloAnswer(s.ip, cloudState), rinfo);
  }
}

function closeUdp(socket: dgram.Socket): Promise<void> {
  return new Promise((resolve) => {
    try {
      socket.close(() => resolve());
    } catch {
      resolve(); // already closed
    }
  });
}

/** `url` without user information (a broker URL may carry credentials). */
function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    u.username = "";
    u.password = "";
    return u.toString();
  } catch {
    return "(invalid URL)";
  }
}
