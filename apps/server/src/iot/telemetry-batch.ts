import type { Db } from "../db/index.ts";

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

/** Options of {@link TelemetryBatcher}. */
export interface TelemetryBatchOptions {
  db: Db;
  onTelemetry: TelemetryHook;
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
 */
export class TelemetryBatcher {
  private readonly db: Db;
  private readonly onTelemetry: TelemetryHook;
  private readonly maxRows: number;
  private readonly maxWaitMs: number;
  private pending: Pending[] = [];
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();
  private batches = 0;

  constructor(options: TelemetryBatchOptions) {
    this.db = options.db;
    this.onTelemetry = options.onTelemetry;
    this.maxRows = Math.max(1, options.maxRows ?? DEFAULT_BATCH_ROWS);
    this.maxWaitMs = Math.max(0, options.maxWaitMs ?? DEFAULT_BATCH_WAIT_MS);
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
      this.pending.push({ row, resolve, reject });
      if (this.pending.length >= this.maxRows) this.flush();
      else this.timer ??= setTimeout(() => this.flush(), this.maxWaitMs);
    });
  }

  /** Resolves when every record added so far is written (or its batch has failed). */
  async idle(): Promise<void> {
    while (this.pending.length > 0 || this.timer) this.flush();
    await this.writing;
  }

  /** Closes the open batch and queues its transaction behind the ones before it. */
  private flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.pending;
    this.pending = [];
    if (batch.length === 0) return;
    this.writing = this.writing.then(() => this.write(batch));
  }

  /** One batch, one transaction; settles every record's promise (never rejects). */
  private async write(batch: Pending[]): Promise<void> {
    // The first copy of a (device, ts) in the batch is the one that may be stored; later copies are redeliveries.
    const first = new Map<string, Pending>();
    for (const p of batch) {
      const key = keyOf(p.row.deviceId, p.row.ts);
      if (!first.has(key)) first.set(key, p);
    }
    const unique = [...first.values()].map((p) => p.row);
    let stored: Set<string>;
    try {
      stored = await this.db.transaction().execute((trx) => this.store(trx, unique));
      this.batches++;
    } catch (err) {
      for (const p of batch) p.reject(err as Error);
      return;
    }
    for (const p of batch) {
      const key = keyOf(p.row.deviceId, p.row.ts);
      p.resolve(first.get(key) === p && stored.has(key));
    }
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
