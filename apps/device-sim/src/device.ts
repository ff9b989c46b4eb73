import { randomUUID } from "node:crypto";
import { EventEmitter } from "node:events";
import {
  DEVICE_RECONNECT_BACKOFF,
  deviceTopic,
  MQTT_PROTOCOL_VERSION,
  normaliseMac,
  type OtaFailureReason,
  type ReconnectBackoff,
  reconnectDelayMs,
  type TMqttAck,
  type TMqttCommand,
  type TMqttEvent,
  type TMqttOtaParams,
  type TMqttState,
  type TMqttStatus,
  type TMqttTelemetry,
  ZMqttCommand,
  ZMqttOtaParams,
  ZMqttReceipt,
} from "@aquapilot/contract";
import mqtt, { type MqttClient } from "mqtt";
import { brokerTlsOptions } from "./broker-trust.ts";
import { SoftenerError, type SoftenerEvent, SoftenerModel, type SoftenerModelOptions } from "./model.ts";
import { type OtaPlan, planOta } from "./ota.ts";
import { checkImage, downloadImage, type OtaFaults, parseVendorKeys } from "./ota-signed.ts";
import { type OutboxReport, ReportOutbox, type ReportOutboxOptions } from "./outbox.ts";
import { Rng, seedFrom } from "./random.ts";
import { mqttTimerOf, type ScheduledTask, type Scheduler } from "./scheduler.ts";

/** Outcome of one command, as acknowledged. */
export interface CommandOutcome {
  ok: boolean;
  error: string | null;
}

/** Options of {@link SimulatedDevice}. */
export interface SimulatedDeviceOptions extends Omit<SoftenerModelOptions, "timeScale"> {
  /** Broker the device connects to, e.g. mqtt://127.0.0.1:1883 or mqtts://127.0.0.1:8883. */
  brokerUrl: string;
  /**
   * CA certificates (PEM) the firmware pins for an `mqtts://` broker: the broker's certificate must chain to one and
   * name the URL's host, or the device does not connect (docs/device-protocol.md "Transport security"). Default:
   * broker-trust.ts `pinnedBrokerCas` (the CAs pinned in this process and the SIM_MQTT_CA file).
   */
  brokerCa?: string | readonly string[] | null;
  /** MAC address (any separators); also the MQTT username and client id. */
  mac: string;
  /** Provisioning secret: the MQTT password. */
  secret: string;
  /** Device model, e.g. "AQ-S25". */
  model?: string;
  /** Control valve serial number. */
  serialNumber?: string;
  /** Device serial number. */
  deviceSerialNumber?: string;
  firmwareVersion?: string;
  /** Simulated seconds per real second (default 1). */
  timeScale?: number;
  /** Real milliseconds between model ticks (default 500). */
  tickMs?: number;
  /** Retained state is also published every this many simulated minutes (default 15), at most once per real second. */
  stateIntervalMinutes?: number;
  /** Real milliseconds between telemetry messages (default 10 000; 0: no telemetry). */
  telemetryIntervalMs?: number;
  /**
   * Timer source of the model ticks, telemetry, OTA steps and the MQTT keep-alive (scheduler.ts). A fleet passes one
   * {@link SharedScheduler} to all its devices, so 10,000 devices cost one Node timer, not 30,000; alone, a
   * device uses Node timers of its own.
   */
  scheduler?: Scheduler;
  /** Real milliseconds between OTA progress steps of 10 % (default 300). */
  otaStepMs?: number;
  /**
   * Chance (0–1) that a firmware update fails part-way: an "ota-failed" event and the old version stay (default 0,
   * never). Drawn from a generator seeded with `seed` and the MAC, so a seeded device fails the same updates.
   */
  otaFailureChance?: number;
  /**
   * The vendor's Ed25519 public keys pinned in the firmware (PEM or base64 raw 32-byte keys): a signed image is
   * installed only when its signature verifies with one of them (docs/device-protocol.md §3.7). None: every signed image
   * fails "signature".
   */
  firmwareKeys?: readonly string[];
  /** Faults to play in signed updates (ota-signed.ts); also settable later through {@link SimulatedDevice.otaFaults}. */
  otaFaults?: OtaFaults;
  /**
   * First delay before connecting again after a refused, failed or lost connection, ms (default 1000; 0 = never:
   * then {@link SimulatedDevice.start} rejects on the first refusal). Each further failed attempt doubles it up to
   * `reconnectMaxMs`, every delay jittered (contract `reconnectDelayMs`, docs/device-protocol.md §1); the device retries
   * forever until stopped.
   */
  reconnectPeriodMs?: number;
  /** Largest delay between connection attempts, ms (default 30 000). */
  reconnectMaxMs?: number;
  /** Uniform random numbers in [0, 1) for the reconnection jitter (default Math.random; tests fix it). */
  random?: () => number;
  /** How long the MQTT client waits for CONNACK before it gives up on a connection attempt, ms (default 10 000). */
  connectTimeoutMs?: number;
  /** Size bound and receipt timeout of the device's outbox of reports (outbox.ts defaults: 1,000 reports, 30 s). */
  outbox?: ReportOutboxOptions;
  /** Where to write diagnostics (default: nowhere). */
  log?: (message: string) => void;
}

const REMEMBERED_COMMANDS = 200;

function round(n: number, digits = 1): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}

/**
 * One simulated softener on the wire (docs/device-protocol.md): an mqtt.js client with username = MAC and
 * password = secret, a retained will `{v:1,online:false}` on its status topic, retained `{v:1,online:true}` on
 * connect, retained state on every station change and every few simulated minutes, periodic telemetry, events,
 * and commands from its `cmd` topic applied at most once per id (the outcomes of the last 200 ids are kept, and a
 * repeated id is acknowledged again with the first outcome).
 *
 * Telemetry and events carry a report id and stay in the device's {@link outbox} until the cloud's receipt names them
 * (docs/device-protocol.md §3.6): after every connection the device sends every kept report again, oldest first and
 * before anything newer, and again when a receipt is overdue — so a report the broker acknowledged and then lost (a
 * broker crash) is sent until the cloud has stored it. The outbox lives as long as the object (a stop and start keeps
 * it). Telemetry is made only while connected (the next record's interval covers the time away); events are kept
 * while offline too.
 *
 * A refused or lost connection is retried forever with jittered exponential backoff (1 s doubling to 30 s by default;
 * docs/device-protocol.md §1).
 *
 * Emits "command" (cmd, outcome, repeated), "connect", "offline", "reconnecting" (failed attempts so far), "state"
 * (TMqttState), "report" (an OutboxReport made), "receipt" (the report ids forgotten), "ota" (OtaPlan & {ok})
 * when a firmware update ends.
 */
export class SimulatedDevice extends EventEmitter {
  /** Normalised MAC (12 upper-case hex digits). */
  readonly mac: string;
  /** The valve model that runs the water side. */
  readonly valve: SoftenerModel;
  /** Device model name. */
  readonly deviceModel: string;
  readonly serialNumber: string;
  readonly deviceSerialNumber: string;
  /** Current firmware version (changes after an OTA). */
  firmwareVersion: string;
  /** Commands applied, in order (repeats of an id are not listed again). */
  readonly appliedCommands: Array<{ id: string; name: string; outcome: CommandOutcome }> = [];
  /** Telemetry and events not yet receipted by the cloud, oldest first. */
  readonly outbox: ReportOutbox;
  private readonly opts: SimulatedDeviceOptions;
  /**
   * True from a connection's resend of the outbox until the connection closes: only then are new reports sent at
   * once (before, they wait in the outbox for the resend, so none overtakes an older one).
   */
  private reporting = false;
  private readonly outcomes = new Map<string, CommandOutcome>();
  private client: MqttClient | null = null;
  private tickTimer: ScheduledTask | null = null;
  private telemetryTimer: ScheduledTask | null = null;
  private otaTimer: ScheduledTask | null = null;
  private lastTickAt = 0;
  private lastStateClock = 0;
  private lastStateReal = 0;
  private lastTelemetryTotal = 0;
  private lastTelemetryTs = "";
  private running = false;
  /** While set, state and telemetry reports carry this instead of their JSON (see garbleReports). */
  private garbledPayload: string | null = null;
  private failures = 0;
  private readonly otaRng: Rng;
  private ota: OtaPlan | null = null;
  /** Aborts the signed update's download in progress ({@link stop}). */
  private otaDownload: AbortController | null = null;
  private readonly vendorKeys: ReturnType<typeof parseVendorKeys>;
  /** Faults the next signed updates play (ota-signed.ts); tests and the e2e suite set them. */
  otaFaults: OtaFaults;

  /** @param options broker, credentials, identity and model options; the device does nothing until start(). */
  constructor(options: SimulatedDeviceOptions) {
    super();
    this.opts = options;
    this.mac = normaliseMac(options.mac);
    if (!/^[0-9A-F]{12}$/.test(this.mac)) throw new Error(`Invalid MAC ${options.mac}`);
    this.valve = new SoftenerModel({ ...options, timeScale: options.timeScale ?? 1 });
    this.deviceModel = options.model ?? "AQ-S25";
    this.serialNumber = options.serialNumber ?? `SN${this.mac.slice(4)}`;
    this.deviceSerialNumber = options.deviceSerialNumber ?? `DSN${this.mac.slice(6)}`;
    this.firmwareVersion = options.firmwareVersion ?? "1.0.0";
    this.otaRng = new Rng(seedFrom(`${options.seed ?? 1}:ota:${this.mac}`));
    this.outbox = new ReportOutbox(options.outbox);
    this.vendorKeys = parseVendorKeys(options.firmwareKeys ?? []);
    this.otaFaults = { ...options.otaFaults };
    if (!((options.otaFailureChance ?? 0) >= 0 && (options.otaFailureChance ?? 0) <= 1)) {
      throw new RangeError("otaFailureChance must be within 0–1");
    }
  }

  /** The firmware update in progress (its plan), or null. */
  get otaInProgress(): OtaPlan | null {
    return this.ota;
  }

  /** True while the MQTT connection is up. */
  get connected(): boolean {
    return this.client?.connected ?? false;
  }

  /**
   * Starts the clock and connects. Resolves on the first CONNACK — or, when {@link stop} is called before one, then.
   * A refused or failed connection is logged and retried forever with jittered exponential backoff
   * (`reconnectPeriodMs` doubling up to `reconnectMaxMs`), so this may wait as long as the broker refuses.
   * @throws only with `reconnectPeriodMs: 0`, when the broker refuses the credentials or cannot be reached (the device
   * is then stopped).
   */
  async start(): Promise<void> {
    const attempt = this.begin();
    if (attempt) await attempt.connected;
  }

  /**
   * Starts like {@link start} but resolves after the first connection attempt, whatever its outcome: true when it
   * connected, false when it failed (the device keeps retrying in the background, see {@link start}). A fleet starts
   * its devices this way so one refused device never holds the others back.
   * @throws like {@link start} with `reconnectPeriodMs: 0`.
   */
  async startConnecting(): Promise<boolean> {
    const attempt = this.begin();
    if (!attempt) return this.connected;
    if (!this.retries) {
      await attempt.connected;
      return true;
    }
    return attempt.first;
  }

  /** Failed connection attempts since the last CONNACK (0 while connected). */
  get failedAttempts(): number {
    return this.failures;
  }

  /** True when the device reconnects after a failure (reconnectPeriodMs > 0). */
  private get retries(): boolean {
    return (this.opts.reconnectPeriodMs ?? DEVICE_RECONNECT_BACKOFF.initialMs) > 0;
  }

  /** Starts the clock and the first connection; null when already running. */
  private begin(): { connected: Promise<void>; first: Promise<boolean> } | null {
    if (this.running) return null;
    this.running = true;
    this.lastTickAt = performance.now();
    this.lastStateClock = this.valve.clock;
    this.tickTimer = this.every(this.opts.tickMs ?? 500, () => this.tick(), true);
    const telemetryMs = this.opts.telemetryIntervalMs ?? 10_000;
    if (telemetryMs > 0) this.telemetryTimer = this.every(telemetryMs, () => this.publishTelemetry(), true);
    const attempt = this.connect();
    const connected = attempt.connected.catch(async (err: Error) => {
      await this.stop();
      throw err;
    });
    // Without retries a refusal rejects `connected`; callers of startConnecting await it instead of `first`.
    if (!this.retries) {
      const first = connected.then(() => true);
      first.catch(() => undefined); // the caller awaits `connected` (start) or `first` (startConnecting), not both
      return { connected, first };
    }
    return { connected, first: attempt.first };
  }

  /** Clean shutdown: publishes retained `online:false`, disconnects (no will), stops the clock. */
  async stop(): Promise<void> {
    this.running = false;
    this.reporting = false;
    for (const t of [this.tickTimer, this.telemetryTimer, this.otaTimer]) t?.cancel();
    this.tickTimer = this.telemetryTimer = this.otaTimer = null;
    // Switched off: a firmware download in progress ends with the power (the cloud sees the connection close).
    this.otaDownload?.abort();
    this.otaDownload = null;
    const client = this.client;
    this.client = null;
    if (!client) return;
    if (client.connected) {
      await client
        .publishAsync(deviceTopic(this.mac, "status"), this.json(this.status(false)), { qos: 1, retain: true })
        .catch(() => undefined);
    }
    await client.endAsync().catch(() => undefined);
  }

  /** Drops the connection abruptly (no DISCONNECT), so the broker publishes the will; the valve keeps running. */
  goOffline(): void {
    const client = this.client;
    this.client = null;
    this.reporting = false;
    if (client) client.end(true);
    this.emit("offline");
  }

  /** Reconnects after {@link goOffline}. Resolves on CONNACK (retrying as {@link start} does). */
  async goOnline(): Promise<void> {
    if (this.client) return;
    await this.connect().connected;
  }

  /** Starts a regeneration now (as the valve's own button would) and reports it. */
  startRegeneration(): void {
    this.publishEvents(this.valve.startRegeneration("forced"));
  }

  /** Closes the valve with a system close reason (257, 513, 769, 1025) and reports it. */
  injectClose(reason: number): void {
    this.publishEvents(this.valve.injectClose(reason));
  }

  /**
   * Reset at the valve (factory settings, see {@link SoftenerModel.factoryReset}) and reports the events and the new
   * state. Nothing else is sent: identity, secret and MQTT session stay, so the cloud's binding is unchanged.
   */
  factoryReset(): void {
    this.publishEvents(this.valve.factoryReset(), false);
    this.publishState();
  }

  /**
   * Models a firmware fault: from now on every state and telemetry report goes out as `payload` (something the cloud
   * cannot read), on time as before, until {@link repairReports}. The first garbled state is sent at once.
   */
  garbleReports(payload: string): void {
    this.garbledPayload = payload;
    this.publishState();
  }

  /** Ends {@link garbleReports}: reports are well formed again, and the state is sent at once. */
  repairReports(): void {
    this.garbledPayload = null;
    this.publishState();
  }

  /** Publishes the retained state now. */
  publishState(): void {
    const state = this.state();
    this.lastStateClock = this.valve.clock;
    this.lastStateReal = performance.now();
    this.publish("state", state, true);
    this.emit("state", state);
  }

  /** The reported state message built from the valve (units: L, L/min, s). */
  state(): TMqttState {
    const s = this.valve.snapshot();
    return {
      v: MQTT_PROTOCOL_VERSION,
      ts: new Date(s.clock).toISOString(),
      station: s.station,
      stationRemainingSeconds: s.stationRemainingSeconds === null ? null : Math.round(s.stationRemainingSeconds),
      stationStartedAt: s.stationStartedAt === null ? null : new Date(s.stationStartedAt).toISOString(),
      stationDurationSeconds: s.stationDurationSeconds === null ? null : Math.round(s.stationDurationSeconds),
      serviceRemainingSeconds: s.serviceRemainingSeconds === null ? null : Math.round(s.serviceRemainingSeconds),
      remainingWaterL: round(s.remainingWaterL),
      capacityL: round(s.capacityL),
      flowRateLpm: round(s.flowRateLpm, 2),
      totalWaterL: round(s.totalWaterL),
      vacation: s.vacation,
      closeReason: s.closeReason,
      firmwareVersion: this.firmwareVersion,
      model: this.deviceModel,
      serialNumber: this.serialNumber,
      deviceSerialNumber: this.deviceSerialNumber,
      regenerationCount: s.regenerationCount,
      settings: { ...s.settings, saltUsedKg: s.saltUsedKg },
    };
  }

  // ---------- connection ----------

  /**
   * Opens the MQTT client. `connected` resolves on the first CONNACK (or when the device is stopped first); without
   * retries it rejects on the first error. `first` resolves after the first attempt: true connected, false failed.
   * With retries mqtt.js reconnects by itself; its period is set before each attempt from the backoff, so the n-th
   * retry waits reconnectDelayMs(n) (the counter restarts at every CONNACK).
   */
  private connect(): { connected: Promise<void>; first: Promise<boolean> } {
    const policy: ReconnectBackoff = {
      initialMs: this.opts.reconnectPeriodMs ?? DEVICE_RECONNECT_BACKOFF.initialMs,
      maxMs: Math.max(
        this.opts.reconnectMaxMs ?? DEVICE_RECONNECT_BACKOFF.maxMs,
        this.opts.reconnectPeriodMs ?? DEVICE_RECONNECT_BACKOFF.initialMs,
      ),
      factor: DEVICE_RECONNECT_BACKOFF.factor,
    };
    const retries = this.retries;
    const random = this.opts.random ?? Math.random;
    this.failures = 0;
    const client = mqtt.connect(this.opts.brokerUrl, {
      clientId: this.mac,
      username: this.mac,
      password: this.opts.secret,
      clean: true,
      keepalive: 30,
      reconnectPeriod: retries ? reconnectDelayMs(0, policy, random) : 0,
      // A refused CONNACK (not yet provisioned, a changed password) is retried like a lost connection,
      // so a device the server provisions later comes online by itself.
      reconnectOnConnackError: retries,
      connectTimeout: this.opts.connectTimeoutMs ?? 10_000,
      ...(this.opts.scheduler ? { timerVariant: mqttTimerOf(this.opts.scheduler) } : {}),
      ...brokerTlsOptions(this.opts.brokerUrl, this.opts.brokerCa),
      will: {
        topic: deviceTopic(this.mac, "status"),
        payload: Buffer.from(JSON.stringify({ v: MQTT_PROTOCOL_VERSION, online: false })),
        qos: 1,
        retain: true,
      },
    });
    this.client = client;
    client.on("connect", () => {
      this.failures = 0;
      if (retries) client.options.reconnectPeriod = reconnectDelayMs(0, policy, random);
      this.onConnect(client);
    });
    client.on("reconnect", () => {
      // The attempt about to start follows `failures` failed ones: the next wait (if it fails too) grows.
      this.failures += 1;
      client.options.reconnectPeriod = reconnectDelayMs(this.failures, policy, random);
      this.emit("reconnecting", this.failures);
    });
    client.on("message", (topic, payload) => {
      if (topic === deviceTopic(this.mac, "cmd")) this.onCommand(payload);
      else if (topic === deviceTopic(this.mac, "receipt")) this.onReceipt(payload);
    });
    client.on("close", () => {
      this.reporting = false;
      // mqtt.js would send its unacknowledged publishes first on the next connection, ahead of the older reports the
      // broker acknowledged and lost: the outbox sends every report again, in order, instead.
      for (const [messageId, pending] of Object.entries(client.outgoing)) {
        if (pending.cb === this.reportSent) client.removeOutgoingMessage(Number(messageId));
      }
    });
    client.on("error", (err) => this.opts.log?.(`${this.mac}: ${err.message}`));
    let settleFirst: (ok: boolean) => void = () => {};
    const first = new Promise<boolean>((resolve) => {
      settleFirst = resolve;
    });
    const connected = new Promise<void>((resolve, reject) => {
      const onConnect = () => {
        cleanup();
        settleFirst(true);
        resolve();
      };
      const onFailure = (err?: Error) => {
        settleFirst(false);
        if (retries) {
          if (this.client !== client) {
            cleanup();
            resolve(); // stopped (or taken offline) before a CONNACK
          }
          return;
        }
        cleanup();
        if (this.client === client) this.client = null;
        client.end(true);
        reject(err ?? new Error("connection closed before CONNACK"));
      };
      const onError = (err: Error) => onFailure(err);
      const onClose = () => onFailure();
      const cleanup = () => {
        client.off("connect", onConnect);
        client.off("error", onError);
        client.off("close", onClose);
        client.off("end", onClose);
      };
      client.on("connect", onConnect);
      client.on("error", onError);
      client.on("close", onClose);
      client.on("end", onClose);
    });
    return { connected, first };
  }

  /**
   * After a CONNACK: subscribes to its cmd and receipt topics, publishes its status, sends every kept report again
   * (oldest first), then its state — the state's counters come after the older reports' (docs/device-protocol.md
   * §3.6).
   */
  private onConnect(client: MqttClient): void {
    client.subscribe([deviceTopic(this.mac, "cmd"), deviceTopic(this.mac, "receipt")], { qos: 1 }, (err) => {
      if (err) this.opts.log?.(`${this.mac}: subscribe failed: ${err.message}`);
    });
    this.publish("status", this.status(true), true);
    this.resendReports();
    this.reporting = true;
    this.publishState();
    this.emit("connect");
  }

  /** The publish callback of every report: mqtt.js's unacknowledged publishes of a closed connection are told by it. */
  private readonly reportSent = (err?: Error) => {
    if (err && err.message !== "Message removed") this.opts.log?.(`${this.mac}: report not sent: ${err.message}`);
  };

  /** Keeps a report in the outbox and sends it at once while reports flow (else the next connection sends it). */
  private report(report: OutboxReport): void {
    this.outbox.add(report);
    this.emit("report", report);
    if (this.reporting) this.sendReport(report);
  }

  /** Sends a kept report; a telemetry record sent before goes out marked `resent` (docs/device-protocol.md §3.6). */
  private sendReport(report: OutboxReport): void {
    const client = this.client;
    if (!client?.connected) return;
    const again = this.outbox.sent(report.body.id, performance.now());
    const body = again && report.channel === "telemetry" ? { ...report.body, resent: true } : report.body;
    client.publish(deviceTopic(this.mac, report.channel), this.json(body), { qos: 1 }, this.reportSent);
  }

  /** Sends every kept report again, oldest first. */
  private resendReports(): void {
    for (const report of this.outbox.reports()) this.sendReport(report);
  }

  /** A receipt from the cloud: the reports it names are forgotten. An unreadable receipt is logged and ignored. */
  private onReceipt(payload: Buffer): void {
    let raw: unknown;
    try {
      raw = JSON.parse(payload.toString("utf8"));
    } catch {
      raw = null;
    }
    const parsed = ZMqttReceipt.safeParse(raw);
    if (!parsed.success) {
      this.opts.log?.(`${this.mac}: unreadable receipt`);
      return;
    }
    this.outbox.receipt(parsed.data.ids);
    this.emit("receipt", parsed.data.ids);
  }

  private status(online: boolean): TMqttStatus {
    return { v: MQTT_PROTOCOL_VERSION, online, ts: new Date(this.valve.clock).toISOString() };
  }

  private json(body: unknown): string {
    return JSON.stringify(body);
  }

  private publish(channel: "status" | "state" | "telemetry" | "ack", body: unknown, retain = false): void {
    const client = this.client;
    if (!client?.connected) return; // offline: status, state and acks are not kept; the next state catches up
    const garbled = this.garbledPayload !== null && (channel === "state" || channel === "telemetry");
    const payload = garbled ? (this.garbledPayload ?? "") : this.json(body);
    client.publish(deviceTopic(this.mac, channel), payload, { qos: 1, retain }, (err) => {
      if (err) this.opts.log?.(`${this.mac}: publish ${channel} failed: ${err.message}`);
    });
  }

  // ---------- time ----------

  /**
   * A periodic job, first run one period from now as with setInterval. On the shared scheduler when there is one; then
   * with `spread` the first run is at a random phase within the period instead, so the devices of a fleet started
   * together do not all tick or report in the same instant.
   */
  private every(periodMs: number, fn: () => void, spread = false): ScheduledTask {
    const scheduler = this.opts.scheduler;
    if (scheduler) return scheduler.every(periodMs, fn, spread ? {} : { firstInMs: periodMs });
    const timer = setInterval(fn, periodMs);
    return { cancel: () => clearInterval(timer) };
  }

  /**
   * Advances the valve by the real time since the last tick (× the time scale). The valve is stepped to each station's
   * end within the tick and a station change is reported at that instant: a report taken only at the tick's end would
   * already count the water drawn after the change (up to tickMs × timeScale of valve time: 30 s at 60×, 12 min at
   * 1440×), so the state after a completed regeneration would show less than the capacity it was restored to, and a
   * station shorter than a tick would never be reported. The model gives the same result however the time is cut.
   */
  private tick(): void {
    const now = performance.now();
    const realSeconds = (now - this.lastTickAt) / 1000;
    this.lastTickAt = now;
    let left = realSeconds * this.valve.timeScale;
    for (let i = 0; left > 0; i++) {
      const toStationEnd = this.valve.snapshot().stationRemainingSeconds;
      // At most 64 stops a tick (a huge time scale); the rest of the tick then in one step, so no time is lost.
      const stop = i < 64 && toStationEnd !== null && toStationEnd > 0 && toStationEnd < left;
      const step = stop ? toStationEnd : left;
      left -= step;
      if (this.publishEvents(this.valve.tick(step), false)) this.publishState();
    }
    const intervalMs = (this.opts.stateIntervalMinutes ?? 15) * 60_000;
    const due = this.valve.clock - this.lastStateClock >= intervalMs && now - this.lastStateReal >= 1000;
    if (due) this.publishState();
    if (this.reporting && this.outbox.resendDue(now)) {
      this.outbox.backOff();
      this.resendReports();
    }
  }

  private publishTelemetry(): void {
    const s = this.valve.snapshot();
    const ts = new Date(s.clock).toISOString();
    if (ts === this.lastTelemetryTs) return;
    const body: TMqttTelemetry & { id: string } = {
      v: MQTT_PROTOCOL_VERSION,
      ts,
      totalWaterL: round(s.totalWaterL),
      flowRateLpm: round(s.flowRateLpm, 2),
      intervalWaterL: round(Math.max(0, s.totalWaterL - this.lastTelemetryTotal)),
      id: randomUUID(),
    };
    if (!this.connected) return;
    this.lastTelemetryTs = ts;
    this.lastTelemetryTotal = s.totalWaterL;
    // A garbled record is nothing the cloud can store or receipt: sent once, not kept.
    if (this.garbledPayload !== null) this.publish("telemetry", body);
    else this.report({ channel: "telemetry", body });
  }

  /** Publishes model events; with `withState` also the state when a station changed. Returns whether one did. */
  private publishEvents(events: SoftenerEvent[], withState = true): boolean {
    let stationChanged = false;
    for (const e of events) {
      const base = { v: MQTT_PROTOCOL_VERSION, ts: new Date(e.at).toISOString(), id: randomUUID() } as const;
      let msg: TMqttEvent;
      switch (e.type) {
        case "station":
          stationChanged = true;
          msg = { ...base, type: "station", station: e.station };
          break;
        case "close":
          msg = { ...base, type: "close", closeReason: e.closeReason };
          break;
        case "regeneration-end":
          msg = { ...base, type: e.type, waterL: e.waterL, saltKg: e.saltKg };
          break;
        case "regeneration-start":
        case "reset":
          msg = { ...base, type: e.type };
          break;
        case "vacation":
          stationChanged = true; // the vacation flag is part of the state
          msg = { ...base, type: "vacation" };
          break;
      }
      this.report({ channel: "event", body: msg });
    }
    if (stationChanged && withState) this.publishState();
    return stationChanged;
  }

  // ---------- commands ----------

  private onCommand(payload: Buffer): void {
    let raw: unknown;
    try {
      raw = JSON.parse(payload.toString("utf8"));
    } catch {
      this.opts.log?.(`${this.mac}: command is not JSON`);
      return;
    }
    const parsed = ZMqttCommand.safeParse(raw);
    if (!parsed.success) {
      const id = (raw as { id?: unknown })?.id;
      if (typeof id === "string" && id.length > 0 && id.length <= 64)
        this.ack(id, { ok: false, error: "invalid-command" });
      return;
    }
    const cmd = parsed.data;
    const prior = this.outcomes.get(cmd.id);
    if (prior) {
      this.ack(cmd.id, prior);
      this.emit("command", cmd, prior, true);
      return;
    }
    const outcome = this.apply(cmd);
    this.outcomes.set(cmd.id, outcome);
    if (this.outcomes.size > REMEMBERED_COMMANDS) this.outcomes.delete(this.outcomes.keys().next().value as string);
    this.appliedCommands.push({ id: cmd.id, name: cmd.name, outcome });
    this.ack(cmd.id, outcome);
    this.emit("command", cmd, outcome, false);
  }

  private ack(id: string, outcome: CommandOutcome): void {
    const body: TMqttAck = {
      v: MQTT_PROTOCOL_VERSION,
      id,
      ts: new Date(this.valve.clock).toISOString(),
      ok: outcome.ok,
      error: outcome.error,
    };
    this.publish("ack", body);
  }

  private apply(cmd: TMqttCommand): CommandOutcome {
    try {
      switch (cmd.name) {
        case "query":
          this.publishState();
          break;
        case "forced-regeneration":
          this.publishEvents(this.valve.startRegeneration("forced"));
          break;
        case "forced-flushing":
          this.publishEvents(this.valve.startFlushing());
          break;
        case "forced-switch":
          this.publishEvents(this.valve.forceSwitch());
          break;
        case "change-vacation":
          this.publishEvents(this.valve.setVacation(true));
          break;
        case "exit-vacation":
          this.publishEvents(this.valve.setVacation(false));
          break;
        case "sync-time": {
          const time = Date.parse(String(cmd.params.time ?? ""));
          if (!Number.isFinite(time)) return { ok: false, error: "invalid-time" };
          this.publishEvents(this.valve.syncTime(time));
          this.publishState();
          break;
        }
        case "set-config":
          this.publishEvents(this.valve.applySettings(cmd.params.settings ?? cmd.params));
          this.publishState();
          break;
        case "ota": {
          const params = ZMqttOtaParams.safeParse(cmd.params);
          if (!params.success) return { ok: false, error: "invalid-params" };
          if (params.data.url !== undefined) return this.startSignedOta(params.data);
          return this.startOta(params.data.version ?? null);
        }
      }
      return { ok: true, error: null };
    } catch (err) {
      if (err instanceof SoftenerError) return { ok: false, error: err.message };
      return { ok: false, error: "internal" };
    }
  }

  /**
   * Firmware update: "ota-progress" events 0–100 % in steps of 10 (one every otaStepMs), then the new version in the
   * state; or, with otaFailureChance, an "ota-failed" event part-way and the old version stays. Refused with busy
   * while one runs. The ack (ok) is sent at once; the outcome is in the events and the state.
   */
  private startOta(version: string | null): CommandOutcome {
    if (this.otaTimer || this.ota) return { ok: false, error: "busy" };
    const plan = planOta(this.firmwareVersion, version, this.opts.otaFailureChance ?? 0, this.otaRng);
    this.ota = plan;
    let i = 0;
    const step = () => {
      if (i < plan.progress.length) {
        this.otaEvent("ota-progress", plan.progress[i]);
        i += 1;
        if (i < plan.progress.length || plan.failAt !== null) return;
      } else if (plan.failAt !== null) {
        this.otaEvent("ota-failed", plan.failAt);
      }
      this.otaTimer?.cancel();
      this.otaTimer = null;
      this.ota = null;
      if (plan.failAt === null) this.firmwareVersion = plan.target;
      this.emit("ota", { ...plan, ok: plan.failAt === null });
      this.publishState();
    };
    this.otaTimer = this.every(this.opts.otaStepMs ?? 300, step);
    step();
    return { ok: true, error: null };
  }
  private otaEvent(type: "ota-progress" | "ota-failed", progress: number, reason?: OtaFailureReason): void {
    this.report({
      channel: "event",
      body: {
        v: MQTT_PROTOCOL_VERSION,
        ts: new Date(this.valve.clock).toISOString(),
        id: randomUUID(),
        type,
        progress,
        ...(reason ? { reason } : {}),
      } satisfies TMqttEvent,
    });
  }

  /**
   * Signed firmware update (docs/device-protocol.md §3.7 "Firmware update"): acknowledged at once, then downloads the
   * image from `url` with `Range` resume ("ota-progress" 0–80 % by bytes, in steps of 10), checks size, SHA-256 and the
   * vendor's signature with the pinned keys (90 %), installs and boots the new version (100 %, the new version in the
   * state). A failed download, a wrong hash or signature, or a failed boot (rolled back) end in "ota-failed" with the
   * reason and the old version kept. {@link otaFaults} injects a dropped connection, corruption, a bad signature or
   * a failed boot. Refused with busy while an update runs. Emits "ota" with the outcome when it ends; a device switched
   * off mid-download ({@link stop}) closes the download and emits nothing.
   */
  private startSignedOta(params: TMqttOtaParams): CommandOutcome {
    if (this.otaTimer || this.ota) return { ok: false, error: "busy" };
    const plan: OtaPlan = { from: this.firmwareVersion, target: params.version ?? "", progress: [], failAt: null };
    this.ota = plan;
    const faults = { ...this.otaFaults };
    const size = params.size ?? 0;
    let reported = -1;
    const progress = (p: number) => {
      if (p <= reported) return;
      reported = p;
      plan.progress.push(p);
      this.otaEvent("ota-progress", p);
    };
    const finish = (reason: OtaFailureReason | null, requests: number[]) => {
      if (reason) {
        plan.failAt = Math.max(0, reported);
        this.otaEvent("ota-failed", plan.failAt, reason);
      }
      this.ota = null;
      this.emit("ota", { ...plan, ok: reason === null, reason, requests });
      this.publishState();
    };
    const power = new AbortController();
    this.otaDownload = power;
    const run = async () => {
      progress(0);
      const download = await downloadImage(params.url ?? "", size, {
        dropAt: faults.dropAt,
        onBytes: (have) => progress(Math.floor((have / size) * 8) * 10),
        signal: power.signal,
      });
      if (power.signal.aborted) {
        // Switched off mid-download: nothing installed, nothing more reported; the update is forgotten.
        this.ota = null;
        return;
      }
      this.otaDownload = null;
      if (!download.bytes) return finish("download", download.requests);
      const bytes = download.bytes;
      if (faults.corrupt) bytes[Math.floor(bytes.length / 2)] ^= 0xff;
      let signature = params.signature;
      if (faults.badSignature && signature) {
        const forged = Buffer.from(signature, "base64");
        forged[0] ^= 0x01;
        signature = forged.toString("base64");
      }
      const problem = checkImage(bytes, { sha256: params.sha256, signature }, this.vendorKeys);
      if (problem) return finish(problem, download.requests);
      progress(90);
      this.firmwareVersion = plan.target;
      if (faults.bootFails) {
        this.firmwareVersion = plan.from;
        return finish("boot", download.requests);
      }
      progress(100);
      finish(null, download.requests);
    };
    run().catch((err: Error) => {
      this.otaDownload = null;
      if (power.signal.aborted) {
        this.ota = null;
        return;
      }
      this.opts.log?.(`${this.mac}: firmware update failed: ${err.message}`);
      finish("download", []);
    });
    return { ok: true, error: null };
  }
}
