import {
  COUNTER_RESET_EVENT,
  MQTT_BOUNDS,
  type MqttChannel,
  ZMqttAck,
  ZMqttEvent,
  ZMqttReportId,
  ZMqttState,
  ZMqttStatus,
  ZMqttTelemetry,
} from "@aquapilot/contract";
import type { Bus } from "../bus.ts";
import type { Db } from "../db/index.ts";
import type { DeviceMessageChecks, GatewayRejectReason } from "./checks.ts";
import { type ClockRateState, foldClockRate } from "./clock-rate.ts";
import { commandApplied, needsStateConfirmation, parseJson, readReportedEffect } from "./command-effect.ts";
import type { IotLogger } from "./logger.ts";
import { storedStationStart } from "./plausibility.ts";
import {
  type BatchContext,
  type BatchDevice,
  TelemetryBatcher,
  type TelemetryBatchOptions,
  type TelemetryHook,
} from "./telemetry-batch.ts";

export type { TelemetryHook } from "./telemetry-batch.ts";

/**
 * Called after a device event is stored — and again for a redelivered one — so records derived from it (user
 * messages) are written idempotently even when an earlier attempt crashed half-way. Errors are logged.
 */
export type DeviceEventHook = (event: { deviceId: string; eventId: string; type: string }) => Promise<unknown>;

/** The `cause` of a domain event a device's own report raised (contract ZDomainEvent: a call's name otherwise). */
export const DEVICE_REPORT_CAUSE = "deviceReport";

/**
 * Reported settings that change by themselves — the device's clock, the salt drawn so far, its days in operation —
 * not by anyone's choice: left out when telling whether a report's settings changed.
 */
const RUNNING_SETTINGS: ReadonlySet<string> = new Set(["currentTime", "saltUsedKg", "operationDay"]);

/**
 * A short fingerprint of a report's chosen settings (FNV-1a 32-bit of their sorted `name=value` pairs, without
 * {@link RUNNING_SETTINGS}): equal for the same settings whatever their order, kept per device to notice a change.
 */
export function settingsFingerprint(settings: Record<string, unknown>): string {
  const text = Object.keys(settings)
    .filter((k) => !RUNNING_SETTINGS.has(k))
    .sort()
    .map((k) => `${k}=${JSON.stringify(settings[k])}`)
    .join(";");
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16);
}

/** Options of {@link DeviceRecords}. */
export interface DeviceRecordsDeps {
  db: Db;
  bus: Bus;
  logger: IotLogger;
  checks: DeviceMessageChecks;
  onTelemetry: TelemetryHook;
  /** Batch size and wait of telemetry writes (telemetry-batch.ts defaults; tests). */
  telemetryBatch?: Pick<TelemetryBatchOptions, "maxRows" | "maxWaitMs"> & {
    /**
     * Write batches written side by side (default 1), each device always in the same one (by its MAC), so a device's
     * messages stay in order: 1 for SQLite (one connection), several for PostgreSQL, whose round trips would
     * otherwise be paid one after another.
     */
    lanes?: number;
  };
}

/** One device message on its way to the database: the parsed JSON, the stored device, and the receive time. */
interface Received {
  mac: string;
  json: unknown;
  retained: boolean;
  /**
   * Delivered again (MQTT DUP): a delivery of it before was never acknowledged — its batch failed, or the connection
   * dropped first — so it may have been stored, and newer reports may have been stored since.
   */
  redelivered: boolean;
  /** The batch's transaction and announcements (telemetry-batch.ts). */
  ctx: BatchContext;
  /** The device with its stored counters, measured clock and refusal memory (as the batch read and updated it). */
  device: BatchDevice;
  clock: ClockRateState;
  /** Receive time. */
  nowDate: Date;
  /** Receive time, ISO. */
  now: string;
}

/**
 * What a writer leaves to do once its batch has committed: a telemetry record's outcome, a device event's hook, and
 * the report id the cloud is done with (for the device's receipt).
 */
type AfterCommit = {
  stored?: Promise<boolean>;
  event?: { deviceId: string; eventId: string; type: string };
  receipt?: string | null;
} | null;

/**
 * The report id of a message the schema refused (docs/device-protocol.md §3.6), or null when it carries no readable
 * one: the cloud never stores such a report, so it is receipted like a stored one and the device stops sending it.
 */
function refusedReportId(json: unknown): string | null {
  const id = typeof json === "object" && json !== null ? (json as { id?: unknown }).id : undefined;
  return ZMqttReportId.safeParse(id).success ? (id as string) : null;
}

/**
 * The gateway's writers (docs/device-protocol.md §3, §5): one per inbound channel, each storing what the device
 * reported with Kysely after the checks ({@link DeviceMessageChecks}) and then announcing the change on the bus
 * (change-message.ts). Every message is written in a shared batch (telemetry-batch.ts): the device is
 * read and the change messages are built for the whole batch, in its one transaction. Every write is idempotent
 * (upserts; telemetry keyed by device and time and by report id, events by id), so a redelivered, duplicated or resent
 * message costs a write, not a wrong state.
 */
export class DeviceRecords {
  private eventHook: DeviceEventHook | null = null;
  /**
   * Each device's {@link settingsFingerprint} as its last state report gave it, in this process (the first report
   * after a start only sets it): a report whose settings differ was changed at the valve or by a command.
   */
  private readonly settingsSeen = new Map<string, string>();

  private readonly deps: DeviceRecordsDeps;
  private readonly lanes: TelemetryBatcher[];
  constructor(deps: DeviceRecordsDeps) {
    this.deps = deps;
    const { lanes = 1, ...batch } = deps.telemetryBatch ?? {};
    this.lanes = Array.from(
      { length: Math.max(1, Math.floor(lanes)) },
      () => new TelemetryBatcher({ db: deps.db, bus: deps.bus, onTelemetry: deps.onTelemetry, ...batch }),
    );
  }

  /** Resolves when every message handed to the batch writers so far is written (or its batch failed). */
  async idle(): Promise<void> {
    await Promise.all(this.lanes.map((lane) => lane.idle()));
  }

  /** The write batch of a device: always the same one for a MAC. */
  private laneOf(mac: string): TelemetryBatcher {
    if (this.lanes.length === 1) return this.lanes[0];
    let hash = 0;
    for (let i = 0; i < mac.length; i++) hash = (hash * 31 + mac.charCodeAt(i)) >>> 0;
    return this.lanes[hash % this.lanes.length];
  }

  /** Sets (or with null removes) the {@link DeviceEventHook}. */
  setEventHook(hook: DeviceEventHook | null): void {
    this.eventHook = hook;
  }

  /**
   * Records one device message: parses the JSON and queues it in the open write batch before returning its promise
   * (so messages enter batches in the order `handle` is called), where the device is looked up by MAC (refusing
   * unknown ones) and the channel's writer runs. An empty payload (a cleared retained message) is ignored. Resolves
   * once the batch has committed (and an event's hook has run) with the report id the device may now forget
   * (docs/device-protocol.md §3.6: the `id` of telemetry or an event stored now or before, or refused for good by the
   * schema), or null (no report id, another channel, an unknown device); rejects with database errors (nothing of the
   * batch stored, nothing to receipt). `retained`: the broker's retained copy replayed on subscribe; `redelivered`: the
   * MQTT DUP flag (a delivery before was never acknowledged: it may be older than reports stored since).
   */
  async handle(
    mac: string,
    channel: MqttChannel,
    payload: Buffer,
    retained: boolean,
    redelivered = false,
  ): Promise<string | null> {
    if (payload.length === 0) return null; // a cleared retained message
    const { checks } = this.deps;
    let json: unknown;
    try {
      json = JSON.parse(payload.toString("utf8"));
    } catch {
      checks.reject(mac, channel, "not-json");
      await this.noteRefusedReport(mac, channel, "not-json");
      return null;
    }
    // The batch reads every device of its messages in one query; the writers run in its transaction.
    const after = await this.laneOf(mac).run(mac, async (ctx): Promise<AfterCommit> => {
      const { device } = ctx;
      if (!device) {
        checks.reject(mac, channel, "unknown-device");
        return null;
      }
      const nowDate = new Date();
      const received: Received = {
        mac,
        json,
        retained,
        redelivered,
        ctx,
        device,
        clock: {
          rate: device.clock_rate ?? null,
          anchorTs: device.rate_anchor_ts ?? null,
          anchorAt: device.rate_anchor_at ?? null,
        },
        nowDate,
        now: nowDate.toISOString(),
      };
      switch (channel) {
        case "status":
          await this.recordStatus(received);
          return null;
        case "state":
          await this.recordState(received);
          return null;
        case "telemetry":
          return this.recordTelemetry(received);
        case "event":
          return this.recordEvent(received);
        case "ack":
          await this.recordAck(received);
          return null;
        default:
          return null;
      }
    });
    // A telemetry record settles with its batch, which has committed by now.
    if (after?.stored) await after.stored;
    if (after?.event) {
      const event = after.event;
      // Also on a redelivery: the hook is idempotent and repairs a crash between storing and deriving.
      await this.eventHook?.(event).catch((err: Error) =>
        this.deps.logger.error({ mac, eventId: event.eventId, err: err.message }, "device event hook failed"),
      );
    }
    return after?.receipt ?? null;
  }

  /** status: the online flag in `device_state` (the only writer of `online`), in the batch's multi-row upsert. */
  private async recordStatus({ mac, json, ctx, device, now }: Received): Promise<void> {
    const msg = this.deps.checks.validate(ZMqttStatus, json, mac, "status");
    if (!msg) return;
    // In the batch's multi-row upsert; a new row starts out of vacation with no regenerations. An online status is a
    // connection: the device counts as online for one report interval plus margin before its first report (§5.2).
    ctx.writeState(
      device.id,
      { online: msg.online ? 1 : 0, updated_at: now, ...(msg.online ? { status_at: now } : {}) },
      { vacation: 0, regeneration_count: 0 },
    );
    ctx.announce(device.id, "online");
  }

  /**
   * state: station, counters, timing and reported settings in `device_state`, the measured clock rate, and the
   * device's model, serial numbers and firmware in `devices`, in the batch's transaction (`device_state` in the
   * batch's multi-row upsert, `devices` only when they changed). Counters lower than stored are a counter reset
   * (recorded, docs/device-protocol.md §5.1) unless the report is a copy of the stored one (ignored); a redelivered
   * report is written only when it is newer than the stored one and its counters did not go down (otherwise it is an
   * older report overtaken by the ones stored since: ignored); an invalid report is remembered as refused, an accepted
   * one ends the refusal and settles the commands whose effect it shows.
   */
  private async recordState({ mac, json, ctx, device, clock, nowDate, now, redelivered }: Received): Promise<void> {
    const { checks } = this.deps;
    const msg = checks.validate(ZMqttState, json, mac, "state");
    if (!msg) {
      this.markRefused(ctx, device, "invalid", now);
      return;
    }
    const reset = checks.counterReset(device, msg.totalWaterL, msg.regenerationCount);
    // A copy of the stored report (a redelivery, or the retained state replayed to a resubscribing gateway after the
    // device's telemetry moved the totaliser on) is no reset: it is older than what is stored, and writes nothing.
    if (reset && msg.ts === device.last_report_time) {
      checks.redeliveredIgnored();
      return;
    }
    const { reportTs, foldTs } = checks.deviceTime(mac, msg.ts, nowDate, clock, true);
    if (reset && reportTs === device.last_report_time) {
      checks.redeliveredIgnored();
      return;
    }
    // Delivered again after newer reports may have been stored: lower counters or an older time make it an old
    // report, not a reset (a rebooted device's first state among such copies is followed within minutes by fresh
    // reports, the first of which records the reset) and never written over the newer one.
    if (redelivered && (reset || (device.last_report_time && reportTs <= device.last_report_time))) {
      checks.redeliveredIgnored();
      return;
    }
    const startedAt = storedStationStart(msg.stationStartedAt, msg.ts, reportTs, MQTT_BOUNDS.seconds);
    if (msg.stationStartedAt && !startedAt) checks.stationStartDropped();
    const rawSettings = (json as { settings?: unknown }).settings;
    const dropped =
      rawSettings && typeof rawSettings === "object"
        ? Object.keys(rawSettings).length - Object.keys(msg.settings ?? {}).length
        : 0;
    if (dropped > 0) checks.settingsDropped(mac, "state", dropped);
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
      last_heard_at: now,
      ...(msg.settings ? { settings_json: JSON.stringify(msg.settings) } : {}),
      ...this.acceptedAgain(device),
    };
    // `online` is only ever written from status: a retained state can outlive the connection. In the batch's
    // multi-row upsert (written after every task of the batch).
    ctx.writeState(device.id, values, { online: 0 });
    const identity = {
      model: msg.model,
      serial_number: msg.serialNumber,
      device_serial_number: msg.deviceSerialNumber,
      firmware_version: msg.firmwareVersion,
    };
    const stored = ctx.device;
    // Read in this transaction: unchanged (the usual report) means nothing to write.
    if (
      !stored ||
      stored.model !== identity.model ||
      stored.serial_number !== identity.serial_number ||
      stored.device_serial_number !== identity.device_serial_number ||
      stored.firmware_version !== identity.firmware_version
    ) {
      ctx.writeIdentity(device.id, identity);
    }
    if (reset) {
      await this.recordCounterReset(ctx, mac, "state", device, reportTs, now, {
        totalWaterL: msg.totalWaterL,
        regenerationCount: msg.regenerationCount,
      });
    }
    const reported = {
      station: msg.station,
      vacation: msg.vacation,
      closeReason: msg.closeReason,
      regenerationCount: msg.regenerationCount,
      settings: (msg.settings ?? {}) as Record<string, unknown>,
    };
    const settled = device.awaiting_commands ? await this.settleAppliedCommands(ctx, device.id, reported) : 0;
    // A command's effect now shown, vacation switched or settings changed at the valve: the members' open screens read
    // the device again (the change message carries neither settings nor the vacation flag). A first report changes
    // nothing anyone saw.
    const vacationChanged =
      device.vacation !== null && device.vacation !== undefined && device.vacation !== values.vacation;
    if (settled > 0 || vacationChanged || this.settingsChanged(device.id, msg.settings)) {
      announceDeviceChanged(ctx, device);
    }
    // A later message of this device in the same batch checks against what this one stored.
    Object.assign(ctx.device ?? {}, identity, {
      total_water_l: msg.totalWaterL,
      regeneration_count: msg.regenerationCount,
      clock_rate: rate.rate,
      rate_anchor_ts: rate.anchorTs,
      rate_anchor_at: rate.anchorAt,
      last_report_time: reportTs,
      vacation: values.vacation,
      reported,
    });
    ctx.announce(device.id, "state");
  }

  /**
   * telemetry: one `device_telemetry` row per (device, time) and per (device, report id), written in a batch with
   * other devices' records (telemetry-batch.ts: the {@link TelemetryHook} and the live flow and total in
   * `device_state` in the same transaction); the batch announces the change after its commit. A redelivered record,
   * or one the device sent again under its report id, stores and announces nothing. A totaliser lower than stored is a
   * counter reset (recorded) unless the record is stored already (a redelivery overtaken by newer ones) or was sent
   * late ({@link sentLate}: stored as it is, the live figures left to the newest record). A redelivered record older
   * than the newest stored report is late whichever way its totaliser goes; the interval is bounded by the
   * totaliser's rise; refusals are remembered as for state. Answers the record's outcome (settled with the batch;
   * rejected when the batch failed, nothing of it stored, so the message is not acknowledged), not awaited here: the
   * batch commits only after this task returns, and its report id for the receipt.
   */
  private async recordTelemetry({
    mac,
    json,
    ctx,
    device,
    clock,
    nowDate,
    now,
    redelivered,
  }: Received): Promise<AfterCommit> {
    const { checks } = this.deps;
    const msg = checks.validate(ZMqttTelemetry, json, mac, "telemetry");
    if (!msg) {
      this.markRefused(ctx, device, "invalid", now);
      return { receipt: refusedReportId(json) };
    }
    const receipt = msg.id ?? null;
    const { recordTs } = checks.deviceTime(mac, msg.ts, nowDate, clock, false);
    let late = false;
    const reset = checks.counterReset(device, msg.totalWaterL, null);
    if (reset) {
      // A redelivered record the newer ones have overtaken (its (device, time) or its report id is stored) is no reset.
      const storedBefore = await ctx.trx
        .selectFrom("device_telemetry")
        .select("ts")
        .where("device_id", "=", device.id)
        .where((eb) =>
          msg.id ? eb.or([eb("ts", "=", recordTs), eb("report_id", "=", msg.id)]) : eb("ts", "=", recordTs),
        )
        .executeTakeFirst();
      if (storedBefore) {
        checks.redeliveredIgnored();
        return { receipt };
      }
    }
    if (reset || redelivered) {
      // Only a copy the device (`resent`) or the broker (`redelivered`) sent before, with the device's own time (not
      // replaced by the receive time). A redelivered record with a higher totaliser may be the old counter's, in
      // flight while the device rebooted: older than the newest report, it must not raise the live total again.
      late =
        (msg.resent === true || redelivered) && recordTs === msg.ts && (await this.sentLate(ctx, device, recordTs));
    }
    // What the device metered since the reset is its own interval (never more than the new total: the schema).
    if (reset && !late) {
      await this.recordCounterReset(ctx, mac, "telemetry", device, recordTs, now, { totalWaterL: msg.totalWaterL });
    }
    const cleared = this.acceptedAgain(device);
    if (cleared.reports_refused_since === null) {
      // A row the write would create needs its required columns (SQLite checks them before the upsert's update).
      ctx.writeState(device.id, cleared, { online: 0, vacation: 0, regeneration_count: 0, updated_at: now });
    }
    // Never more water than the totaliser rose since the previous record: nothing counted twice. A late record's
    // previous record is not the newest one stored: its own interval stands (the schema bounds it by its total).
    const intervalWaterL = late
      ? msg.intervalWaterL
      : checks.boundedInterval(mac, device.telemetry_total_l, msg.totalWaterL, msg.intervalWaterL);
    // A later message of this device in the same batch checks its counter against this one (a late one: the newest).
    if (ctx.device && !late) {
      ctx.device.total_water_l = msg.totalWaterL;
      ctx.device.telemetry_total_l = msg.totalWaterL;
      const batchTs = ctx.device.batch_telemetry_ts;
      if (!batchTs || recordTs > batchTs) ctx.device.batch_telemetry_ts = recordTs;
    }
    const stored = ctx.telemetry({
      deviceId: device.id,
      ts: recordTs,
      totalWaterL: msg.totalWaterL,
      flowRateLpm: msg.flowRateLpm,
      intervalWaterL,
      receivedAt: now,
      reportId: msg.id ?? null,
      late,
    });
    return { stored, receipt };
  }

  /**
   * Whether a resent telemetry record (`resent`) whose totaliser is below the stored one, or a redelivered one
   * (MQTT DUP), was sent late (docs/device-protocol.md §3.6): its time `recordTs` (ISO UTC, the device's own) lies
   * before the device's newest report — its last stored state report, its newest stored telemetry record, or one
   * queued earlier in the batch. A device that keeps its reports until the receipt sends again, oldest first, the
   * ones a broker acknowledged and dropped (with no gateway subscribed yet after its restart) — after newer ones were
   * stored. A counter reset's first records are no copies, or newer than every stored report. One indexed read (the
   * newest stored time of the device), only for a resent record whose totaliser went down or a redelivered one.
   */
  private async sentLate(ctx: BatchContext, device: BatchDevice, recordTs: string): Promise<boolean> {
    if (device.batch_telemetry_ts && recordTs < device.batch_telemetry_ts) return true;
    if (device.last_report_time && recordTs < device.last_report_time) return true;
    const newest = await ctx.trx
      .selectFrom("device_telemetry")
      .select("ts")
      .where("device_id", "=", device.id)
      .orderBy("ts", "desc")
      .limit(1)
      .executeTakeFirst();
    return newest !== undefined && recordTs < newest.ts;
  }

  /**
   * event: one `device_events` row per (device, event id), announced when new; the {@link DeviceEventHook} runs on
   * every delivery, a redelivered one included, after the batch's commit (answered for {@link handle}), and its errors
   * are logged.
   */
  private async recordEvent({ mac, json, ctx, device, clock, nowDate, now }: Received): Promise<AfterCommit> {
    const { checks } = this.deps;
    const msg = checks.validate(ZMqttEvent, json, mac, "event");
    if (!msg) return { receipt: refusedReportId(json) };
    const { recordTs } = checks.deviceTime(mac, msg.ts, nowDate, clock, false);
    const inserted = await ctx.trx
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
      ctx.announce(device.id, "event", {
        event: {
          type: msg.type,
          closeReason: msg.closeReason ?? null,
          progress: msg.progress ?? null,
          ...(msg.reason ? { reason: msg.reason } : {}),
        },
      });
    }
    return { event: { deviceId: device.id, eventId: msg.id, type: msg.type }, receipt: msg.id };
  }

  /**
   * A state or telemetry report of a device reached the gateway and was refused for `reason` (too-large, not-json):
   * remembers since when and why the device's reports are refused (docs/device-protocol.md §5.1), in the device's
   * write batch. Other channels, and unknown devices, remember nothing. Rejects with database errors.
   */
  async noteRefusedReport(mac: string, channel: MqttChannel, reason: GatewayRejectReason): Promise<void> {
    if (channel !== "state" && channel !== "telemetry") return;
    await this.laneOf(mac).run(mac, async (ctx) => {
      if (ctx.device) this.markRefused(ctx, ctx.device, reason, new Date().toISOString());
    });
  }

  /**
   * Remembers in `device_state` that the device's reports are refused: since the first refusal (kept while they go
   * on being refused) and the latest reason. Writes only when something changes; the start is announced.
   */
  private markRefused(ctx: BatchContext, device: BatchDevice, reason: GatewayRejectReason, now: string): void {
    if (device.reports_refused_since && device.reports_refused_reason === reason) return;
    const values = { reports_refused_since: device.reports_refused_since ?? now, reports_refused_reason: reason };
    ctx.writeState(device.id, values, { online: 0, vacation: 0, regeneration_count: 0, updated_at: now });
    // The household's cached device list shows the refusal at once (the change message drops it).
    if (!device.reports_refused_since) ctx.announce(device.id, "state");
    Object.assign(device, values);
  }

  /** The columns that end a refusal once a report is accepted again (none when nothing was refused). */
  private acceptedAgain(device: BatchDevice): { reports_refused_since?: null; reports_refused_reason?: null } {
    if (!device.reports_refused_since) return {};
    Object.assign(device, { reports_refused_since: null, reports_refused_reason: null });
    return { reports_refused_since: null, reports_refused_reason: null };
  }

  /**
   * Records an accepted counter reset (docs/device-protocol.md §5.1): a `device_events` row of type
   * {@link COUNTER_RESET_EVENT} at the report's stored time `ts` (keyed by it, so a redelivered report records it
   * once), announced on hub 1 as an event; counted and logged by the checks.
   */
  private async recordCounterReset(
    ctx: BatchContext,
    mac: string,
    channel: MqttChannel,
    device: BatchDevice,
    ts: string,
    now: string,
    reported: { totalWaterL: number; regenerationCount?: number | null },
  ): Promise<void> {
    const inserted = await ctx.trx
      .insertInto("device_events")
      .values({
        id: `${COUNTER_RESET_EVENT}-${ts}`,
        device_id: device.id,
        type: COUNTER_RESET_EVENT,
        close_reason: null,
        station: null,
        ts,
        received_at: now,
      })
      .onConflict((oc) => oc.columns(["device_id", "id"]).doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return;
    this.deps.checks.noteCounterReset(mac, channel, {
      storedTotalWaterL: device.total_water_l,
      storedRegenerationCount: device.regeneration_count,
      ...reported,
    });
    ctx.announce(device.id, "event", { event: { type: COUNTER_RESET_EVENT, closeReason: null } });
  }

  /**
   * Whether the chosen settings of a state report differ from the device's previous report in this process (see
   * {@link settingsSeen}); remembers them. A report without settings changes nothing.
   */
  private settingsChanged(deviceId: string, settings: Record<string, unknown> | undefined): boolean {
    if (!settings) return false;
    const print = settingsFingerprint(settings);
    const seen = this.settingsSeen.get(deviceId);
    this.settingsSeen.set(deviceId, print);
    return seen !== undefined && seen !== print;
  }

  /**
   * Settles the device's commands that were acknowledged and wait for a state report showing their effect
   * (status "acked"): each one `reported` shows applied (command-effect.ts, against what the state said at the ack)
   * becomes "done". The rest keep waiting. Answers how many became done.
   */
  private async settleAppliedCommands(
    ctx: BatchContext,
    deviceId: string,
    reported: Parameters<typeof commandApplied>[2],
  ): Promise<number> {
    const waiting = await ctx.trx
      .selectFrom("device_commands")
      .select(["id", "name", "params_json", "ack_baseline_json"])
      .where("device_id", "=", deviceId)
      .where("status", "=", "acked")
      .execute();
    let done = 0;
    for (const c of waiting) {
      const baseline = parseJson(c.ack_baseline_json ?? "{}") as Parameters<typeof commandApplied>[3];
      if (!commandApplied(c.name, parseJson(c.params_json), reported, baseline)) continue;
      // The state report that shows it is announced (kind "state"); its ack was announced when it came.
      const updated = await ctx.trx
        .updateTable("device_commands")
        .set({ status: "done" })
        .where("id", "=", c.id)
        .where("status", "=", "acked")
        .executeTakeFirst();
      done += Number(updated.numUpdatedRows);
    }
    return done;
  }

  /**
   * ack: the command's outcome in `device_commands`, written only while the command waits for it (pending, or failed
   * by the cloud's timeout: a late ack still tells the real outcome), so a redelivered ack writes and announces
   * nothing. An ack for a command the cloud did not send is ignored.
   */
  private async recordAck({ mac, json, ctx, device, now }: Received): Promise<void> {
    const msg = this.deps.checks.validate(ZMqttAck, json, mac, "ack");
    if (!msg) return;
    // An accepted command is done only once a state report shows its effect (command-effect.ts): the stored state
    // may show it already (the device reports its new state before its ack), else it waits as "acked".
    const command = await ctx.trx
      .selectFrom("device_commands")
      .select(["name", "params_json"])
      .where("id", "=", msg.id)
      .where("device_id", "=", device.id)
      .executeTakeFirst();
    let status = msg.ok ? "done" : "failed";
    let baseline: string | null = null;
    if (msg.ok && command && needsStateConfirmation(command.name)) {
      const state = device.reported ?? (await readReportedEffect(ctx.trx, device.id));
      if (!state || !commandApplied(command.name, parseJson(command.params_json), state, state)) {
        status = "acked";
        baseline = JSON.stringify(state ?? {});
        device.awaiting_commands = true;
      }
    }
    const updated = await ctx.trx
      .updateTable("device_commands")
      .set({ status, error: msg.ok ? null : (msg.error ?? "failed"), acked_at: now, ack_baseline_json: baseline })
      .where("id", "=", msg.id)
      .where("device_id", "=", device.id)
      .where((eb) =>
        eb.or([eb("status", "=", "pending"), eb.and([eb("status", "=", "failed"), eb("error", "=", "timeout")])]),
      )
      .returning("name")
      .executeTakeFirst();
    if (!updated) {
      this.deps.logger.info({ mac, commandId: msg.id }, "ack for an unknown or already answered command ignored");
      return;
    }
    ctx.announce(device.id, "ack", {
      ack: { commandId: msg.id, ok: msg.ok, error: msg.ok ? null : (msg.error ?? "failed"), command: updated.name },
    });
    // A change done at once (the state already showed it): the members' open screens read the device again. Not for
    // a `query` or any command that changes nothing a screen shows: a screen's read asks the device (`query`), and
    // an event for its answer would make every screen read again, for ever.
    if (status === "done" && needsStateConfirmation(updated.name)) announceDeviceChanged(ctx, device);
  }
}

/**
 * Publishes, after the batch's commit, the domain event of a change the device made (contract ZDomainEvent kind
 * "device", cause {@link DEVICE_REPORT_CAUSE}): every member's open screen of the device reads it again.
 */
function announceDeviceChanged(ctx: BatchContext, device: { id: string; family_id: string | null }): void {
  ctx.announceDomain({
    kind: "device",
    familyId: device.family_id,
    deviceId: device.id,
    userId: null,
    cause: DEVICE_REPORT_CAUSE,
  });
}
