import { randomUUID } from "node:crypto";
import {
  allDevicesTopic,
  type DeviceCommandName,
  deviceTopic,
  MQTT_BOUNDS,
  MQTT_MAX_PACKET_BYTES,
  MQTT_PROTOCOL_VERSION,
  type MqttChannel,
  parseDeviceTopic,
  type TDeviceChangeMessage,
  type TMqttCommand,
  ZMqttAck,
  ZMqttEvent,
  ZMqttState,
  ZMqttStatus,
  ZMqttTelemetry,
} from "@aquapilot/contract";
import mqtt, { type MqttClient } from "mqtt";
import type { Bus } from "../bus.ts";
import type { Db } from "../db/index.ts";
import { AppError } from "../http/errors.ts";
import type { DeviceCommandPort } from "../ports.ts";
import { type ClockRateState, foldClockRate } from "./clock-rate.ts";
import type { IotLogger } from "./logger.ts";
import {
  checkCounter,
  isPlausibleDeviceTime,
  pinnedDeviceTime,
  storedStationStart,
  withinDeviceEra,
} from "./plausibility.ts";
import { stationTiming } from "./station-timing.ts";

/** Channels the gateway subscribes to for every device. */
const INBOUND: MqttChannel[] = ["status", "state", "telemetry", "event", "ack"];

/** Default wait for an acknowledgement, ms (docs/device-protocol.md "Timeouts"). */
export const DEFAULT_ACK_TIMEOUT_MS = 10_000;

/**
 * Why the gateway refuses a device message (issue 11; docs/device-protocol.md §5.1). A refused message is counted
 * ({@link DeviceGateway.rejected}), logged with the device's MAC and never stored:
 * too-large — payload over MQTT_MAX_PACKET_BYTES; not-json — not a UTF-8 JSON text; invalid — outside the contract's
 * schema (types, bounds, lengths, times); counter-decreased — total water or regenerations lower than stored outside a
 * reconnection; unknown-device — a MAC the cloud does not know.
 */
export const GATEWAY_REJECT_REASONS = [
  "too-large",
  "not-json",
  "invalid",
  "counter-decreased",
  "unknown-device",
] as const;
export type GatewayRejectReason = (typeof GATEWAY_REJECT_REASONS)[number];

/**
 * What the gateway corrected in messages it accepted (issue 11), counts since start: messages whose device time was
 * implausible (stored with the receive time, or for a state report the pinned reading), station starts dropped as
 * inconsistent, setting keys dropped (unknown or out of range), counter restarts accepted after a reconnection.
 */
export interface GatewayCorrections {
  timeReplaced: number;
  stationStartDropped: number;
  settingsDropped: number;
  counterRestarts: number;
}

/** The same warning about one device is written at most once per this many ms (the rest are counted). */
const LOG_GATE_MS = 60_000;

/** Options of {@link DeviceGateway.connect}. */
export interface GatewayOptions {
  db: Db;
  bus: Bus;
  /** Broker URL, e.g. mqtt://127.0.0.1:1883 (credentials in the URL are used when username is not given). */
  url: string;
  username?: string;
  password?: string;
  logger: IotLogger;
  /** MQTT client id; default `gateway-<random>` so several server processes can each run one. */
  clientId?: string;
  /** Keeps what is derived from telemetry up to date (see {@link TelemetryHook}). */
  onTelemetry: TelemetryHook;
}

/**
 * Called once a telemetry record is stored for the first time (a redelivered one stored nothing and calls nothing),
 * with the record's time `ts` (ISO UTC): the statistics module's hourly and daily rollups (issue 4) are written here,
 * in the device's order, before the change is announced. The device link never imports a module (issue 13): the
 * composition root (system.ts) passes the module's function. Errors fail the message's handling like a store error.
 */
export type TelemetryHook = (db: Db, deviceId: string, ts: string) => Promise<unknown>;

type Kind = TDeviceChangeMessage["kind"];

/** The part of a zod issue the gateway logs (path and message; never the input). */
interface ZodIssueLike {
  path: PropertyKey[];
  message: string;
}

/**
 * Called after a device event is stored — and again for a redelivered one — so records derived from it (user
 * messages, issue 5) are written idempotently even when an earlier attempt crashed half-way. Errors are logged.
 */
export type DeviceEventHook = (event: { deviceId: string; eventId: string; type: string }) => Promise<unknown>;

interface Waiter {
  resolve: (r: { ok: boolean; error: string | null }) => void;
}

/**
 * The cloud side of the device link: an MQTT client of the broker that records what devices report and sends
 * them commands (docs/device-protocol.md). Every message is validated with the contract's zod schemas and the
 * plausibility rules of issue 11 (plausibility.ts: the device time, counters that never go down); a refused one is
 * counted per reason ({@link rejected}), logged with the MAC and never stored. Accepted ones are written with
 * Kysely, and announced on the bus as `device.changed` with a full {@link TDeviceChangeMessage} built from the stored
 * row. Messages of one device are processed in arrival order.
 *
 * Scale-out note: every gateway subscribes to every device here; with several server processes use a broker
 * with shared subscriptions (`$share/gw/aq/v1/devices/+/…`) so each message is recorded once — the records are
 * idempotent (upserts, primary keys) so a duplicate costs a write, not a wrong state.
 */
export class DeviceGateway implements DeviceCommandPort {
  private readonly chains = new Map<string, Promise<void>>();
  private readonly waiters = new Map<string, Set<Waiter>>();
  private readonly unsubscribeBus: () => void;
  private closed = false;
  private eventHook: DeviceEventHook | null = null;
  private readonly rejectedCounts = Object.fromEntries(GATEWAY_REJECT_REASONS.map((r) => [r, 0])) as Record<
    GatewayRejectReason,
    number
  >;
  private readonly correctedCounts: GatewayCorrections = {
    timeReplaced: 0,
    stationStartDropped: 0,
    settingsDropped: 0,
    counterRestarts: 0,
  };
  /** Devices that connected again (a live `online: true`) and whose counters may restart once. */
  private readonly restartAllowed = new Set<string>();
  private readonly logGate = new Map<string, { until: number; suppressed: number }>();
  /** Last receive time (ms) given to a record of each device whose own time was replaced: kept strictly increasing. */
  private readonly lastStamp = new Map<string, number>();

  private readonly client: MqttClient;
  private readonly db: Db;
  private readonly bus: Bus;
  private readonly logger: IotLogger;
  private readonly onTelemetry: TelemetryHook;

  private constructor(client: MqttClient, db: Db, bus: Bus, logger: IotLogger, onTelemetry: TelemetryHook) {
    this.client = client;
    this.db = db;
    this.bus = bus;
    this.logger = logger;
    this.onTelemetry = onTelemetry;
    // Acks are matched through the bus, so a waiter is answered even when another process recorded the ack.
    this.unsubscribeBus = bus.subscribe((event) => {
      if (event.type !== "device.changed" || event.message.kind !== "ack" || !event.message.ack) return;
      const set = this.waiters.get(event.message.ack.commandId);
      if (!set) return;
      this.waiters.delete(event.message.ack.commandId);
      for (const w of set) w.resolve({ ok: event.message.ack.ok, error: event.message.ack.error });
    });
    client.on("message", (topic, payload, packet) => this.enqueue(topic, payload, packet.retain));
  }

  /** Refused device messages since start, per reason (issue 11); a copy. */
  get rejected(): Readonly<Record<GatewayRejectReason, number>> {
    return { ...this.rejectedCounts };
  }

  /** Corrections made to accepted device messages since start (issue 11); a copy. */
  get corrected(): Readonly<GatewayCorrections> {
    return { ...this.correctedCounts };
  }

  /**
   * Connects to the broker and subscribes (QoS 1) to status, state, telemetry, event and ack of every device.
   * @throws when the broker cannot be reached or refuses the credentials.
   */
  static async connect(options: GatewayOptions): Promise<DeviceGateway> {
    const url = new URL(options.url);
    const username = options.username ?? (url.username ? decodeURIComponent(url.username) : undefined);
    const password = options.password ?? (url.password ? decodeURIComponent(url.password) : undefined);
    url.username = "";
    url.password = "";
    const client = await mqtt.connectAsync(url.toString(), {
      clientId: options.clientId ?? `gateway-${randomUUID().slice(0, 12)}`,
      username,
      password,
      clean: true,
      keepalive: 30,
      reconnectPeriod: 1000,
      connectTimeout: 10_000,
    });
    const gateway = new DeviceGateway(client, options.db, options.bus, options.logger, options.onTelemetry);
    client.on("error", (err) => options.logger.warn({ err: err.message }, "gateway mqtt error"));
    client.on("reconnect", () => options.logger.info({}, "gateway reconnecting to the broker"));
    await client.subscribeAsync(
      INBOUND.map((c) => allDevicesTopic(c)),
      { qos: 1 },
    );
    options.logger.info({ url: url.toString() }, "device gateway connected");
    return gateway;
  }

  /** Sets (or with null removes) the {@link DeviceEventHook}; system.ts points it at the message center. */
  setEventHook(hook: DeviceEventHook | null): void {
    this.eventHook = hook;
  }

  /** True while connected to the broker. */
  get connected(): boolean {
    return this.client.connected;
  }

  /** Resolves when every message received so far has been recorded (tests, graceful shutdown). */
  async idle(): Promise<void> {
    while (this.chains.size > 0) await Promise.all([...this.chains.values()]);
  }

  /**
   * Records the command as pending and publishes it to the device's `cmd` topic (QoS 1). A commandId already
   * recorded is not sent again.
   * @throws AppError NotFound for an unknown device, DeviceOffline when the device is not connected.
   */
  async sendCommand(input: {
    deviceId: string;
    name: DeviceCommandName;
    params?: Record<string, unknown>;
    userId?: string | null;
    commandId?: string;
  }): Promise<{ commandId: string }> {
    const device = await this.db
      .selectFrom("devices")
      .leftJoin("device_state", "device_state.device_id", "devices.id")
      .select(["devices.id", "devices.mac", "device_state.online"])
      .where("devices.id", "=", input.deviceId)
      .executeTakeFirst();
    if (!device) throw new AppError("NotFound", "device.notFound");
    const commandId = input.commandId ?? randomUUID();
    const existing = await this.db
      .selectFrom("device_commands")
      .select(["device_id"])
      .where("id", "=", commandId)
      .executeTakeFirst();
    if (existing) {
      if (existing.device_id !== device.id) throw new AppError("Conflict", "device.commandIdInUse");
      return { commandId };
    }
    if (device.online !== 1 || !this.client.connected) throw new AppError("DeviceOffline", "device.offline");
    const params = input.params ?? {};
    const inserted = await this.db
      .insertInto("device_commands")
      .values({
        id: commandId,
        device_id: device.id,
        user_id: input.userId ?? null,
        name: input.name,
        params_json: JSON.stringify(params),
        status: "pending",
        error: null,
        created_at: new Date().toISOString(),
        acked_at: null,
      })
      .onConflict((oc) => oc.column("id").doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return { commandId }; // a concurrent send won
    const body: TMqttCommand = {
      v: MQTT_PROTOCOL_VERSION,
      id: commandId,
      ts: new Date().toISOString(),
      name: input.name,
      params,
    };
    try {
      await this.client.publishAsync(deviceTopic(device.mac, "cmd"), JSON.stringify(body), { qos: 1 });
    } catch (err) {
      await this.db
        .updateTable("device_commands")
        .set({ status: "failed", error: "publish-failed" })
        .where("id", "=", commandId)
        .execute();
      this.logger.warn({ commandId, err: (err as Error).message }, "command publish failed");
      throw new AppError("DeviceOffline", "device.offline");
    }
    return { commandId };
  }

  /**
   * Sends a command and resolves with its acknowledgement. A repeated commandId already answered resolves at once
   * with the recorded outcome.
   * @throws AppError DeviceOffline when the device is offline or does not answer within `timeoutMs`
   * (default 10 000 ms; the command is then marked failed/timeout unless a late ack arrives).
   */
  async sendCommandAndWait(input: {
    deviceId: string;
    name: DeviceCommandName;
    params?: Record<string, unknown>;
    userId?: string | null;
    commandId?: string;
    timeoutMs?: number;
  }): Promise<{ commandId: string; ok: boolean; error: string | null }> {
    const commandId = input.commandId ?? randomUUID();
    let timer: NodeJS.Timeout | undefined;
    const waiter: Waiter = { resolve: () => {} };
    const answered = new Promise<{ ok: boolean; error: string | null }>((resolve) => {
      waiter.resolve = resolve;
    });
    const set = this.waiters.get(commandId) ?? new Set<Waiter>();
    set.add(waiter);
    this.waiters.set(commandId, set);
    const forget = () => {
      const s = this.waiters.get(commandId);
      s?.delete(waiter);
      if (s?.size === 0) this.waiters.delete(commandId);
      if (timer) clearTimeout(timer);
    };
    try {
      await this.sendCommand({ ...input, commandId });
      const recorded = await this.db
        .selectFrom("device_commands")
        .select(["status", "error"])
        .where("id", "=", commandId)
        .executeTakeFirst();
      if (recorded && recorded.status === "done") return { commandId, ok: true, error: null };
      if (recorded && recorded.status === "failed" && recorded.error !== "timeout") {
        return { commandId, ok: false, error: recorded.error };
      }
      const timeoutMs = input.timeoutMs ?? DEFAULT_ACK_TIMEOUT_MS;
      const timedOut = new Promise<null>((resolve) => {
        timer = setTimeout(() => resolve(null), timeoutMs);
      });
      const outcome = await Promise.race([answered, timedOut]);
      if (!outcome) {
        await this.db
          .updateTable("device_commands")
          .set({ status: "failed", error: "timeout" })
          .where("id", "=", commandId)
          .where("status", "=", "pending")
          .execute();
        throw new AppError("DeviceOffline", "device.offline");
      }
      return { commandId, ...outcome };
    } finally {
      forget();
    }
  }

  /** Unsubscribes from the bus and disconnects from the broker; pending waits time out as offline. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.unsubscribeBus();
    await this.idle().catch(() => undefined);
    await this.client.endAsync().catch(() => undefined);
  }

  // ---------- inbound ----------

  private enqueue(topic: string, payload: Buffer, retained: boolean): void {
    const parsed = parseDeviceTopic(topic);
    if (!parsed || parsed.channel === "cmd") return;
    if (payload.length > MQTT_MAX_PACKET_BYTES) {
      // Refused before queueing: an external broker may pass what the embedded one closes the connection for.
      this.reject(parsed.mac, parsed.channel, "too-large", { bytes: payload.length });
      return;
    }
    const previous = this.chains.get(parsed.mac) ?? Promise.resolve();
    const next = previous
      .then(() => this.handle(parsed.mac, parsed.channel, payload, retained))
      .catch((err: Error) => this.logger.error({ mac: parsed.mac, topic, err: err.message }, "device message failed"))
      .finally(() => {
        if (this.chains.get(parsed.mac) === next) this.chains.delete(parsed.mac);
      });
    this.chains.set(parsed.mac, next);
  }

  /**
   * Counts a refused message and logs it with the device's MAC (never the payload); the same reason for the same
   * device is logged at most once a minute, with the number of refusals not logged since.
   */
  private reject(mac: string, channel: MqttChannel, reason: GatewayRejectReason, detail: object = {}): void {
    this.rejectedCounts[reason]++;
    this.gatedLog(reason === "unknown-device" ? "info" : "warn", mac, reason, {
      mac,
      channel,
      reason,
      ...detail,
    });
  }

  private gatedLog(level: "info" | "warn", mac: string, what: string, obj: Record<string, unknown>): void {
    const key = `${mac}|${what}`;
    const nowMs = Date.now();
    const gate = this.logGate.get(key);
    if (gate && gate.until > nowMs) {
      gate.suppressed++;
      return;
    }
    if (this.logGate.size >= 10_000) this.logGate.clear();
    this.logGate.set(key, { until: nowMs + LOG_GATE_MS, suppressed: 0 });
    const message = obj.reason ? "device message refused" : `device message corrected: ${what}`;
    this.logger[level](gate?.suppressed ? { ...obj, notLoggedSince: gate.suppressed } : obj, message);
  }

  private async handle(mac: string, channel: MqttChannel, payload: Buffer, retained: boolean): Promise<void> {
    if (payload.length === 0) return; // a cleared retained message
    let json: unknown;
    try {
      json = JSON.parse(payload.toString("utf8"));
    } catch {
      this.reject(mac, channel, "not-json");
      return;
    }
    // One read gives the device, its stored counters and its measured clock (no extra read per message).
    const device = await this.db
      .selectFrom("devices")
      .leftJoin("device_state", "device_state.device_id", "devices.id")
      .select([
        "devices.id",
        "devices.family_id",
        "device_state.total_water_l",
        "device_state.regeneration_count",
        "device_state.clock_rate",
        "device_state.rate_anchor_ts",
        "device_state.rate_anchor_at",
      ])
      .where("devices.mac", "=", mac)
      .executeTakeFirst();
    if (!device) {
      this.reject(mac, channel, "unknown-device");
      return;
    }
    const nowDate = new Date();
    const now = nowDate.toISOString();
    const clock: ClockRateState = {
      rate: device.clock_rate ?? null,
      anchorTs: device.rate_anchor_ts ?? null,
      anchorAt: device.rate_anchor_at ?? null,
    };
    switch (channel) {
      case "status": {
        const msg = this.validate(ZMqttStatus, json, mac, channel);
        if (!msg) return;
        await this.db
          .insertInto("device_state")
          .values({
            device_id: device.id,
            online: msg.online ? 1 : 0,
            vacation: 0,
            regeneration_count: 0,
            updated_at: now,
          })
          .onConflict((oc) => oc.column("device_id").doUpdateSet({ online: msg.online ? 1 : 0, updated_at: now }))
          .execute();
        // A live "online" means the device (re)connected: its counters may start again once (a reboot). A retained
        // status replayed to a (re)subscribing gateway says nothing new.
        if (msg.online && !retained) this.restartAllowed.add(mac);
        else if (!msg.online) this.restartAllowed.delete(mac);
        await this.announce(device.id, "online");
        return;
      }
      case "state": {
        const msg = this.validate(ZMqttState, json, mac, channel);
        if (!msg) return;
        if (!this.countersAccepted(mac, channel, device, msg.totalWaterL, msg.regenerationCount)) return;
        const { reportTs, foldTs } = this.deviceTime(mac, msg.ts, nowDate, clock, true);
        const startedAt = storedStationStart(msg.stationStartedAt, msg.ts, reportTs, MQTT_BOUNDS.seconds);
        if (msg.stationStartedAt && !startedAt) this.correctedCounts.stationStartDropped++;
        const rawSettings = (json as { settings?: unknown }).settings;
        const dropped =
          rawSettings && typeof rawSettings === "object"
            ? Object.keys(rawSettings).length - Object.keys(msg.settings ?? {}).length
            : 0;
        if (dropped > 0) {
          this.correctedCounts.settingsDropped += dropped;
          this.gatedLog("info", mac, "settings", { mac, channel, droppedSettings: dropped });
        }
        const rate = foldClockRate(clock, foldTs, nowDate);
        const values = {
          clock_rate: rate.rate,
          rate_anchor_ts: rate.anchorTs,
          rate_anchor_at: rate.anchorAt,
          reported_at: now,
          station: msg.station,
          station_remaining_seconds: msg.stationRemainingSeconds,
          station_started_at: startedAt,
          station_duration_seconds: msg.stationDurationSeconds ?? null,
          service_remaining_seconds: msg.serviceRemainingSeconds ?? null,
          remaining_water_l: msg.remainingWaterL,
          capacity_l: msg.capacityL,
          flow_rate_lpm: msg.flowRateLpm,
          total_water_l: msg.totalWaterL,
          vacation: msg.vacation ? 1 : 0,
          close_reason: msg.closeReason,
          regeneration_count: msg.regenerationCount,
          last_report_time: reportTs,
          updated_at: now,
          ...(msg.settings ? { settings_json: JSON.stringify(msg.settings) } : {}),
        };
        await this.db.transaction().execute(async (trx) => {
          // `online` is only ever written from status: a retained state can outlive the connection.
          await trx
            .insertInto("device_state")
            .values({ device_id: device.id, online: 0, ...values })
            .onConflict((oc) => oc.column("device_id").doUpdateSet(values))
            .execute();
          await trx
            .updateTable("devices")
            .set({
              model: msg.model,
              serial_number: msg.serialNumber,
              device_serial_number: msg.deviceSerialNumber,
              firmware_version: msg.firmwareVersion,
            })
            .where("id", "=", device.id)
            .execute();
        });
        await this.announce(device.id, "state");
        return;
      }
      case "telemetry": {
        const msg = this.validate(ZMqttTelemetry, json, mac, channel);
        if (!msg) return;
        if (!this.countersAccepted(mac, channel, device, msg.totalWaterL, null)) return;
        const { recordTs } = this.deviceTime(mac, msg.ts, nowDate, clock, false);
        const inserted = await this.db
          .insertInto("device_telemetry")
          .values({
            device_id: device.id,
            ts: recordTs,
            total_water_l: msg.totalWaterL,
            flow_rate_lpm: msg.flowRateLpm,
            interval_water_l: msg.intervalWaterL,
            received_at: now,
          })
          .onConflict((oc) => oc.columns(["device_id", "ts"]).doNothing())
          .executeTakeFirst();
        if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return;
        // Hourly/daily statistics (issue 4), idempotent, in real time: the hour the water arrived (issue 10).
        await this.onTelemetry(this.db, device.id, now);
        // The clock rate is measured on state reports only: no extra read on the busiest path.
        await this.db
          .updateTable("device_state")
          .set({ flow_rate_lpm: msg.flowRateLpm, total_water_l: msg.totalWaterL, updated_at: now })
          .where("device_id", "=", device.id)
          .execute();
        await this.announce(device.id, "state");
        return;
      }
      case "event": {
        const msg = this.validate(ZMqttEvent, json, mac, channel);
        if (!msg) return;
        const { recordTs } = this.deviceTime(mac, msg.ts, nowDate, clock, false);
        const inserted = await this.db
          .insertInto("device_events")
          .values({
            id: msg.id,
            device_id: device.id,
            type: msg.type,
            close_reason: msg.closeReason ?? null,
            station: msg.station ?? null,
            ts: recordTs,
            received_at: now,
            progress: msg.progress ?? null,
            water_l: msg.waterL ?? null,
            salt_kg: msg.saltKg ?? null,
          })
          .onConflict((oc) => oc.columns(["device_id", "id"]).doNothing())
          .executeTakeFirst();
        if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0) {
          await this.announce(device.id, "event", {
            event: { type: msg.type, closeReason: msg.closeReason ?? null, progress: msg.progress ?? null },
          });
        }
        // Also on a redelivery: the hook is idempotent and repairs a crash between storing and deriving.
        await this.eventHook?.({ deviceId: device.id, eventId: msg.id, type: msg.type }).catch((err: Error) =>
          this.logger.error({ mac, eventId: msg.id, err: err.message }, "device event hook failed"),
        );
        return;
      }
      case "ack": {
        const msg = this.validate(ZMqttAck, json, mac, channel);
        if (!msg) return;
        const updated = await this.db
          .updateTable("device_commands")
          .set({ status: msg.ok ? "done" : "failed", error: msg.ok ? null : (msg.error ?? "failed"), acked_at: now })
          .where("id", "=", msg.id)
          .where("device_id", "=", device.id)
          .executeTakeFirst();
        if (Number(updated.numUpdatedRows) === 0) {
          this.logger.info({ mac, commandId: msg.id }, "ack for an unknown command ignored");
          return;
        }
        await this.announce(device.id, "ack", {
          ack: { commandId: msg.id, ok: msg.ok, error: msg.ok ? null : (msg.error ?? "failed") },
        });
        return;
      }
      default:
        return;
    }
  }

  private validate<T>(
    schema: {
      safeParse(v: unknown): { success: true; data: T } | { success: false; error: { issues: ZodIssueLike[] } };
    },
    json: unknown,
    mac: string,
    channel: MqttChannel,
  ): T | null {
    const r = schema.safeParse(json);
    if (r.success) return r.data;
    // Where and what, never the value: the payload is the device's and may be anything.
    const issues = r.error.issues
      .slice(0, 3)
      .map((i) => `${i.path.map(String).join(".").slice(0, 80) || "(message)"}: ${i.message.slice(0, 120)}`);
    this.reject(mac, channel, "invalid", { issues });
    return null;
  }

  /**
   * Applies the counter rule (docs/device-protocol.md §5.1): total water and regenerations never go down, except
   * once right after the device connected again. Counts and logs a refusal; answers whether the message may go on.
   */
  private countersAccepted(
    mac: string,
    channel: MqttChannel,
    stored: { total_water_l?: number | null; regeneration_count?: number | null },
    totalWaterL: number,
    regenerationCount: number | null,
  ): boolean {
    const restart = this.restartAllowed.has(mac);
    const verdicts = [checkCounter(stored.total_water_l, totalWaterL, restart, MQTT_BOUNDS.waterL)];
    if (regenerationCount !== null) {
      verdicts.push(checkCounter(stored.regeneration_count, regenerationCount, restart, MQTT_BOUNDS.count));
    }
    if (verdicts.includes("decreased")) {
      this.reject(mac, channel, "counter-decreased", {
        storedTotalWaterL: stored.total_water_l ?? null,
        totalWaterL,
      });
      return false;
    }
    this.restartAllowed.delete(mac);
    if (verdicts.includes("restart")) {
      this.correctedCounts.counterRestarts++;
      this.logger.info(
        { mac, channel, totalWaterL, regenerationCount },
        "device counters restarted after a reconnection",
      );
    }
    return true;
  }

  /**
   * Where a message's device time `ts` is stored (docs/device-protocol.md §5.1): a plausible time as it is; else
   * records (telemetry, events) get the receive time and a state report the reading pinned a day from now, so the
   * clock-drift warning asks for a time sync. `foldTs` is what the clock-rate measurement sees: the raw reading when
   * it lies in 2000–2099 (the clock's pace is real even when its setting is wrong), else the pinned one.
   */
  private deviceTime(
    mac: string,
    ts: string,
    now: Date,
    clock: ClockRateState,
    isState: boolean,
  ): { recordTs: string; reportTs: string; foldTs: string } {
    if (isPlausibleDeviceTime(ts, now, clock)) return { recordTs: ts, reportTs: ts, foldTs: ts };
    this.correctedCounts.timeReplaced++;
    const reportTs = pinnedDeviceTime(ts, now);
    this.gatedLog("info", mac, "time", { mac, deviceTime: ts, receivedAt: now.toISOString(), state: isState });
    // Two messages of one device arriving in the same millisecond must not share a (device, ts) key.
    const stamp = Math.max(now.getTime(), (this.lastStamp.get(mac) ?? 0) + 1);
    if (this.lastStamp.size >= 100_000) this.lastStamp.clear();
    this.lastStamp.set(mac, stamp);
    return {
      recordTs: new Date(stamp).toISOString(),
      reportTs,
      foldTs: withinDeviceEra(Date.parse(ts)) ? ts : reportTs,
    };
  }

  /** Builds the change message from the stored rows and publishes it on the bus. */
  private async announce(
    deviceId: string,
    kind: Kind,
    extra: Pick<TDeviceChangeMessage, "event" | "ack"> = {},
  ): Promise<void> {
    const row = await this.db
      .selectFrom("devices")
      .leftJoin("device_state", "device_state.device_id", "devices.id")
      .select([
        "devices.id",
        "devices.mac",
        "devices.family_id",
        "device_state.online",
        "device_state.station",
        "device_state.station_remaining_seconds",
        "device_state.remaining_water_l",
        "device_state.flow_rate_lpm",
        "device_state.last_report_time",
        "device_state.reported_at",
        "device_state.station_started_at",
        "device_state.station_duration_seconds",
        "device_state.service_remaining_seconds",
        "device_state.clock_rate",
      ])
      .where("devices.id", "=", deviceId)
      .executeTakeFirst();
    if (!row) return;
    const message: TDeviceChangeMessage = {
      kind,
      deviceId: row.id,
      mac: row.mac,
      familyId: row.family_id,
      online: row.online === 1,
      station: row.station ?? null,
      stationRemainingSeconds: row.station_remaining_seconds ?? null,
      ...stationTiming(row),
      remainingWaterL: row.remaining_water_l ?? null,
      flowRateLpm: row.flow_rate_lpm ?? null,
      lastReportTime: row.last_report_time ?? null,
      event: extra.event ?? null,
      ack: extra.ack ?? null,
    };
    this.bus.publish({ type: "device.changed", familyId: row.family_id, deviceId: row.id, message });
  }
}
