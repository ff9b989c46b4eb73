import type { TDeviceChangeMessage } from "@aquapilot/contract";
import type { Bus } from "../bus.ts";
import type { Db } from "../db/index.ts";
import { type ChangeKind, devicesWithState, inChunks, presentChange, readChangeRows } from "./change-message.ts";

/**
 * Called in the transaction of every batch that stored new telemetry, with that transaction and, in arrival order,
 * the device id and receive time (ISO UTC) of each record the batch stored for the first time (a redelivered one
 * stored nothing and is not passed): the statistics module's hourly and daily rollups (issue 4), which recompute each
 * touched hour and day from the rows below them. The device link never imports a module (issue 13): the composition
 * root (system.ts) passes the module's function. An error rolls the whole batch back (nothing stored, nothing
 * acknowledged).
 */
export type TelemetryHook = (
  db: Db,
  arrivals: ReadonlyArray<{ deviceId: string; receivedAt: string }>,
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
}

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
   * Announces the device's change after the commit (`device.changed` on the bus, with the change message built from
   * the rows as the batch left them, read for the whole batch in one query); `extra` is the event or acknowledgement.
   */
  announce(deviceId: string, kind: ChangeKind, extra?: Pick<TDeviceChangeMessage, "event" | "ack">): void;
}

/** Options of {@link TelemetryBatcher}. */
export interface TelemetryBatchOptions {
  db: Db;
  onTelemetry: TelemetryHook;
  /** Where announcements of {@link BatchContext.announce} and of stored telemetry go; without it nothing is announced. */
  bus?: Bus;
  /** A batch is written at once when it holds this many records (default {@link DEFAULT_BATCH_ROWS}). */
  maxRows?: number;
  /** Longest a record waits for others before its batch is written, ms (default {@link DEFAULT_BATCH_WAIT_MS}). */
  maxWaitMs?: number;
}

/** Default most records per batch (one transaction). */
export const DEFAULT_BATCH_ROWS = 500;
/** Default longest wait of a record for its batch, ms. */
export const DEFAULT_BATCH_WAIT_MS = 1;
/** Rows per INSERT statement: 6 parameters each, far below SQLite's 32,766 and PostgreSQL's 65,535 parameters. */
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

const keyOf = (deviceId: string, ts: string) => `${deviceId}\u0000${ts}`;

/**
 * Writes telemetry in batches (issue 14 "Ingest", decision 51): records added within {@link TelemetryBatchOptions.maxWaitMs}
 * of the first one (or until {@link TelemetryBatchOptions.maxRows}) are written in one transaction — multi-row
 * INSERTs into `device_telemetry` that skip a (device, ts) already stored, then the {@link TelemetryHook} once with
 * the records stored now, then each device's live flow and total in `device_state` from its last new record — and
 * each record's promise settles only once that transaction has committed, so whoever acknowledges the message
 * (the broker's PUBACK) does so after the record is durable. Batches are written one after another, in order.
 * Idempotent: a record whose (device, ts) is stored already, or that repeats an earlier record of the same batch,
 * stores nothing and resolves false. A failed transaction rejects every record of its batch and leaves nothing of it.
 * Works on SQLite and PostgreSQL (`ON CONFLICT … DO NOTHING RETURNING`).
 *
 * Every other device message shares the batch too (issue 14 "Fleet push", decision 55): {@link run} queues a task
 * that runs inside the next batch's transaction with its device read for the whole batch in one query (by MAC), and
 * whose announcements are published after the commit with the batch's change messages read in one query — so a
 * state report costs no transaction, device read or change read of its own. The caller keeps at most one message
 * per device in a batch (the gateway's per-device queue), so a device's messages stay in order.
 */
export class TelemetryBatcher {
  private readonly db: Db;
  private readonly onTelemetry: TelemetryHook;
  private readonly maxRows: number;
  private readonly maxWaitMs: number;
  private readonly bus: Bus | undefined;
  private open: Batch = { rows: [], tasks: [] };
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();
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
   * its (device, ts) was stored before or earlier in the same batch (a redelivery).
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
   * Tasks run one after another in the order queued; at most one per device should be in a batch.
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
    while (this.open.rows.length > 0 || this.open.tasks.length > 0 || this.timer) this.flush();
    await this.writing;
  }

  private scheduled(): void {
    if (this.open.rows.length + this.open.tasks.length >= this.maxRows) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), this.maxWaitMs);
  }

  /** Closes the open batch and queues its transaction behind the ones before it. */
  private flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.open;
    this.open = { rows: [], tasks: [] };
    if (batch.rows.length === 0 && batch.tasks.length === 0) return;
    this.writing = this.writing.then(() => this.write(batch));
  }

  /** One batch, one transaction; settles every record's and task's promise (never rejects). */
  private async write(batch: Batch): Promise<void> {
    const results: unknown[] = [];
    const announcements: Announcement[] = [];
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
              announce: (deviceId, kind, extra = {}) => announcements.push({ deviceId, kind, extra }),
            }),
          );
        }
        // The first copy of a (device, ts) in the batch is the one that may be stored; later copies are redeliveries.
        first = new Map<string, Pending>();
        for (const p of batch.rows) {
          const key = keyOf(p.row.deviceId, p.row.ts);
          if (!first.has(key)) first.set(key, p);
        }
        stored = await this.store(
          trx,
          [...first.values()].map((p) => p.row),
        );
        for (const p of first.values()) {
          if (p.announce && stored.has(keyOf(p.row.deviceId, p.row.ts))) {
            announcements.push({ deviceId: p.row.deviceId, kind: "state", extra: {} });
          }
        }
        if (!this.bus || announcements.length === 0) return [];
        const rows = await readChangeRows(
          trx,
          announcements.map((a) => a.deviceId),
        );
        return announcements.flatMap((a) => {
          const row = rows.get(a.deviceId);
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
    for (const p of batch.rows) {
      const key = keyOf(p.row.deviceId, p.row.ts);
      p.resolve(first.get(key) === p && stored.has(key));
    }
    for (const [i, t] of batch.tasks.entries()) t.resolve(results[i]);
  }

  /** The batch's writes inside its transaction; returns the keys of the rows stored now. */
  private async store(trx: Db, rows: TelemetryRow[]): Promise<Set<string>> {
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
          })),
        )
        .onConflict((oc) => oc.columns(["device_id", "ts"]).doNothing())
        .returning(["device_id", "ts"])
        .execute();
      for (const r of inserted) stored.add(keyOf(r.device_id, r.ts));
    }
    // In arrival order: a device's last new record gives its live figures.
    const fresh = rows.filter((r) => stored.has(keyOf(r.deviceId, r.ts)));
    if (fresh.length === 0) return stored;
    const live = new Map<string, TelemetryRow>();
    for (const r of fresh) live.set(r.deviceId, r);
    await this.onTelemetry(trx, fresh);
    // The clock rate is measured on state reports only: no extra read on the busiest path.
    for (const r of live.values()) {
      await trx
        .updateTable("device_state")
        .set({ flow_rate_lpm: r.flowRateLpm, total_water_l: r.totalWaterL, updated_at: r.receivedAt })
        .where("device_id", "=", r.deviceId)
        .execute();
    }
    return stored;
  }
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
      ])
      .where("devices.mac", "in", chunk)
      .execute(),
  );
  return new Map(rows.map(({ mac, ...device }) => [mac, device]));
}
