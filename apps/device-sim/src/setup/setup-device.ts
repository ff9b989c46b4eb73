/**
 * A brand-new softener in network-setup mode (docs/device-protocol.md §13, docs/device-sim.md "Setup mode"):
 * an unprovisioned WIFI-BL3372 module that the app puts onto the owner's Wi-Fi, over Bluetooth (new generation,
 * §13.2) or over its access point and UDP (old generation, §13.3). It walks the setup states honestly against a
 * simulated neighbourhood of networks, activates itself with the real cloud over HTTP (§13.4), opens its persistent
 * MQTT connection with its own credentials and from then on is a {@link SimulatedDevice} like every other.
 *
 * This file is the module's state machine: what each request does to the setup status and the walk of one attempt.
 * Its parts sit beside it: the status and its texts (setup-status.ts), the provokable failures (setup-failures.ts),
 * the timings (setup-timing.ts), the attempt's timers (attempt-timers.ts), the Bluetooth service (gatt-model.ts), the
 * old generation's UDP sockets (access-point.ts), the networks in range (neighbourhood.ts), activation over HTTP
 * (cloud-activation.ts) and the router that drops MQTT (mqtt-stall.ts).
 */

import dns from "node:dns";
import { EventEmitter } from "node:events";
import {
  ACTIVATION_PATHS,
  BluetoothSetupState,
  normaliseMac,
  ZActivationBeginResult,
  ZActivationCompleteResult,
} from "@aquapilot/contract";
import {
  BleSetupFailure,
  moduleBluetoothName,
  SETUP_AP_SSID,
  type TSdkWifiState,
  type TStatusExtension,
} from "@aquapilot/provisioning";
import { SimulatedDevice, type SimulatedDeviceOptions } from "../device.ts";
import { registerAtFactory } from "../factory.ts";
import { type DeviceIdentity, generateDeviceIdentity } from "../fleet.ts";
import { AccessPointUdp, type JoinRequest } from "./access-point.ts";
import { AttemptTimers } from "./attempt-timers.ts";
import { corruptedSecret, postActivationStep } from "./cloud-activation.ts";
import { BlsyncGattModel, type BlsyncModule, bluetoothAddressOf } from "./gatt-model.ts";
import { type MqttStall, openMqttStall } from "./mqtt-stall.ts";
import { addressOn, findNetwork, NEIGHBOURHOOD, SIM_HOST, SIM_NETMASK, type SimNetwork } from "./neighbourhood.ts";
import {
  type ModuleFirmware,
  type SetupFailureName,
  type SetupGeneration,
  setupFailureInfo,
} from "./setup-failures.ts";
import { OFF_NETWORK, SETUP_FAILURE_TEXTS, type SetupStatus, sdkWifiState, statusExtensionOf } from "./setup-status.ts";
import { DEFAULT_SETUP_TIMING, type SetupTiming } from "./setup-timing.ts";

export type { ModuleFirmware };

/** Options of {@link SetupModeDevice}. */
export interface SetupModeDeviceOptions {
  generation: SetupGeneration;
  /** The module's firmware (default `stock`). */
  firmware?: ModuleFirmware;
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
  /** What runs on its Wi-Fi module. */
  readonly firmware: ModuleFirmware;
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
  /** The one-time setup ticket the phone handed the module (new generation), sent with activation step two. */
  private ticket: string | null = null;
  private started = false;
  private stopped = false;
  /** The running attempt's timers and HTTP calls. */
  private readonly timers = new AttemptTimers();
  private deadline: NodeJS.Timeout | null = null;
  private candidate: SimulatedDevice | null = null;
  private online: SimulatedDevice | null = null;
  private stall: MqttStall | null = null;
  /** Old generation: the access point and home-network sockets; null for the new generation. */
  private readonly udp: AccessPointUdp | null;
  private joinPending = false;
  private readonly pending = new Set<Promise<unknown>>();

  /**
   * @param options generation, failure, identity, cloud URL and the rest of {@link SetupModeDeviceOptions}.
   * @throws RangeError for an unknown firmware or failure name, or a failure that does not apply to the generation.
   */
  constructor(options: SetupModeDeviceOptions) {
    super();
    if (options.generation !== "new" && options.generation !== "old") {
      throw new RangeError(`generation must be "new" or "old", not "${options.generation}"`);
    }
    if (options.firmware !== undefined && options.firmware !== "stock" && options.firmware !== "product") {
      throw new RangeError(`firmware must be "stock" or "product", not "${options.firmware}"`);
    }
    if (options.failure !== undefined) {
      const info = setupFailureInfo(options.failure);
      if (!info.generations.includes(options.generation)) {
        throw new RangeError(`failure "${options.failure}" does not apply to the ${options.generation} generation`);
      }
    }
    this.opts = options;
    this.generation = options.generation;
    this.firmware = options.firmware ?? "stock";
    this.failureName = options.failure ?? null;
    this.identity = options.identity ?? generateDeviceIdentity();
    this.timing = { ...DEFAULT_SETUP_TIMING, ...options.timing };
    this.networks = options.networks ?? NEIGHBOURHOOD;
    this.gattModel = this.generation === "new" ? new BlsyncGattModel(this) : null;
    this.udp =
      this.generation === "old"
        ? new AccessPointUdp(
            {
              mac: this.mac,
              name: this.name,
              firmware: this.firmware,
              currentStatus: () => this.status,
              isStopped: () => this.stopped,
              silentOnHomeNetwork: () => this.failureName === "not-found",
              onJoin: (join, acknowledge) => this.onJoin(join, acknowledge),
              log: options.log,
            },
            { ap: options.apPort, lan: options.lanPort },
          )
        : null;
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
    return this.udp?.apPort ?? null;
  }

  /** Old generation: whether the access point is up. */
  get apOpen(): boolean {
    return this.udp?.apOpen ?? false;
  }

  /** Old generation: the home-network side's UDP port once bound, else null. */
  get lanPort(): number | null {
    return this.udp?.lanPort ?? null;
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
      if (this.udp) {
        if (this.failureName === "init") this.status = { ...this.status, failure: 1 };
        else await this.udp.openAccessPoint();
        await this.udp.openHomeNetwork();
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
    await this.udp?.close();
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

  /** The Wi-Fi state answer (blsync_ble CMD_WIFI_STATE_GET as the SDK's example application fills it). */
  wifiState(): TSdkWifiState {
    return sdkWifiState(this.status);
  }

  /** The product's handler: keeps the phone's setup ticket for activation step two (either firmware). @returns 0. */
  setupTicket(ticket: string): number {
    this.ticket = ticket;
    this.opts.log?.(`${this.mac}: setup ticket received`);
    return 0;
  }

  /** The status extension: only the product's firmware has it (stock answers the SDK's error). */
  statusExtension(): TStatusExtension | null {
    return this.firmware === "product" ? statusExtensionOf(this.status) : null;
  }

  /**
   * The SDK's transfer layer crashed on a written frame: the module restarts in setup mode with nothing configured
   * (state 0; any attempt ends).
   */
  crashed(reason: string): void {
    this.opts.log?.(`${this.mac}: the blsync_ble transfer layer crashed (${reason}); the module restarts`);
    this.reconfigure();
    this.password = null;
    this.ticket = null;
    this.update({ ...OFF_NETWORK, state: BluetoothSetupState.Awaiting, failure: 0, ssid: "" });
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
    this.timers.endAttempt();
    this.deadline = null;
    const candidate = this.candidate;
    this.candidate = null;
    if (candidate) this.track(candidate.stop());
    const stall = this.stall;
    this.stall = null;
    stall?.close();
  }

  /** Keeps a background shutdown so stop() can wait for it. */
  private track(p: Promise<unknown>): void {
    const tracked = p.catch(() => undefined).finally(() => this.pending.delete(tracked));
    this.pending.add(tracked);
  }

  /**
   * Whether `work` settles successfully within `ms` (a module's own timeout on a network step); a rejection is
   * logged with `what` and counts as false.
   */
  private within(ms: number, work: Promise<unknown>, what: string): Promise<boolean> {
    return this.timers.within(ms, work, (err) => this.opts.log?.(`${this.mac}: ${what}: ${err.message}`));
  }

  private fail(code: number): void {
    this.endAttempt();
    this.opts.log?.(`${this.mac}: failure ${code} ${SETUP_FAILURE_TEXTS[code] ?? ""}`);
    this.update({ failure: code });
  }

  /** A failed join (3 or 4): reported; the old module reopens its access point later. */
  private wifiFailed(code: number): void {
    this.fail(code);
    const udp = this.udp;
    if (!udp) return; // the new generation has no access point to reopen
    this.timers.after(this.timing.apReopenAfterFailedJoin, () => {
      void udp
        .openAccessPoint()
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
    const run = this.timers.current;
    const alive = () => run === this.timers.current && !this.stopped;
    const t = this.timing;
    const f = this.failureName;
    const log = this.opts.log;
    const ssid = this.status.ssid;
    this.update({ ...OFF_NETWORK, state: BluetoothSetupState.ConnectingToWifi, failure: 0 });
    log?.(`${this.mac}: joining "${ssid}"`);
    if (this.generation === "new") {
      this.deadline = this.timers.after(t.moduleDeadline, () => {
        if (alive() && this.status.state < BluetoothSetupState.ServerConnected) this.fail(2);
      });
      if (f === "init") return this.fail(BleSetupFailure.InitializationFailed);
      if (f === "timeout") return; // stalls; the deadline reports failure 2
    }

    // Association: only 2.4 GHz access points of that exact name (spec §9).
    const network = f === "ap-timeout" ? undefined : findNetwork(ssid, "2.4GHz", this.networks);
    if (!network) {
      await this.timers.sleep(t.apScanTimeout);
      if (alive()) this.wifiFailed(BleSetupFailure.AccessPointTimeout);
      return;
    }
    await this.timers.sleep(t.association);
    if (!alive()) return;
    if (f === "password" || this.password !== network.password) {
      await this.timers.sleep(t.passwordReject);
      if (alive()) this.wifiFailed(BleSetupFailure.RouterPassword);
      return;
    }
    await this.timers.sleep(t.dhcp);
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
      f === "dns" || f === "server" ? await this.timers.sleep(t.dnsTimeout).then(() => false) : await this.lookup(host);
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
    const secret = f === "activation-2" ? corruptedSecret(this.identity.secret) : this.identity.secret;
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
      const stall = await openMqttStall();
      this.stall = stall;
      brokerUrl = stall.url;
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
      this.timers.cancel(this.deadline);
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

  /** POSTs one activation step to the cloud; the parsed answer of a 2xx, or null (see {@link postActivationStep}). */
  private post(step: string, path: string, body: Record<string, unknown>): Promise<unknown> {
    return postActivationStep({
      serverUrl: this.opts.serverUrl,
      path,
      body,
      step,
      signal: this.timers.signal,
      timeoutMs: this.timing.httpTimeout,
      log: this.opts.log && ((message) => this.opts.log?.(`${this.mac}: ${message}`)),
      setupTicket: this.ticket ?? undefined,
    });
  }

  // ---------- old generation: the join packet ----------

  /**
   * A valid join packet on the access point: stored (state 1) with the setup ticket it carries (for activation step
   * two), acknowledged (only a product module answers; a stock module sends nothing), and 0.5 s later the access point
   * closes and the attempt starts. A repeated join is acknowledged again but acted on once; with failure "timeout"
   * join packets are ignored.
   */
  private onJoin(join: JoinRequest, acknowledge: () => void): void {
    if (this.failureName === "timeout") {
      this.opts.log?.(`${this.mac}: join packet ignored (failure "timeout")`);
      return;
    }
    this.password = join.password;
    this.ticket = join.setupTicket;
    this.update({ state: BluetoothSetupState.ConfigReceived, failure: 0, ssid: join.ssid });
    acknowledge();
    if (this.joinPending) return; // a retry of the same join: acknowledged again, acted on once
    this.joinPending = true;
    this.timers.after(this.timing.apCloseAfterAck, () => {
      this.joinPending = false;
      void this.udp?.closeAccessPoint().then(() => {
        if (this.stopped) return;
        this.opts.log?.(`${this.mac}: access point closed`);
        void this.runAttempt();
      });
    });
  }
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
