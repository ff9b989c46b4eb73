import type { Db } from "../../db/index.ts";

/**
 * Freshness of a device's values (issue 4 "Freshness"): device-clock time of its last report and the measured
 * drift of its clock from server time, seconds (positive: device ahead). The drift is null when unknown: not measured,
 * or the clock's rate (`device_state.clock_rate`, issue 10) is not yet measured as real time.
 */
export async function readFreshness(
  db: Db,
  deviceId: string,
): Promise<{ lastReportTime: string | null; clockDriftSeconds: number | null }> {
  const row = await db
    .selectFrom("devices as d")
    .leftJoin("device_state as s", "s.device_id", "d.id")
    .leftJoin("device_clock as c", "c.device_id", "d.id")
    .select(["s.last_report_time", "s.clock_rate", "c.drift_seconds", "c.accelerated"])
    .where("d.id", "=", deviceId)
    .executeTakeFirst();
  return {
    lastReportTime: row?.last_report_time ?? null,
    // A clock that runs at a multiple of real time (a time-scaled simulator) has no meaningful drift, and neither has
    // one whose rate the gateway has not measured yet (two state reports ≥ 5 s apart): a fresh 60× simulator would
    // otherwise show "15 min off" until its second reading.
    clockDriftSeconds:
      row?.drift_seconds === null || row?.drift_seconds === undefined || row.accelerated === 1 || row.clock_rate !== 1
        ? null
        : row.drift_seconds,
  };
}

/**
 * Whether a device clock runs at a multiple of real time: between two measurements at least 1 s of server time apart,
 * the device clock advanced by more than 1.5× or less than 0.5× the server's. A real clock's drift is seconds per
 * day (rate ≈ 1); a time-scaled simulator's clock runs e.g. 60× (rate 60). With less than 1 s between measurements
 * the previous verdict stands.
 */
export function isAcceleratedClock(
  previous: { lastReportTime: string; measuredAt: string; accelerated: boolean } | undefined,
  lastReportTime: string,
  now: Date,
): boolean {
  if (!previous) return false;
  const server = now.getTime() - Date.parse(previous.measuredAt);
  if (server < 1000) return previous.accelerated;
  const rate = (Date.parse(lastReportTime) - Date.parse(previous.lastReportTime)) / server;
  return rate > 1.5 || rate < 0.5;
}

/**
 * Records the drift measured now: `lastReportTime` (device clock, just reported) − `now` (server time), seconds,
 * rounded to 0.1 s, and whether the clock runs at a multiple of real time ({@link isAcceleratedClock}: then
 * {@link readFreshness} reports no drift). Idempotent upsert per device.
 */
export async function recordClockDrift(db: Db, deviceId: string, lastReportTime: string, now: Date): Promise<number> {
  const drift = Math.round((Date.parse(lastReportTime) - now.getTime()) / 100) / 10;
  const prev = await db
    .selectFrom("device_clock")
    .select(["last_report_time", "measured_at", "accelerated"])
    .where("device_id", "=", deviceId)
    .executeTakeFirst();
  const accelerated = isAcceleratedClock(
    prev && {
      lastReportTime: prev.last_report_time,
      measuredAt: prev.measured_at,
      accelerated: prev.accelerated === 1,
    },
    lastReportTime,
    now,
  );
  const values = {
    last_report_time: lastReportTime,
    drift_seconds: drift,
    measured_at: now.toISOString(),
    accelerated: accelerated ? 1 : 0,
  };
  await db
    .insertInto("device_clock")
    .values({ device_id: deviceId, ...values })
    .onConflict((oc) => oc.column("device_id").doUpdateSet(values))
    .execute();
  return drift;
}
