import { randomUUID } from "node:crypto";
import {
  type DeviceCommandName,
  MQTT_MAX_PACKET_BYTES,
  MQTT_PROTOCOL_VERSION,
  MQTT_RECEIPT_MAX_IDS,
  type TMqttCommand,
} from "@aquapilot/contract";
import type { Bus } from "../bus.ts";
import type { Db } from "../db/index.ts";
import { AppError } from "../http/errors.ts";
import type { DeviceCommandPort } from "../ports.ts";
import { DeviceAssignment, type DeviceAssignmentOptions } from "./assignment.ts";
import { presentChange, readChangeRows } from "./change-message.ts";
import { DeviceMessageChecks, type GatewayCorrections, type GatewayRejectReason } from "./checks.ts";
import { DEVICE_HEARD_WINDOW_MS, linkOnline } from "./live-state.ts";
import type { IotLogger } from "./logger.ts";
import { type DeviceEventHook, DeviceRecords, type DeviceRecordsDeps, type TelemetryHook } from "./records.ts";
import { type InboundMessage, MqttTransport, type TransportOptions } from "./transport.ts";

/** Default wait for an acknowledgement, ms (docs/device-protocol.md "Timeouts"). */
export const DEFAULT_ACK_TIMEOUT_MS = 10_000;
/** How often the gateway looks for devices that went quiet, ms (docs/device-protocol.md §5.2). */
export const DEFAULT_QUIET_SWEEP_MS = 15_000;
/** How often, at most, the gateway logs its counts of refused and corrected messages when they changed, ms. */
const COUNTS_LOG_MS = 60_000;

/** Options of {@link DeviceGateway.connect}. */
export interface GatewayOptions extends TransportOptions {
  db: Db;
  bus: Bus;
  /** Keeps what is derived from telemetry up to date (see {@link TelemetryHook}). */
  onTelemetry: TelemetryHook;
  /** Batch size and wait of telemetry writes (telemetry-batch.ts defaults; tests). */
  telemetryBatch?: DeviceRecordsDeps["telemetryBatch"];
  /** Timings of the `assigned` subscriptions other than assignment.ts's defaults (tests). */
  assignmentTimings?: Pick<DeviceAssignmentOptions, "listenMs" | "heartbeatMs" | "peerTimeoutMs" | "graceMs">;
  /** Period of the quiet-device sweep, ms (default {@link DEFAULT_QUIET_SWEEP_MS}; 0 turns it off; tests). */
  quietSweepMs?: number;
  /** The clock of the quiet-device sweep (default Date.now; tests move it on). */
  now?: () => number;
}

interface Waiter {
  resolve: (r: { ok: boolean; error: string | null }) => void;
}

/**
 * The cloud side of the device link: an MQTT client of the broker that records what devices report and sends
 * them commands (docs/device-protocol.md). Every message is validated with the contract's zod schemas and the
 * plausibility rules (plausibility.ts: the device time; a counter that goes down is a counter reset,
 * stored and recorded); a refused one is counted per reason ({@link rejected}), logged with the MAC and never stored,
 * and the device remembers since when its reports are refused. A device counts as online only while heard within the
 * report interval plus margin; a sweep announces those that went quiet (docs/device-protocol.md §5.2). Accepted ones are written with
 * Kysely, and announced on the bus as `device.changed` with a full TDeviceChangeMessage built from the stored
 * row. Messages of one device are written in arrival order (in write batches, records.ts). Telemetry and events that
 * carry a report id are receipted to the device on its `receipt` topic once stored (docs/device-protocol.md §3.6): the
 * device keeps each report until then and sends it again after a reconnection, so a report the broker acknowledged
 * and then lost (a broker crash) still reaches the database, once.
 *
 * It composes the parts: the MQTT side (transport.ts), the checks and their counts (checks.ts), the writers
 * (records.ts) and the change message (change-message.ts); the command port (sendCommand, sendCommandAndWait) is its
 * own.
 *
 * Scale-out: with an external broker the gateways of all processes share the devices out among themselves
 * (assignment.ts), each holding plain persistent subscriptions to its own devices' topics, so each device
 * message is handled by one process and a broker restart drops none (`shared` and `plain` modes: transport.ts); a
 * message is acknowledged to the broker only once recorded (transport.ts), and a redelivery writes nothing twice
 * (records.ts: telemetry keyed by device and time, events by id, state and status upserts, an ack only moves a command
 * that is not already settled with the same outcome).
 */
export class DeviceGateway implements DeviceCommandPort {
  /** Messages handed to the records and not yet settled (for {@link idle}). */
  private readonly inFlight = new Set<Promise<void>>();
  private readonly receivedPerDevice = new Map<string, number>();
  private readonly waiters = new Map<string, Set<Waiter>>();
  private readonly unsubscribeBus: () => void;
  private closed = false;
  private readonly checks: DeviceMessageChecks;
  private readonly records: DeviceRecords;

  private readonly transport: MqttTransport;
  /** The devices this gateway subscribes to (`assigned` subscriptions on an external broker), else null. */
  private assignment: DeviceAssignment | null = null;
  private readonly db: Db;
  private readonly bus: Bus;
  private readonly logger: IotLogger;
  private readonly now: () => number;
  private sweepTimer: NodeJS.Timeout | null = null;
  /** Where the previous sweep's window ended (server ms): each quiet device is announced by one sweep. */
  private sweptUntil: number | null = null;
  private countsLoggedAt = 0;
  /** Period of the quiet-device sweep, ms (0: run by hand; the first sweep looks back two default periods). */
  private readonly sweepMs: number;
  private countsLogged = "";
  /** Report ids to receipt per device (MAC), gathered while a write batch settles ({@link receipt}). */
  private readonly receipts = new Map<string, string[]>();
  private receiptsScheduled = false;

  private constructor(transport: MqttTransport, options: GatewayOptions) {
    const { db, bus, logger } = options;
    this.transport = transport;
    this.db = db;
    this.bus = bus;
    this.logger = logger;
    this.now = options.now ?? Date.now;
    this.checks = new DeviceMessageChecks(logger);
    this.records = new DeviceRecords({
      db,
      bus,
      logger,
      checks: this.checks,
      onTelemetry: options.onTelemetry,
      telemetryBatch: options.telemetryBatch,
    });
    // Acks are matched through the bus, so a waiter is answered even when another process recorded the ack.
    this.unsubscribeBus = bus.subscribe((event) => {
      if (event.type !== "device.changed" || event.message.kind !== "ack" || !event.message.ack) return;
      const set = this.waiters.get(event.message.ack.commandId);
      if (!set) return;
      this.waiters.delete(event.message.ack.commandId);
      for (const w of set) w.resolve({ ok: event.message.ack.ok, error: event.message.ack.error });
    });
    transport.onMessage((message) => this.enqueue(message));
    const sweepMs = options.quietSweepMs ?? DEFAULT_QUIET_SWEEP_MS;
    this.sweepMs = sweepMs > 0 ? sweepMs : DEFAULT_QUIET_SWEEP_MS;
    if (sweepMs > 0) {
      this.sweepTimer = setInterval(() => {
        this.sweepQuietDevices().catch((err: Error) =>
          this.logger.warn({ err: err.message }, "gateway: quiet-device sweep failed"),
        );
      }, sweepMs);
      this.sweepTimer.unref();
    }
  }

  /**
   * Announces the devices that went quiet (docs/device-protocol.md §5.2): whose status still says online but whose
   * last accepted report and last connection both fell out of the report interval plus margin since the previous
   * sweep. Each gets a hub-1 `device.changed` of kind "online" with `online: false`, once (the next sweep's window
   * starts where this one ended); its next accepted report announces it online again. One scan of the online rows
   * per sweep (cheap for 10,000 devices). With `assigned` subscriptions a gateway announces only the devices it
   * holds; otherwise every gateway announces (the message is the device's full state: a repeat is harmless). Also
   * logs the counts of refused and corrected messages when they changed, at most once a minute, for the operator.
   * Answers the ids announced; rejects with database errors.
   */
  async sweepQuietDevices(): Promise<string[]> {
    const nowMs = this.now();
    this.logCounts(nowMs);
    const cutoff = nowMs - DEVICE_HEARD_WINDOW_MS;
    const from = this.sweptUntil ?? cutoff - this.sweepMs * 2;
    this.sweptUntil = cutoff;
    if (cutoff <= from) return [];
    const fromIso = new Date(from).toISOString();
    const cutoffIso = new Date(cutoff).toISOString();
    const rows = await this.db
      .selectFrom("device_state")
      .innerJoin("devices", "devices.id", "device_state.device_id")
      .select([
        "device_state.device_id",
        "devices.mac",
        "device_state.online",
        "device_state.last_heard_at",
        "device_state.status_at",
      ])
      .where("device_state.online", "=", 1)
      .where((eb) =>
        eb.or([
          eb.and([eb("device_state.last_heard_at", ">=", fromIso), eb("device_state.last_heard_at", "<", cutoffIso)]),
          eb.and([eb("device_state.status_at", ">=", fromIso), eb("device_state.status_at", "<", cutoffIso)]),
        ]),
      )
      .execute();
    // With `assigned` subscriptions each gateway announces the devices it holds, so each is announced once.
    const held = this.assignment ? new Set(this.assignment.heldDevices) : null;
    const quiet = rows.filter((r) => !linkOnline(r, nowMs) && (!held || held.has(r.mac))).map((r) => r.device_id);
    if (quiet.length === 0) return [];
    const changes = await readChangeRows(this.db, quiet);
    for (const row of changes.values()) {
      const message = presentChange(row, "online");
      if (message.online) continue; // heard again meanwhile
      this.bus.publish({ type: "device.changed", familyId: message.familyId, deviceId: message.deviceId, message });
    }
    return quiet;
  }

  /** Logs the refusal and correction counts (info) when they changed since the last line, at most once a minute. */
  private logCounts(nowMs: number): void {
    if (nowMs - this.countsLoggedAt < COUNTS_LOG_MS) return;
    const counts = { rejected: this.checks.rejected, corrected: this.checks.corrected };
    const text = JSON.stringify(counts);
    if (text === this.countsLogged) return;
    this.countsLogged = text;
    this.countsLoggedAt = nowMs;
    this.logger.info(counts, "device link: refused and corrected messages since start");
  }

  /**
   * Device messages this gateway received from the broker since start for `mac` (12 upper-case hex digits), refused
   * ones included — 0 for a device another process's gateway owns (tests, diagnostics).
   */
  received(mac: string): number {
    return this.receivedPerDevice.get(mac) ?? 0;
  }

  /** Refused device messages since start, per reason; a copy. */
  get rejected(): Readonly<Record<GatewayRejectReason, number>> {
    return this.checks.rejected;
  }

  /** Corrections made to accepted device messages since start; a copy. */
  get corrected(): Readonly<GatewayCorrections> {
    return this.checks.corrected;
  }

  /**
   * Connects to the broker. On an external broker it subscribes (QoS 1) to status, state, telemetry, event and ack
   * of the devices it owns among the live gateways (`assigned`, the default: assignment.ts starts listening for the
   * other gateways, then subscribes) or of every device (`shared`, `plain`), in a persistent session (transport.ts);
   * a device list it cannot read or a refused subscription is logged and retried. The embedded broker hands device
   * messages to {@link ingest} instead, so there the connection only publishes commands.
   * @throws when the embedded broker cannot be reached or refuses the credentials (an external one is retried).
   */
  static async connect(options: GatewayOptions): Promise<DeviceGateway> {
    const transport = await MqttTransport.connect(options);
    const gateway = new DeviceGateway(transport, options);
    if (!options.external) return gateway;
    await transport.subscribe();
    if ((options.subscriptions ?? "assigned") === "assigned") {
      gateway.assignment = await DeviceAssignment.start({
        bus: options.bus,
        selfId: transport.clientId,
        listDevices: async () => (await options.db.selectFrom("devices").select("mac").execute()).map((row) => row.mac),
        target: transport,
        logger: options.logger,
        // Alone on an in-process bus: no other gateway to wait for.
        listenMs: options.bus.crossProcess ? undefined : 0,
        ...options.assignmentTimings,
      });
    }
    return gateway;
  }

  /**
   * A device's broker account is about to be created: with `assigned` subscriptions this gateway
   * subscribes to its topics before the device can connect, and its owner is told (assignment.ts `adopt`). Otherwise
   * nothing to do (wildcard subscriptions already cover it). Never throws: a refused subscription is logged and
   * retried by the next rebalance.
   */
  async adoptDevice(mac: string): Promise<void> {
    await this.assignment?.adopt(mac);
  }

  /** MACs whose subscriptions this gateway holds with `assigned` subscriptions, sorted; null otherwise (tests). */
  get heldDevices(): string[] | null {
    return this.assignment?.heldDevices ?? null;
  }

  /**
   * Takes a device message the embedded broker hands over in-process (broker.ts `ingest`) before acknowledging it:
   * written after the device's earlier messages like one received over MQTT.
   * @returns undefined for a message refused at once (too large), else a promise that resolves once the message is
   * recorded (telemetry: its batch committed) or refused by the checks, and rejects when recording it failed — the
   * broker then withholds the device's PUBACK and closes its connection, so the device sends it again.
   */
  ingest(message: InboundMessage): Promise<unknown> | undefined {
    return this.enqueue(message);
  }

  /** Sets (or with null removes) the {@link DeviceEventHook}; system.ts points it at the message center. */
  setEventHook(hook: DeviceEventHook | null): void {
    this.records.setEventHook(hook);
  }

  /** True while connected to the broker. */
  get connected(): boolean {
    return this.transport.connected;
  }

  /** Resolves when every message received so far has been recorded (tests, graceful shutdown). */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
    await this.records.idle();
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
      .select([
        "devices.id",
        "devices.mac",
        "device_state.online",
        "device_state.last_heard_at",
        "device_state.status_at",
      ])
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
    if (!linkOnline(device, this.now()) || !this.transport.connected) {
      throw new AppError("DeviceOffline", "device.offline");
    }
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
      await this.transport.publishCommand(device.mac, body);
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
   * Sends a command and resolves with its acknowledgement and whether it is done: `applied` is true once a state
   * report showed its effect (docs/device-protocol.md §3.5; at once for a command whose ack is enough), waiting for it
   * within the same `timeoutMs`; false when refused or still waiting for it. A repeated commandId already answered
   * resolves at once with the recorded outcome.
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
  }): Promise<{ commandId: string; ok: boolean; error: string | null; applied: boolean }> {
    const startedAt = this.now();
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
      if (recorded && recorded.status === "done") return { commandId, ok: true, error: null, applied: true };
      if (recorded && recorded.status === "acked") return { commandId, ok: true, error: null, applied: false };
      if (recorded && recorded.status === "failed" && recorded.error !== "timeout") {
        return { commandId, ok: false, error: recorded.error, applied: false };
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
      if (!outcome.ok) return { commandId, ...outcome, applied: false };
      return { commandId, ...outcome, applied: await this.appliedWithin(commandId, startedAt + timeoutMs) };
    } finally {
      forget();
    }
  }

  /**
   * Waits until the acknowledged command `commandId` is done — a state report showed its effect (records.ts,
   * command-effect.ts) — or server time `deadlineMs` passes, reading its row every 100 ms (only while a caller waits).
   * Answers whether it is done.
   */
  private async appliedWithin(commandId: string, deadlineMs: number): Promise<boolean> {
    for (;;) {
      const row = await this.db
        .selectFrom("device_commands")
        .select("status")
        .where("id", "=", commandId)
        .executeTakeFirst();
      if (row?.status !== "acked") return row?.status === "done";
      if (this.now() >= deadlineMs || this.closed) return false;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** Unsubscribes from the bus and disconnects from the broker; pending waits time out as offline. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    this.unsubscribeBus();
    await this.assignment?.close();
    await this.idle().catch(() => undefined);
    this.sendReceipts();
    await this.transport.end();
  }

  /**
   * Queues report id `reportId` of device `mac` for its receipt (docs/device-protocol.md §3.6): the ids of the
   * messages that settle together (one write batch) leave in one receipt per device, sent from the next turn of the
   * event loop.
   */
  private receipt(mac: string, reportId: string): void {
    const ids = this.receipts.get(mac);
    if (ids) ids.push(reportId);
    else this.receipts.set(mac, [reportId]);
    if (this.receiptsScheduled) return;
    this.receiptsScheduled = true;
    setImmediate(() => this.sendReceipts());
  }

  /**
   * Publishes the queued receipts: per device, {@link MQTT_RECEIPT_MAX_IDS} ids a message, QoS 1. A receipt that
   * cannot be published is logged and dropped: the device sends its reports again after its next connection or its
   * receipt timeout, and they are stored once (records.ts) and receipted again.
   */
  private sendReceipts(): void {
    this.receiptsScheduled = false;
    const ts = new Date(this.now()).toISOString();
    for (const [mac, ids] of this.receipts) {
      for (let i = 0; i < ids.length; i += MQTT_RECEIPT_MAX_IDS) {
        this.transport
          .publishReceipt(mac, { v: MQTT_PROTOCOL_VERSION, ts, ids: ids.slice(i, i + MQTT_RECEIPT_MAX_IDS) })
          .catch((err: Error) => this.logger.info({ mac, err: err.message }, "receipt not published"));
      }
    }
    this.receipts.clear();
  }

  // ---------- inbound ----------

  /**
   * Refuses an oversized message at once; hands any other to the records, which queue it in the open write batch
   * before this returns — so a device's messages enter batches, and are written, in arrival order, several of them in
   * one batch when the device has several in flight (one transaction and one device read serve them all). Returns the
   * promise of its handling, which rejects when recording failed (after logging it); the transport or the embedded
   * broker acknowledges the message only once it resolves. A report with a report id that the records settled
   * (stored, now or before, or refused for good) is receipted to the device ({@link receipt}).
   */
  private enqueue({
    topic,
    mac,
    channel,
    payload,
    retained,
    redelivered,
  }: InboundMessage): Promise<unknown> | undefined {
    this.receivedPerDevice.set(mac, (this.receivedPerDevice.get(mac) ?? 0) + 1);
    if (payload.length > MQTT_MAX_PACKET_BYTES) {
      // Refused before queueing: an external broker may pass what the embedded one closes the connection for.
      this.checks.reject(mac, channel, "too-large", { bytes: payload.length });
      this.records
        .noteRefusedReport(mac, channel, "too-large")
        .catch((err: Error) => this.logger.warn({ mac, err: err.message }, "refused report not remembered"));
      return;
    }
    const outcome = this.records.handle(mac, channel, payload, retained, redelivered).then((reportId) => {
      if (reportId !== null) this.receipt(mac, reportId);
    });
    const settled: Promise<void> = outcome
      .catch((err: Error) => this.logger.error({ mac, topic, err: err.message }, "device message failed"))
      .finally(() => this.inFlight.delete(settled));
    this.inFlight.add(settled);
    return outcome;
  }
}
