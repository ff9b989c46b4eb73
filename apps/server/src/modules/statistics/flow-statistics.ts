import type { TFlowStatistics } from "@aquapilot/contract";
import type { Db } from "../../db/index.ts";
import { AppError, ErrorCode } from "../../http/errors.ts";
import { addLocalDays, localDateKey, localDateStart, localMonthStart } from "../../http/time-zone.ts";
import { readFreshness } from "./freshness.ts";
import { readReportedSettings, saltPerRegenerationKg } from "./settings.ts";

const HOUR_MS = 3_600_000;

/** Report time types of spec §3. */
export const REPORT_TIME_TYPE = { month: 1, week: 2, day: 3 } as const;

/**
 * The period of a report in the owner's time zone `zone` (days begin at local midnight, so a
 * daylight-saving day has 23 or 25 hourly buckets): type 3 day = that local day in hourly buckets; 2 week =
 * Monday–Sunday holding `date` in 7 daily buckets; 1 month = the calendar month holding `date` in 28–31 daily buckets.
 * Bucket starts are instants (ISO UTC on the wire).
 * @param date YYYY-MM-DD, a local calendar date (any later characters ignored); default today in `zone`.
 * @throws AppError Validation for an impossible date.
 */
export function reportPeriod(
  reportTimeType: number,
  date: string | undefined,
  now: Date,
  zone = "UTC",
): { from: Date; to: Date; bucket: "hour" | "day"; starts: Date[] } {
  const key = (date ?? localDateKey(now, zone)).slice(0, 10);
  const probe = new Date(`${key}T00:00:00.000Z`);
  if (Number.isNaN(probe.getTime()) || probe.toISOString().slice(0, 10) !== key) {
    throw new AppError(ErrorCode.Validation, "validation.invalid", { field: "date" });
  }
  const day = localDateStart(key, zone);
  let from: Date;
  let to: Date;
  if (reportTimeType === REPORT_TIME_TYPE.day) {
    from = day;
    to = addLocalDays(day, 1, zone);
  } else if (reportTimeType === REPORT_TIME_TYPE.week) {
    const weekday = (probe.getUTCDay() + 6) % 7; // Monday = 0 (the calendar date's weekday)
    from = addLocalDays(day, -weekday, zone);
    to = addLocalDays(from, 7, zone);
  } else {
    from = localMonthStart(day, zone);
    to = localMonthStart(day, zone, 1);
  }
  const bucket = reportTimeType === REPORT_TIME_TYPE.day ? "hour" : "day";
  const starts: Date[] = [];
  if (bucket === "hour") {
    for (let t = from.getTime(); t < to.getTime(); t += HOUR_MS) starts.push(new Date(t));
  } else {
    for (let d = from; d.getTime() < to.getTime(); d = addLocalDays(d, 1, zone)) starts.push(d);
  }
  return { from, to, bucket, starts };
}

/** Index of the bucket holding instant `t` (ms): the last start ≤ t; -1 before the first. `starts` ascending. */
function bucketIndex(starts: number[], t: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (starts[mid] <= t) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/**
 * Water-usage statistics of a device (spec §7 device-flow-statistics) in the owner's
 * local hours or days (`zone`, IANA): per bucket the water used (L, from the hourly rollups, which count water in the
 * real hour it arrived — a month reads ≤ 744 rows), the regenerations started and the salt they drew (kg: what each
 * "regeneration-end" reports, or regenerations × settings saltAddition for a valve that does not report it), all by
 * real (server) time so water and regenerations land on the same days whatever the device clock says; plus totals
 * and freshness. Access is checked by the caller.
 * @throws AppError Validation for an impossible date.
 */
export async function deviceFlowStatistics(
  db: Db,
  input: { deviceId: string; reportTimeType: number; date?: string },
  now: Date,
  zone = "UTC",
): Promise<TFlowStatistics> {
  const { from, to, bucket, starts } = reportPeriod(input.reportTimeType, input.date, now, zone);
  const fromIso = from.toISOString();
  const toIso = to.toISOString();
  const startMs = starts.map((d) => d.getTime());
  const water = new Array<number>(starts.length).fill(0);
  const regenerations = new Array<number>(starts.length).fill(0);
  const reportedSalt = new Array<number>(starts.length).fill(0);
  let saltReported = false;
  const rows = await db
    .selectFrom("device_water_hourly")
    .select(["hour_start", "water_l"])
    .where("device_id", "=", input.deviceId)
    .where("hour_start", ">=", fromIso)
    .where("hour_start", "<", toIso)
    .execute();
  for (const r of rows) {
    const i = bucketIndex(startMs, Date.parse(r.hour_start));
    if (i >= 0) water[i] += r.water_l;
  }
  const events = await db
    .selectFrom("device_events")
    .select(["type", "received_at", "salt_kg"])
    .where("device_id", "=", input.deviceId)
    .where("type", "in", ["regeneration-start", "regeneration-end"])
    .where("received_at", ">=", fromIso)
    .where("received_at", "<", toIso)
    .execute();
  for (const e of events) {
    const i = bucketIndex(startMs, Date.parse(e.received_at));
    if (i < 0) continue;
    if (e.type === "regeneration-start") regenerations[i] += 1;
    else if (e.salt_kg !== null) {
      saltReported = true;
      reportedSalt[i] += e.salt_kg;
    }
  }
  const salt = saltPerRegenerationKg(await readReportedSettings(db, input.deviceId)) ?? 0;
  const buckets = starts.map((s, i) => ({
    start: s.toISOString(),
    waterL: round(water[i]),
    regenerations: regenerations[i],
    saltKg: round(saltReported ? reportedSalt[i] : regenerations[i] * salt),
  }));
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
