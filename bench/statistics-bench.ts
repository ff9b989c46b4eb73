/**
 * Benchmark (d): the month water-usage statistics (spec §7 device-flow-statistics, reportTimeType 1) of a device with
 * a year of per-minute telemetry. System: `deviceFlowStatistics`, which reads the daily rollup (≤ 31 rows) plus
 * regeneration events, settings and freshness. Bare: one SQL `SELECT date(ts), sum(interval_water_l) … GROUP BY 1`
 * straight over the raw rows of that month (about 43,000), on the same connection.
 */
import { performance } from "node:perf_hooks";
import type { Db } from "@aquapilot/server/db/index.ts";
import { provisionDevice } from "@aquapilot/server/modules/devices/provision.ts";
import { deviceFlowStatistics, REPORT_TIME_TYPE } from "@aquapilot/server/modules/statistics/flow-statistics.ts";
import { backfillRollups } from "@aquapilot/server/modules/statistics/rollup.ts";
import { sql } from "kysely";
import { type LatencySummary, summarise } from "./stats.ts";

const MINUTE_MS = 60_000;
/** Minutes in the 365-day year 2025. */
export const YEAR_MINUTES = 525_600;
/** The year of data starts here (UTC). */
const YEAR_START = Date.UTC(2025, 0, 1);
/** The month asked for (any day of it). */
const MONTH_DATE = "2025-06-15";

/** Options of {@link measureMonthStatistics}. */
export interface MonthStatisticsOptions {
  /** Measured runs of each query (default 200). */
  runs?: number;
  /** Runs before measuring (default 20). */
  warmup?: number;
  /** Rows per transaction when loading the year (default 10,000). */
  batch?: number;
}

/** Outcome of benchmark (d). */
export interface MonthStatisticsResult {
  rows: number;
  /** Seconds to insert the raw year. */
  loadSeconds: number;
  /** Seconds for `backfillRollups` of the device, and the hours it wrote. */
  backfillSeconds: number;
  hours: number;
  /** Days in the month answer and its water total, L (identical in both). */
  days: number;
  monthWaterL: number;
  system: LatencySummary;
  bare: LatencySummary;
}

/**
 * Water drawn in minute `m` of the year, L: 6 L/min in three of every seven minutes of 06–08 h and 19–21 h UTC,
 * nothing otherwise (≈ 154 L a day). Whole litres, so sums are exact on both paths.
 */
function minuteWater(m: number): number {
  const hour = Math.floor(m / 60) % 24;
  return (hour === 6 || hour === 7 || hour === 19 || hour === 20) && m % 7 < 3 ? 6 : 0;
}

async function time(runs: number, warmup: number, fn: () => Promise<unknown>): Promise<LatencySummary> {
  const latencies: number[] = [];
  for (let i = 0; i < warmup + runs; i++) {
    const t = performance.now();
    await fn();
    if (i >= warmup) latencies.push(performance.now() - t);
  }
  return summarise(latencies);
}

/**
 * Provisions one device (MAC BD0000000001), inserts a year of per-minute telemetry for it (525,600 rows, in
 * transactions of `batch` rows, multi-row INSERTs of 1,000), runs `backfillRollups` for it, checks that both paths
 * give the same daily water for June 2025, then times each path `runs` times, one after the other.
 * @throws when the two answers differ.
 */
export async function measureMonthStatistics(
  db: Db,
  options: MonthStatisticsOptions = {},
): Promise<MonthStatisticsResult> {
  const runs = options.runs ?? 200;
  const warmup = options.warmup ?? 20;
  const batch = options.batch ?? 10_000;
  const { id: deviceId } = await provisionDevice(db, { mac: "BD0000000001", secret: "bench-year", name: "Bench year" });

  let t = performance.now();
  let total = 0;
  for (let start = 0; start < YEAR_MINUTES; start += batch) {
    await db.transaction().execute(async (trx) => {
      for (let chunk = start; chunk < Math.min(start + batch, YEAR_MINUTES); chunk += 1000) {
        const rows = [];
        for (let m = chunk; m < Math.min(chunk + 1000, start + batch, YEAR_MINUTES); m++) {
          const w = minuteWater(m);
          total += w;
          const ts = new Date(YEAR_START + m * MINUTE_MS).toISOString();
          rows.push({
            device_id: deviceId,
            ts,
            // Hourly water is bucketed by arrival time (migration 0013 "one clock"): the bench's rows arrive on time.
            received_at: ts,
            total_water_l: total,
            flow_rate_lpm: w,
            interval_water_l: w,
          });
        }
        await trx.insertInto("device_telemetry").values(rows).execute();
      }
    });
  }
  const loadSeconds = (performance.now() - t) / 1000;
  t = performance.now();
  const hours = await backfillRollups(db, deviceId);
  const backfillSeconds = (performance.now() - t) / 1000;

  const now = new Date();
  const input = { deviceId, reportTimeType: REPORT_TIME_TYPE.month, date: MONTH_DATE };
  const systemQuery = () => deviceFlowStatistics(db, input, now);
  const answer = await systemQuery();
  const bareQuery = async () =>
    (
      await sql<{ day: string; water: number }>`
        SELECT date(ts) AS day, sum(interval_water_l) AS water
        FROM device_telemetry
        WHERE device_id = ${deviceId} AND ts >= ${answer.from} AND ts < ${answer.to}
        GROUP BY 1 ORDER BY 1`.execute(db)
    ).rows;
  const bareRows = await bareQuery();
  const bareByDay = new Map(bareRows.map((r) => [r.day, Number(r.water)]));
  for (const b of answer.buckets) {
    const day = b.start.slice(0, 10);
    if (Math.abs((bareByDay.get(day) ?? 0) - b.waterL) > 1e-6) {
      throw new Error(`month answers differ on ${day}: rollups ${b.waterL} L, raw ${bareByDay.get(day)} L`);
    }
  }

  const system = await time(runs, warmup, systemQuery);
  const bare = await time(runs, warmup, bareQuery);
  return {
    rows: YEAR_MINUTES,
    loadSeconds,
    backfillSeconds,
    hours,
    days: answer.buckets.length,
    monthWaterL: answer.totals.waterL,
    system,
    bare,
  };
}
