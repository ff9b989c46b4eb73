import { MQTT_BOUNDS } from "@aquapilot/contract";
import { sql } from "kysely";
import { isPostgres } from "../../db/engine.ts";
import type { Db } from "../../db/index.ts";
import type { DeviceWaterHourlyTable } from "../../db/schema.ts";

const HOUR_MS = 3_600_000;

/** True when `ts` is a readable time (ISO 8601 or epoch ms) that `Date` can also print. */
function readableTime(ts: string | number | Date): boolean {
  const t = new Date(ts).getTime();
  return Number.isFinite(t);
}

/** ISO UTC start of the hour holding `ts` (any ISO 8601 time), e.g. 2026-11-22T14:00:00.000Z. */
export function hourStartOf(ts: string | number | Date): string {
  const t = new Date(ts).getTime();
  return new Date(Math.floor(t / HOUR_MS) * HOUR_MS).toISOString();
}

/** UTC day YYYY-MM-DD holding `ts`. */
export function dayOf(ts: string | number | Date): string {
  return new Date(ts).toISOString().slice(0, 10);
}

/**
 * Recomputes the hourly rollup of the hour holding `ts` (server time of arrival: hours are real hours, whatever the
 * device clock says) from the raw telemetry that arrived in that hour, then the daily rollup of its day from the
 * hourly rows, and upserts both. Because every value is recomputed from the rows below it, calling this any number
 * of times for the same data gives the same rows (idempotent), and a redelivered or late telemetry message is counted
 * once. Cost: ≤ 1 hour of raw rows + ≤ 24 rows.
 * `received_at` is ISO UTC text as produced by `Date.toISOString()`, so text order is time order on both engines.
 * Hardened against rows stored before device messages were validated (or by hand): a raw row counts only when its
 * water (0 ≤ L ≤ MQTT_BOUNDS.intervalWaterL) and flow (0 ≤ L/min ≤ MQTT_BOUNDS.flowLpm) are plausible — NaN, ±Infinity,
 * 1e308, negative or text values are left out on both engines instead of turning the hour into NULL — and an unreadable
 * `ts` rolls nothing up (no throw).
 */
export async function rollupTelemetryAt(db: Db, deviceId: string, ts: string, now = new Date()): Promise<void> {
  await rollupTelemetryBatch(db, [{ deviceId, receivedAt: ts }], now);
}

/**
 * A device and a time of arrival whose hour (and day) {@link rollupTelemetryBatch} updates; with the record's values
 * when the record was stored just now, by the same transaction, and is passed this once (the ingest path): its hour
 * then adds them to the sum it keeps instead of reading the hour's raw rows again.
 */
export interface TelemetryArrival {
  deviceId: string;
  /** Server time of arrival, ISO UTC; an unreadable one is skipped. */
  receivedAt: string;
  /** The new record's water since the previous record, L (with {@link flowRateLpm}). */
  intervalWaterL?: number;
  /** The new record's flow, L/min (with {@link intervalWaterL}). */
  flowRateLpm?: number;
}

/** A touched (device, hour): what the batch's new records add to it, or that it is recomputed from the raw rows. */
interface HourChange {
  deviceId: string;
  start: string;
  /** Recompute from the raw rows (an arrival without values, no stored sum yet, or a row written before 0018). */
  recompute: boolean;
  /** The new plausible records' water, L (unrounded), count and highest flow, L/min. */
  water: number;
  samples: number;
  maxFlow: number;
}

/** The rollup's filter (as in the SQL below): 0 ≤ water ≤ MQTT_BOUNDS.intervalWaterL, 0 ≤ flow ≤ MQTT_BOUNDS.flowLpm. */
function plausible(waterL: number, flowLpm: number): boolean {
  return waterL >= 0 && waterL <= MQTT_BOUNDS.intervalWaterL && flowLpm >= 0 && flowLpm <= MQTT_BOUNDS.flowLpm;
}

/**
 * {@link rollupTelemetryAt} for many devices and hours at once: every
 * distinct (device, UTC hour of arrival) of `arrivals` is brought up to date, then every touched (device, UTC day)
 * recomputed from its hourly rows — with one read and one multi-row upsert per level (plus a delete for a touched hour
 * or day left without plausible rows), whatever the number of arrivals. An hour whose arrivals all carry their values
 * (records stored just now) and that has a stored unrounded sum adds the new plausible records to it (sum, count,
 * highest flow; the stored row locked on PostgreSQL, so another process's batch of the device waits for this one);
 * any other hour is recomputed from its raw rows. Same values and filters as {@link rollupTelemetryAt}; `now` is the
 * rows' `updated_at`. Run it inside the transaction that stored the raw rows.
 */
export async function rollupTelemetryBatch(
  db: Db,
  arrivals: ReadonlyArray<TelemetryArrival>,
  now = new Date(),
): Promise<void> {
  const hours = new Map<string, HourChange>();
  for (const a of arrivals) {
    if (!readableTime(a.receivedAt)) continue;
    const start = hourStartOf(a.receivedAt);
    const key = `${a.deviceId}|${start}`;
    let hour = hours.get(key);
    if (!hour) {
      hour = { deviceId: a.deviceId, start, recompute: false, water: 0, samples: 0, maxFlow: 0 };
      hours.set(key, hour);
    }
    if (a.intervalWaterL === undefined || a.flowRateLpm === undefined) {
      hour.recompute = true;
    } else if (plausible(a.intervalWaterL, a.flowRateLpm)) {
      hour.water += a.intervalWaterL;
      hour.samples++;
      hour.maxFlow = Math.max(hour.maxFlow, a.flowRateLpm);
    }
  }
  if (hours.size === 0) return;
  const updatedAt = now.toISOString();
  const hourly: DeviceWaterHourlyTable[] = [];
  const adding = [...hours.entries()].filter(([, h]) => !h.recompute);
  if (adding.length > 0) {
    const starts = adding.map(([, h]) => h.start).sort();
    let read = db
      .selectFrom("device_water_hourly")
      .select(["device_id", "hour_start", "water_sum_l", "samples", "max_flow_lpm"])
      .where("device_id", "in", [...new Set(adding.map(([, h]) => h.deviceId))])
      .where("hour_start", ">=", starts[0])
      .where("hour_start", "<=", starts[starts.length - 1])
      .orderBy("device_id")
      .orderBy("hour_start");
    if (isPostgres(db)) read = read.forUpdate();
    const stored = new Map((await read.execute()).map((r) => [`${r.device_id}|${r.hour_start}`, r]));
    for (const [key, h] of adding) {
      const row = stored.get(key);
      if (!row || row.water_sum_l === null) {
        h.recompute = true;
        continue;
      }
      // No plausible new record: the hour stays as it is (its raw rows would give the same).
      if (h.samples === 0) continue;
      const sum = Number(row.water_sum_l) + h.water;
      hourly.push({
        device_id: h.deviceId,
        hour_start: h.start,
        water_l: round3(sum),
        water_sum_l: sum,
        samples: Number(row.samples) + h.samples,
        max_flow_lpm: Math.max(Number(row.max_flow_lpm), h.maxFlow),
        updated_at: updatedAt,
      });
    }
  }
  const recomputed = new Map([...hours.entries()].filter(([, h]) => h.recompute));
  if (recomputed.size > 0 && isPostgres(db)) {
    // A new hour has no row to lock: another process's batch of the same hour (its rows not yet committed) waits here
    // for this transaction, then recomputes with this one's rows (PostgreSQL reads what committed before each
    // statement). In key order, as every batch takes them.
    for (const key of [...recomputed.keys()].sort()) {
      await sql`SELECT pg_advisory_xact_lock(hashtext(${`rollup|${key}`}))`.execute(db);
    }
  }
  if (recomputed.size > 0) {
    const starts = [...recomputed.values()].map((h) => h.start).sort();
    const hourBucket = sql<string>`substr(received_at, 1, 13)`;
    const hourRows = await db
      .selectFrom("device_telemetry")
      .select((eb) => [
        "device_id",
        hourBucket.as("hour"),
        eb.fn.coalesce(eb.fn.sum<number>("interval_water_l"), eb.lit(0)).as("water"),
        eb.fn.countAll<number>().as("samples"),
        eb.fn.coalesce(eb.fn.max<number>("flow_rate_lpm"), eb.lit(0)).as("maxFlow"),
      ])
      .where("device_id", "in", [...new Set([...recomputed.values()].map((h) => h.deviceId))])
      .where("received_at", ">=", starts[0])
      .where("received_at", "<", new Date(new Date(starts[starts.length - 1]).getTime() + HOUR_MS).toISOString())
      .where("interval_water_l", ">=", 0)
      .where("interval_water_l", "<=", MQTT_BOUNDS.intervalWaterL)
      .where("flow_rate_lpm", ">=", 0)
      .where("flow_rate_lpm", "<=", MQTT_BOUNDS.flowLpm)
      .groupBy(["device_id", hourBucket])
      .execute();
    const written = new Set<string>();
    for (const r of hourRows) {
      const hourStart = `${r.hour}:00:00.000Z`;
      const key = `${r.device_id}|${hourStart}`;
      if (Number(r.samples) === 0 || !recomputed.has(key)) continue;
      written.add(key);
      hourly.push({
        device_id: r.device_id,
        hour_start: hourStart,
        water_l: round3(Number(r.water)),
        water_sum_l: Number(r.water),
        samples: Number(r.samples),
        max_flow_lpm: Number(r.maxFlow),
        updated_at: updatedAt,
      });
    }
    for (const [key, h] of recomputed) {
      if (written.has(key)) continue;
      await db
        .deleteFrom("device_water_hourly")
        .where("device_id", "=", h.deviceId)
        .where("hour_start", "=", h.start)
        .execute();
    }
  }
  if (hourly.length > 0) {
    await db
      .insertInto("device_water_hourly")
      .values(hourly)
      .onConflict((oc) =>
        oc.columns(["device_id", "hour_start"]).doUpdateSet((eb) => ({
          water_l: eb.ref("excluded.water_l"),
          water_sum_l: eb.ref("excluded.water_sum_l"),
          samples: eb.ref("excluded.samples"),
          max_flow_lpm: eb.ref("excluded.max_flow_lpm"),
          updated_at: eb.ref("excluded.updated_at"),
        })),
      )
      .execute();
  }

  const days = new Map<string, { deviceId: string; day: string }>();
  for (const h of hours.values())
    days.set(`${h.deviceId}|${dayOf(h.start)}`, { deviceId: h.deviceId, day: dayOf(h.start) });
  const dayList = [...days.values()].map((d) => d.day).sort();
  const lastDayEnd = new Date(new Date(`${dayList[dayList.length - 1]}T00:00:00.000Z`).getTime() + 24 * HOUR_MS);
  const dayBucket = sql<string>`substr(hour_start, 1, 10)`;
  const dayRows = await db
    .selectFrom("device_water_hourly")
    .select((eb) => [
      "device_id",
      dayBucket.as("day"),
      eb.fn.coalesce(eb.fn.sum<number>("water_l"), eb.lit(0)).as("water"),
      eb.fn.coalesce(eb.fn.sum<number>("samples"), eb.lit(0)).as("samples"),
    ])
    .where("device_id", "in", [...new Set([...days.values()].map((d) => d.deviceId))])
    .where("hour_start", ">=", `${dayList[0]}T00:00:00.000Z`)
    .where("hour_start", "<", lastDayEnd.toISOString())
    .where("water_l", ">=", 0)
    .where("water_l", "<=", MQTT_BOUNDS.waterL)
    .groupBy(["device_id", dayBucket])
    .execute();
  const daily = dayRows
    .map((r) => ({
      device_id: r.device_id,
      day: r.day,
      water_l: round3(Number(r.water)),
      samples: Number(r.samples),
      updated_at: updatedAt,
    }))
    .filter((r) => r.samples > 0 && days.has(`${r.device_id}|${r.day}`));
  if (daily.length > 0) {
    await db
      .insertInto("device_water_daily")
      .values(daily)
      .onConflict((oc) =>
        oc.columns(["device_id", "day"]).doUpdateSet((eb) => ({
          water_l: eb.ref("excluded.water_l"),
          samples: eb.ref("excluded.samples"),
          updated_at: eb.ref("excluded.updated_at"),
        })),
      )
      .execute();
  }
  const daysWritten = new Set(daily.map((r) => `${r.device_id}|${r.day}`));
  for (const [key, d] of days) {
    if (daysWritten.has(key)) continue;
    await db.deleteFrom("device_water_daily").where("device_id", "=", d.deviceId).where("day", "=", d.day).execute();
  }
}

/**
 * Rebuilds the hourly and daily rollups of one device (or every device) from raw telemetry: deletes them and
 * recomputes each hour that has data. Answers the number of hours written. Safe to run while telemetry arrives
 * (each hour is recomputed from raw, so a concurrent {@link rollupTelemetryAt} writes the same values). Rows with
 * unreadable times or implausible values are skipped, never a reason to throw.
 */
export async function backfillRollups(db: Db, deviceId?: string): Promise<number> {
  let del1 = db.deleteFrom("device_water_hourly");
  let del2 = db.deleteFrom("device_water_daily");
  if (deviceId) {
    del1 = del1.where("device_id", "=", deviceId);
    del2 = del2.where("device_id", "=", deviceId);
  }
  await del1.execute();
  await del2.execute();
  let q = db
    .selectFrom("device_telemetry")
    .select(["device_id", "ts", "received_at"])
    .orderBy("device_id")
    .orderBy("ts");
  if (deviceId) q = q.where("device_id", "=", deviceId);
  const seen = new Set<string>();
  let hours = 0;
  // Keyset pages so a year of per-minute rows is never held at once.
  let last: { device_id: string; ts: string } | null = null;
  for (;;) {
    let page = q.limit(5000);
    if (last) {
      const l: { device_id: string; ts: string } = last;
      page = page.where((eb) =>
        eb.or([eb("device_id", ">", l.device_id), eb.and([eb("device_id", "=", l.device_id), eb("ts", ">", l.ts)])]),
      );
    }
    const rows = await page.execute();
    if (rows.length === 0) break;
    for (const r of rows) {
      // A row whose times cannot be read (stored before device messages were validated) is skipped, not a reason to
      // stop the rebuild.
      const at = r.received_at && readableTime(r.received_at) ? r.received_at : r.ts;
      if (!readableTime(at)) continue;
      const key = `${r.device_id}|${hourStartOf(at)}`;
      if (seen.has(key)) continue;
      seen.add(key);
      await rollupTelemetryAt(db, r.device_id, at);
      hours++;
    }
    last = rows[rows.length - 1];
  }
  return hours;
}

function round3(n: number): number {
  return Math.round(n * 1000) / 1000;
}
