import type { TFlowStatistics } from "@aquapilot/contract";
import type { Db } from "../../db/index.js";
import { AppError, ErrorCode } from "../../http/errors.js";
import { readFreshness } from "./freshness.js";
import { dayOf, hourStartOf } from "./rollup.js";
import { readReportedSettings, saltPerRegenerationKg } from "./settings.js";

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** Report time types of spec §3. */
export const REPORT_TIME_TYPE = { month: 1, week: 2, day: 3 } as const;

/**
 * The period of a report (UTC): type 3 day = that day in 24 hourly buckets; 2 week = Monday–Sunday holding `date`
 * in 7 daily buckets; 1 month = the calendar month holding `date` in 28–31 daily buckets.
 * @param date YYYY-MM-DD (any later characters ignored); default the UTC day of `now`.
 * @throws AppError Validation for an impossible date.
 */
export function reportPeriod(
  reportTimeType: number,
  date: string | undefined,
  now: Date,
): { from: Date; to: Date; bucket: "hour" | "day"; starts: Date[] } {
  const day = new Date(`${(date ?? now.toISOString()).slice(0, 10)}T00:00:00.000Z`);
  if (Number.isNaN(day.getTime())) throw new AppError(ErrorCode.Validation, "validation.invalid", { field: "date" });
  let from: Date;
  let to: Date;
  if (reportTimeType === REPORT_TIME_TYPE.day) {
    from = day;
    to = new Date(day.getTime() + DAY_MS);
  } else if (reportTimeType === REPORT_TIME_TYPE.week) {
    const weekday = (day.getUTCDay() + 6) % 7; // Monday = 0
    from = new Date(day.getTime() - weekday * DAY_MS);
    to = new Date(from.getTime() + 7 * DAY_MS);
  } else {
    from = new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), 1));
    to = new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth() + 1, 1));
  }
  const bucket = reportTimeType === REPORT_TIME_TYPE.day ? "hour" : "day";
  const step = bucket === "hour" ? HOUR_MS : DAY_MS;
  const starts: Date[] = [];
  for (let t = from.getTime(); t < to.getTime(); t += step) starts.push(new Date(t));
  return { from, to, bucket, starts };
}

/**
 * Water-usage statistics of a device (spec §7 device-flow-statistics; issue 4): per bucket the water used (L, from
 * the hourly or daily rollups — a month reads ≤ 31 rows), the regenerations started (device_events
 * "regeneration-start", bucketed by device time) and the salt used (regenerations × settings saltAddition, kg), plus
 * totals and freshness. Access is checked by the caller.
 */
export async function deviceFlowStatistics(
  db: Db,
  input: { deviceId: string; reportTimeType: number; date?: string },
  now: Date,
): Promise<TFlowStatistics> {
  const { from, to, bucket, starts } = reportPeriod(input.reportTimeType, input.date, now);
  const fromIso = from.toISOString();
  const toIso = to.toISOString();
  const water = new Map<string, number>();
  if (bucket === "hour") {
    const rows = await db
      .selectFrom("device_water_hourly")
      .select(["hour_start", "water_l"])
      .where("device_id", "=", input.deviceId)
      .where("hour_start", ">=", fromIso)
      .where("hour_start", "<", toIso)
      .execute();
    for (const r of rows) water.set(r.hour_start, r.water_l);
  } else {
    const rows = await db
      .selectFrom("device_water_daily")
      .select(["day", "water_l"])
      .where("device_id", "=", input.deviceId)
      .where("day", ">=", fromIso.slice(0, 10))
      .where("day", "<", toIso.slice(0, 10))
      .execute();
    for (const r of rows) water.set(`${r.day}T00:00:00.000Z`, r.water_l);
  }
  const regenerations = new Map<string, number>();
  const events = await db
    .selectFrom("device_events")
    .select("ts")
    .where("device_id", "=", input.deviceId)
    .where("type", "=", "regeneration-start")
    .where("ts", ">=", fromIso)
    .where("ts", "<", toIso)
    .execute();
  for (const e of events) {
    const key = bucket === "hour" ? hourStartOf(e.ts) : `${dayOf(e.ts)}T00:00:00.000Z`;
    regenerations.set(key, (regenerations.get(key) ?? 0) + 1);
  }
  const salt = saltPerRegenerationKg(await readReportedSettings(db, input.deviceId)) ?? 0;
  const buckets = starts.map((s) => {
    const key = s.toISOString();
    const n = regenerations.get(key) ?? 0;
    return { start: key, waterL: round(water.get(key) ?? 0), regenerations: n, saltKg: round(n * salt) };
  });
  const totals = buckets.reduce(
    (t, b) => ({
      waterL: t.waterL + b.waterL,
      regenerations: t.regenerations + b.regenerations,
      saltKg: t.saltKg + b.saltKg,
    }),
    { waterL: 0, regenerations: 0, saltKg: 0 },
  );
  return {
    deviceId: input.deviceId,
    reportTimeType: input.reportTimeType,
    from: fromIso,
    to: toIso,
    bucket,
    buckets,
    totals: { waterL: round(totals.waterL), regenerations: totals.regenerations, saltKg: round(totals.saltKg) },
    ...(await readFreshness(db, input.deviceId)),
  };
}

function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}
