import type { TDeviceChangeMessage, TDomainEvent } from "@aquapilot/contract";
import { type Insertable, sql } from "kysely";
import type { Bus } from "../bus.ts";
import { isPostgres } from "../db/engine.ts";
import type { Db } from "../db/index.ts";
import type { DeviceStateTable } from "../db/schema.ts";
import {
  type ChangeKind,
  type ChangeRow,
  devicesWithState,
  inChunks,
  presentChange,
  readChangeRows,
} from "./change-message.ts";
import type { ReportedEffect } from "./command-effect.ts";
import type { LiveStateRow } from "./live-state.ts";

/**
 * Called in the transaction of every batch that stored new telemetry, with that transaction and, in arrival order,
 * the device id, receive time (ISO UTC), water since the previous record (L) and flow (L/min) of each record the batch
 * stored for the first time (a redelivered one stored nothing and is not passed; each is passed once): the statistics
 * module's hourly and daily rollups, which add them to each touched hour's kept sum (so a batch's cost does not grow
 * with the hour) and recompute each touched day. The device link never imports a module (a boundary the linter
 * enforces): the composition root (system.ts) passes the module's function. An error rolls the whole batch back
 * (nothing stored, nothing acknowledged).
 */
export type TelemetryHook = (
  db: Db,
  arrivals: ReadonlyArray<{ deviceId: string; receivedAt: string; intervalWaterL: number; flowRateLpm: number }>,
) => Promise<unknown>;

/** One accepted telemetry record on its way to `device_telemetry` (docs/device-protocol.md §3 "telemetry"). */
export interface TelemetryRow {
  deviceId: string;
  /** Device time of the record as the checks corrected it, ISO UTC: with the device, the row's key. */
  ts: string;
  /** Meter reading, litres. */
  totalWaterL: number;
  /** Flow, litres per minute. */
  flowRateLpm: number;
  /** Water since the previous record, litres. */
  intervalWaterL: number;
  /** Server time of arrival, ISO UTC (hourly water is bucketed by it). */
  receivedAt: string;
  /**
   * The device's report id (docs/device-protocol.md §3.6), unique per device like the time: a record sent again under
   * the same id stores nothing; null or absent for a record sent without one.
   */
  reportId?: string | null;
  /**
   * A record the device sent late (records.ts: its report id, and a time before the device's newest record): stored
   * and rolled up, but the device's live flow and total stay those of its newest record.
   */
  late?: boolean;
}

/**
 * A device as a write batch reads it for a task (one query for the whole batch, by MAC): its id and household, its
 * stored counters and its measured clock (`device_state` columns are null when it never reported).
 */
export interface BatchDevice {
  id: string;
  family_id: string | null;
  /** What the device's last state report said about itself (`devices`), so an unchanged one is not written again. */
  model: string | null;
  serial_number: string | null;
  device_serial_number: string | null;
  firmware_version: string | null;
  total_water_l: number | null;
  regeneration_count: number | null;
  clock_rate: number | null;
  rate_anchor_ts: string | null;
  rate_anchor_at: string | null;
  /** Device time of the last stored state report (a redelivered copy of it carries the same). */
  last_report_time: string | null;
  /** Since when (server time) and why its reports are refused; null while they are accepted. */
  reports_refused_since: string | null;
  reports_refused_reason: string | null;
  /** Totaliser of its last stored telemetry record, L; null before the first. */
  telemetry_total_l: number | null;
  /** The vacation flag of its last stored state report (1 on, 0 off); null before the first. */
  vacation: number | null;
  /** Whether a command of the device waits for a state report that shows its effect (status "acked"). */
  awaiting_commands: boolean;
  /** The newest time of the device's telemetry records queued earlier in the same batch; absent before the first. */
  batch_telemetry_ts?: string;
  /**
   * What a state report earlier in the same batch said (its `device_state` write comes after every task), so an ack
   * later in the batch sees it; absent otherwise.
   */
  reported?: ReportedEffect;
}

/** What a device's state report says about the device itself (`devices` columns). */
export interface DeviceIdentity {
  model: string | null;
  serial_number: string | null;
  device_serial_number: string | null;
  firmware_version: string | null;
}

/** Columns of a `device_state` row (all but the key), as a task writes them ({@link BatchContext.writeState}). */
export type DeviceStateValues = Partial<Omit<DeviceStateTable, "device_id">>;

/** What a task queued with {@link TelemetryBatcher.run} is given inside its batch's transaction. */
export interface BatchContext {
  /** The batch's transaction: every write of the task goes through it. */
  trx: Db;
  /** The task's device (read with the batch's other devices), undefined when the MAC is unknown. */
  device: BatchDevice | undefined;
  /**
   * Adds a telemetry record to this batch's multi-row insert (written after every task of the batch). The promise
   * settles once the batch has committed, like {@link TelemetryBatcher.add}; a task must not await it (its batch
   * cannot commit before the task returns) but hand it on. A record stored now announces its device's change
   * (`state`) after the commit.
   */
  telemetry(row: TelemetryRow): Promise<boolean>;
  /**
   * Upserts the device's `device_state` row in the batch's multi-row write ({@link writeDeviceStates}: after every
   * task of the batch, before its telemetry): `values` are set whether the row exists or not, `defaults` only go into
   * a row this write creates (the columns a new row needs that the write does not set, e.g. `online` 0 for a state
   * report). Several writes of one device in a batch end as if run one after another in queue order.
   */
  writeState(deviceId: string, values: DeviceStateValues, defaults?: DeviceStateValues): void;
  /**
   * Sets the device's model, serial numbers and firmware in `devices` with the batch's other devices' in one statement
   * ({@link writeDeviceIdentities}, after the batch's `device_state` writes); a later call for the same device wins.
   */
  writeIdentity(deviceId: string, identity: DeviceIdentity): void;
  /**
   * Announces the device's change after the commit (`device.changed` on the bus, with the change message built from
   * the rows as the batch left them: the rows its `device_state` upsert returned, the others read for the whole batch
   * in one query); `extra` is the event or acknowledgement.
   */
  announce(deviceId: string, kind: ChangeKind, extra?: Pick<TDeviceChangeMessage, "event" | "ack">): void;
  /**
   * Publishes a domain event after the commit (bus `domain.event`: hub 1 sends it to the household's members, whose
   * open screens fetch what it names again): a change the device made itself that no change message carries.
   */
  announceDomain(event: TDomainEvent): void;
}

/** Options of {@link TelemetryBatcher}. */
export interface TelemetryBatchOptions {
  db: Db;
  onTelemetry: TelemetryHook;
  /** Where announcements of {@link BatchContext.announce} and of stored telemetry go; without it nothing is announced. */
  bus?: Bus;
  /**
   * A batch is written at once when it holds this many records and tasks, and no batch holds more (default
   * {@link DEFAULT_BATCH_ROWS}).
   */
  maxRows?: number;
  /** Longest a record waits for others before its batch is written, ms (default {@link DEFAULT_BATCH_WAIT_MS}). */
  maxWaitMs?: number;
}

/** Default most records per batch (one transaction). */
export const DEFAULT_BATCH_ROWS = 500;
/** Default longest wait of a record for its batch, ms. */
export const DEFAULT_BATCH_WAIT_MS = 1;
/** Rows per INSERT statement: 7 parameters each, far below SQLite's 32,766 and PostgreSQL's 65,535 parameters. */
const ROWS_PER_INSERT = 250;

interface Pending {
  row: TelemetryRow;
  resolve: (storedNow: boolean) => void;
  reject: (err: Error) => void;
  /** Added by a task ({@link BatchContext.telemetry}): a record stored now is announced. */
  announce: boolean;
}

interface PendingTask {
  mac: string;
  task: (ctx: BatchContext) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (err: Error) => void;
}

interface Announcement {
  deviceId: string;
  kind: ChangeKind;
  extra: Pick<TDeviceChangeMessage, "event" | "ack">;
}

/** One open batch: telemetry records and tasks that share a transaction. */
interface Batch {
  rows: Pending[];
  tasks: PendingTask[];
}

/** A device's `device_state` writes of one batch, merged ({@link mergeStateWrite}). */
interface PendingState {
  /** Columns set whether the row exists or not: every write's `values`, a later one's winning. */
  values: DeviceStateValues;
  /** Columns only a created row gets: the first write's `defaults`. */
  defaults: DeviceStateValues;
}

const keyOf = (deviceId: string, ts: string) => `${deviceId}\u0000${ts}`;
/** The key of a record's report id within a batch (null for a record without one). */
const reportKeyOf = (row: TelemetryRow) => (row.reportId ? `${row.deviceId}\u0000${row.reportId}` : null);

/**
 * Writes telemetry in batches: records added within {@link TelemetryBatchOptions.maxWaitMs}
 * of the first one (or until {@link TelemetryBatchOptions.maxRows}) are written in one transaction — multi-row
 * INSERTs into `device_telemetry` that skip a (device, ts) already stored, then each device's live flow and total in
 * `device_state` from its last new record (with the batch's other `device_state` writes), then the
 * {@link TelemetryHook} once with the records stored now — and
 * each record's promise settles only once that transaction has committed, so whoever acknowledges the message
 * (the broker's PUBACK) does so after the record is durable. Batches are written one after another, in order.
 * Idempotent: a record whose (device, ts) or (device, report id) is stored already, or that repeats an earlier record
 * of the same batch,
 * stores nothing and resolves false. A failed transaction rejects every record of its batch and leaves nothing of it.
 * Works on SQLite and PostgreSQL (`ON CONFLICT … DO NOTHING RETURNING`).
 *
 * Every other device message shares the batch too: {@link run} queues a task
 * that runs inside the next batch's transaction with its device read for the whole batch in one query (by MAC), and
 * whose announcements are published after the commit — so a state report costs no transaction or device read of its
 * own. Tasks run in queue order, so a device's messages stay in order.
 *
 * For PostgreSQL, where every statement is a round trip: while a batch is written, the next one fills and is written as
 * soon as the first has committed (group commit: batches grow with the load instead of queueing as many 1 ms batches),
 * and a batch's writes are multi-row statements whatever its size — every device's `device_state` in one upsert
 * ({@link BatchContext.writeState}), the changed identities in one `devices` update, the change messages from the
 * upsert's returned rows — in device-id order, so batches of two processes sharing devices do not deadlock. The live
 * figures of new telemetry join that one upsert: in a pass of their own after it, two processes'
 * batches of crossed devices (A's report and B's telemetry in one, the reverse in the other) each held one row and
 * waited for the other's. The rollup's rows, per device, come after.
 */
export class TelemetryBatcher {
  private readonly db: Db;
  private readonly onTelemetry: TelemetryHook;
  private readonly maxRows: number;
  private readonly maxWaitMs: number;
  private readonly bus: Bus | undefined;
  private open: Batch = { rows: [], tasks: [] };
  private timer: NodeJS.Timeout | null = null;
  /** The write loop ({@link drain}) while it runs. */
  private running: Promise<void> | null = null;
  private batches = 0;

  constructor(options: TelemetryBatchOptions) {
    this.db = options.db;
    this.onTelemetry = options.onTelemetry;
    this.maxRows = Math.max(1, options.maxRows ?? DEFAULT_BATCH_ROWS);
    this.maxWaitMs = Math.max(0, options.maxWaitMs ?? DEFAULT_BATCH_WAIT_MS);
    this.bus = options.bus;
  }

  /** Transactions written since start (tests, diagnostics). */
  get written(): number {
    return this.batches;
  }

  /**
   * Adds a record to the open batch.
   * @returns a promise that resolves, once the batch has committed, true when this record was stored now, false when
   * its (device, ts) or (device, report id) was stored before or earlier in the same batch (a redelivery).
   * @throws (rejects) with the database error when the batch's transaction failed: nothing of the batch is stored.
   */
  add(row: TelemetryRow): Promise<boolean> {
    return new Promise<boolean>((resolve, reject) => {
      this.open.rows.push({ row, resolve, reject, announce: false });
      this.scheduled();
    });
  }

  /**
   * Queues `task` in the open batch: it runs inside the batch's transaction, after the batch's device read, with its
   * device (by `mac`, 12 upper-case hex digits) and the batch's telemetry and announcements ({@link BatchContext}).
   * Tasks run one after another in the order queued; several of one device may share a batch (each writer updates
   * the batch's copy of its device, so the next is checked against what the previous one wrote).
   * @returns the task's result, once the batch has committed and its announcements are published.
   * @throws (rejects) with the error of any task or statement of the batch: the transaction is rolled back, so
   * nothing of the batch is stored or announced, and every record and task of it rejects with that error.
   */
  run<T>(mac: string, task: (ctx: BatchContext) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.open.tasks.push({ mac, task, resolve: resolve as (v: unknown) => void, reject });
      this.scheduled();
    });
  }

  /** Resolves when every record and task added so far is written (or its batch has failed). */
  async idle(): Promise<void> {
    for (;;) {
      this.start();
      if (!this.running) return;
      await this.running;
    }
  }

  /** Records and tasks in the open batch. */
  private get size(): number {
    return this.open.rows.length + this.open.tasks.length;
  }

  /**
   * After an entry was added: while a batch is being written nothing is scheduled (the open batch is written as soon
   * as that one has committed, with everything that arrived meanwhile); otherwise the open batch is written when it
   * is full, else after {@link TelemetryBatchOptions.maxWaitMs}.
   */
  private scheduled(): void {
    if (this.running) return;
    if (this.size >= this.maxRows) this.start();
    else this.timer ??= setTimeout(() => this.start(), this.maxWaitMs);
  }

  /** Starts the write loop unless it runs or there is nothing to write. */
  private start(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.running || this.size === 0) return;
    this.running = this.drain();
  }

  /**
   * Writes batches one after another while entries wait (group commit): each batch takes what arrived
   * while the previous one was written, up to {@link TelemetryBatchOptions.maxRows}, so batches grow with the load
   * and a batch's fixed statements (begin, device read, change read, commit) are paid once for all of them.
   */
  private async drain(): Promise<void> {
    while (this.size > 0) await this.write(this.take());
    this.running = null;
  }

  /** Takes the oldest entries of the open batch, at most {@link TelemetryBatchOptions.maxRows}, tasks in queue order. */
  private take(): Batch {
    const open = this.open;
    if (this.size <= this.maxRows) {
      this.open = { rows: [], tasks: [] };
      return open;
    }
    const tasks = open.tasks.splice(0, this.maxRows);
    const rows = open.rows.splice(0, this.maxRows - tasks.length);
    return { rows, tasks };
  }

  /** One batch, one transaction; settles every record's and task's promise (never rejects). */
  private async write(batch: Batch): Promise<void> {
    const results: unknown[] = [];
    const announcements: Announcement[] = [];
    const domainEvents: TDomainEvent[] = [];
    const states = new Map<string, PendingState>();
    const identities = new Map<string, DeviceIdentity>();
    let messages: TDeviceChangeMessage[] = [];
    let first = new Map<string, Pending>();
    let stored = new Set<string>();
    try {
      messages = await this.db.transaction().execute(async (trx) => {
        const devices = await readBatchDevices(
          trx,
          batch.tasks.map((t) => t.mac),
        );
        for (const t of batch.tasks) {
          results.push(
            await t.task({
              trx,
              device: devices.get(t.mac),
              telemetry: (row) => {
                const outcome = new Promise<boolean>((resolve, reject) => {
                  batch.rows.push({ row, resolve, reject, announce: true });
                });
                // A failed batch rejects the task too, and its caller may then never look at the record's outcome.
                outcome.catch(() => undefined);
                return outcome;
              },
              writeState: (deviceId, values, defaults = {}) => mergeStateWrite(states, deviceId, values, defaults),
              writeIdentity: (deviceId, identity) => identities.set(deviceId, { ...identity }),
              announce: (deviceId, kind, extra = {}) => announcements.push({ deviceId, kind, extra }),
              announceDomain: (event) => domainEvents.push(event),
            }),
          );
        }
        // The first copy of a (device, ts) or (device, report id) in the batch is the one that may be stored; later
        // copies are redeliveries or reports sent again.
        first = new Map<string, Pending>();
        const reports = new Set<string>();
        for (const p of batch.rows) {
          const key = keyOf(p.row.deviceId, p.row.ts);
          const report = reportKeyOf(p.row);
          if (first.has(key) || (report !== null && reports.has(report))) continue;
          first.set(key, p);
          if (report !== null) reports.add(report);
        }
        const rows = [...first.values()].map((p) => p.row);
        stored = await insertTelemetry(trx, rows);
        // In arrival order: a device's last new record gives its live figures, written with the batch's other
        // `device_state` writes in their one pass in device-id order (a second pass for them, after the
        // reports' upsert, would take two processes' rows in crossed orders and deadlock).
        // The clock rate is measured on state reports only: no extra read on the busiest path.
        const fresh = rows.filter((r) => stored.has(keyOf(r.deviceId, r.ts)));
        const live = new Map<string, TelemetryRow>();
        for (const r of fresh) if (!r.late) live.set(r.deviceId, r);
        // SQLite writes one transaction at a time (no lock order to keep): its single-row updates after the upsert
        // cost less there than the wider upsert (the ingest bench: ×0.50 vs ×0.46 of bare).
        const oneWriter = !isPostgres(trx);
        if (!oneWriter) {
          for (const r of live.values()) {
            mergeStateWrite(
              states,
              r.deviceId,
              {
                flow_rate_lpm: r.flowRateLpm,
                total_water_l: r.totalWaterL,
                telemetry_total_l: r.totalWaterL,
                updated_at: r.receivedAt,
                last_heard_at: r.receivedAt,
              },
              { online: 0, vacation: 0, regeneration_count: 0 },
            );
          }
        }
        const written = await writeDeviceStates(trx, states);
        await writeDeviceIdentities(trx, identities);
        if (oneWriter) await updateLiveFigures(trx, live.values());
        if (fresh.length > 0) await this.onTelemetry(trx, fresh);
        for (const p of first.values()) {
          if (p.announce && stored.has(keyOf(p.row.deviceId, p.row.ts))) {
            announcements.push({ deviceId: p.row.deviceId, kind: "state", extra: {} });
          }
        }
        if (!this.bus || announcements.length === 0) return [];
        // A device whose row the batch's upsert returned, and that no later write changed (SQLite's live figures),
        // needs no read: its change row is that row with the batch's device read.
        const changeRows = new Map<string, ChangeRow>();
        for (const [mac, device] of devices) {
          const row = written.get(device.id);
          if (row && !(oneWriter && live.has(device.id)))
            changeRows.set(device.id, { ...row, id: device.id, mac, family_id: device.family_id });
        }
        const unread = announcements.map((a) => a.deviceId).filter((id) => !changeRows.has(id));
        if (unread.length > 0) for (const [id, row] of await readChangeRows(trx, unread)) changeRows.set(id, row);
        return announcements.flatMap((a) => {
          const row = changeRows.get(a.deviceId);
          return row ? [presentChange(row, a.kind, a.extra)] : [];
        });
      });
      this.batches++;
    } catch (err) {
      for (const p of batch.rows) p.reject(err as Error);
      for (const t of batch.tasks) t.reject(err as Error);
      return;
    }
    for (const message of messages) {
      this.bus?.publish({ type: "device.changed", familyId: message.familyId, deviceId: message.deviceId, message });
    }
    for (const event of domainEvents) this.bus?.publish({ type: "domain.event", event });
    for (const p of batch.rows) {
      const key = keyOf(p.row.deviceId, p.row.ts);
      p.resolve(first.get(key) === p && stored.has(key));
    }
    for (const [i, t] of batch.tasks.entries()) t.resolve(results[i]);
  }
}

/**
 * The live flow and total of each device's last new record (`rows`, one per device) into its existing
 * `device_state` row, one update each in device-id order (SQLite's path; PostgreSQL merges them into the batch's upsert,
 * so two processes never take rows in crossed orders). Throws the database's error.
 */
async function updateLiveFigures(trx: Db, rows: Iterable<TelemetryRow>): Promise<void> {
  const sorted = [...rows].sort((x, y) => (x.deviceId < y.deviceId ? -1 : x.deviceId > y.deviceId ? 1 : 0));
  for (const r of sorted) {
    await trx
      .updateTable("device_state")
      .set({
        flow_rate_lpm: r.flowRateLpm,
        total_water_l: r.totalWaterL,
        telemetry_total_l: r.totalWaterL,
        updated_at: r.receivedAt,
        last_heard_at: r.receivedAt,
      })
      .where("device_id", "=", r.deviceId)
      .execute();
  }
}

/**
 * Inserts `rows` into `device_telemetry` in multi-row statements of {@link ROWS_PER_INSERT}, skipping a (device, ts)
 * or (device, report id) already stored (a redelivery, a report sent again: `ON CONFLICT DO NOTHING` on either unique
 * key); answers the keys ({@link keyOf}) of the rows stored now. Throws the database's error.
 */
async function insertTelemetry(trx: Db, rows: readonly TelemetryRow[]): Promise<Set<string>> {
  const stored = new Set<string>();
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
    const inserted = await trx
      .insertInto("device_telemetry")
      .values(
        rows.slice(i, i + ROWS_PER_INSERT).map((r) => ({
          device_id: r.deviceId,
          ts: r.ts,
          total_water_l: r.totalWaterL,
          flow_rate_lpm: r.flowRateLpm,
          interval_water_l: r.intervalWaterL,
          received_at: r.receivedAt,
          report_id: r.reportId ?? null,
        })),
      )
      .onConflict((oc) => oc.doNothing())
      .returning(["device_id", "ts"])
      .execute();
    for (const r of inserted) stored.add(keyOf(r.device_id, r.ts));
  }
  return stored;
}

/** The {@link BatchDevice}s of `macs` in one query (chunks of 500 parameters), keyed by MAC. */
async function readBatchDevices(db: Db, macs: readonly string[]): Promise<Map<string, BatchDevice>> {
  const rows = await inChunks(macs, (chunk) =>
    devicesWithState(db)
      .select([
        "devices.id",
        "devices.mac",
        "devices.family_id",
        "devices.model",
        "devices.serial_number",
        "devices.device_serial_number",
        "devices.firmware_version",
        "device_state.total_water_l",
        "device_state.regeneration_count",
        "device_state.clock_rate",
        "device_state.rate_anchor_ts",
        "device_state.rate_anchor_at",
        "device_state.last_report_time",
        "device_state.reports_refused_since",
        "device_state.reports_refused_reason",
        "device_state.telemetry_total_l",
        "device_state.vacation",
        (eb) =>
          eb
            .exists(
              eb
                .selectFrom("device_commands")
                .select("device_commands.id")
                .whereRef("device_commands.device_id", "=", "devices.id")
                .where("device_commands.status", "=", "acked"),
            )
            .as("awaiting"),
      ])
      .where("devices.mac", "in", chunk)
      .execute(),
  );
  return new Map(
    rows.map(({ mac, awaiting, ...device }) => [
      mac,
      { ...device, awaiting_commands: Boolean(awaiting) } as BatchDevice,
    ]),
  );
}

/** Without the keys whose value is undefined (they are not written). */
function defined(values: DeviceStateValues): DeviceStateValues {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)) as DeviceStateValues;
}

/**
 * Adds one {@link BatchContext.writeState} to the batch's writes of `deviceId`, so that one upsert per device gives
 * the row the writes in order would: a row that exists gets every write's `values` (a later write's winning); a row
 * the first write creates gets that write's `defaults` and `values`, then the later writes' `values`. A later write's
 * `defaults` never matter (the row exists by then).
 */
function mergeStateWrite(
  states: Map<string, PendingState>,
  deviceId: string,
  values: DeviceStateValues,
  defaults: DeviceStateValues,
): void {
  const pending = states.get(deviceId);
  if (pending) Object.assign(pending.values, defined(values));
  else states.set(deviceId, { values: { ...defined(values) }, defaults: { ...defined(defaults) } });
}

/** Most parameters in one statement: below SQLite's 32,766 and PostgreSQL's 65,535. */
const MAX_PARAMETERS = 30_000;

/**
 * The batch's `device_state` writes in as few statements as their shapes allow (each a round trip): the devices in
 * device-id order, each run of devices that write the same columns one multi-row `INSERT … ON CONFLICT (device_id)
 * DO UPDATE SET c = excluded.c` over the columns of `values` (a created row also gets `defaults`), on SQLite and
 * PostgreSQL alike — one statement when every device sent a state report. In device-id order, so two processes'
 * batches (shared subscriptions hand a device's messages to either) lock common rows in the same order instead of
 * deadlocking. One row per device (merged before), so no statement touches a row twice. Answers each written row's
 * change-message columns ({@link LiveStateRow}) by device id, as the statement left them. Throws the database's
 * error (the batch then rolls back).
 */
async function writeDeviceStates(
  trx: Db,
  states: ReadonlyMap<string, PendingState>,
): Promise<Map<string, LiveStateRow>> {
  const written = new Map<string, LiveStateRow>();
  const shapeOf = (state: PendingState) =>
    `${Object.keys(state.defaults).sort().join()}|${Object.keys(state.values).sort().join()}`;
  const runs: Array<{ shape: string; devices: Array<{ deviceId: string; state: PendingState }> }> = [];
  for (const deviceId of [...states.keys()].sort()) {
    const state = states.get(deviceId) as PendingState;
    const shape = shapeOf(state);
    const last = runs.at(-1);
    if (last?.shape === shape) last.devices.push({ deviceId, state });
    else runs.push({ shape, devices: [{ deviceId, state }] });
  }
  for (const { devices } of runs) {
    const { values, defaults } = devices[0].state;
    const updated = Object.keys(values) as Array<keyof DeviceStateValues>;
    const columns = 1 + updated.length + Object.keys(defaults).length;
    const perStatement = Math.max(1, Math.floor(MAX_PARAMETERS / columns));
    for (let i = 0; i < devices.length; i += perStatement) {
      // A created row is complete: the writers pass every column without a default in `values` or `defaults`.
      const rows = devices
        .slice(i, i + perStatement)
        .map(
          ({ deviceId, state }) =>
            ({ ...state.defaults, ...state.values, device_id: deviceId }) as Insertable<DeviceStateTable>,
        );
      const insert = trx.insertInto("device_state").values(rows);
      const returned = await (updated.length === 0
        ? insert.onConflict((oc) => oc.column("device_id").doNothing())
        : insert.onConflict((oc) =>
            oc
              .column("device_id")
              .doUpdateSet((eb) => Object.fromEntries(updated.map((c) => [c, eb.ref(`excluded.${c}`)]))),
          )
      )
        .returning(LIVE_STATE_COLUMNS)
        .execute();
      for (const { device_id, ...live } of returned) written.set(device_id, live);
    }
  }
  return written;
}

/**
 * The `device_state` columns of a change message ({@link LiveStateRow}, and how the cloud hears the device:
 * {@link LinkFactsRow}), returned by the batch's upsert.
 */
const LIVE_STATE_COLUMNS = [
  "device_id",
  "online",
  "station",
  "station_remaining_seconds",
  "remaining_water_l",
  "flow_rate_lpm",
  "last_report_time",
  "reported_at",
  "station_started_at",
  "station_duration_seconds",
  "service_remaining_seconds",
  "clock_rate",
  "last_heard_at",
  "status_at",
  "reports_refused_since",
  "reports_refused_reason",
] as const;

/** Devices per statement of {@link writeDeviceIdentities}: 5 parameters each. */
const IDENTITIES_PER_STATEMENT = 1000;

/**
 * The batch's changed device identities (model, serial numbers, firmware: a state report that differs from the row)
 * in one `WITH v(…) AS (VALUES …) UPDATE devices … FROM v` per 1,000 devices, in device-id order (the
 * same statement on SQLite ≥ 3.33 and PostgreSQL, every column text). Throws the database's error.
 */
async function writeDeviceIdentities(trx: Db, identities: ReadonlyMap<string, DeviceIdentity>): Promise<void> {
  const ids = [...identities.keys()].sort();
  for (let i = 0; i < ids.length; i += IDENTITIES_PER_STATEMENT) {
    const rows = ids.slice(i, i + IDENTITIES_PER_STATEMENT).map((id) => {
      const d = identities.get(id) as DeviceIdentity;
      return sql`(${id}, ${d.model}, ${d.serial_number}, ${d.device_serial_number}, ${d.firmware_version})`;
    });
    await sql`with v (id, model, serial_number, device_serial_number, firmware_version) as (values ${sql.join(rows)})
      update devices set model = v.model, serial_number = v.serial_number,
        device_serial_number = v.device_serial_number, firmware_version = v.firmware_version
      from v where devices.id = v.id`.execute(trx);
  }
}
