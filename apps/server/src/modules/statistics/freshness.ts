import type { Db } from "../../db/index.js";

/**
 * Freshness of a device's values (issue 4 "Freshness"): device-clock time of its last report and the measured
 * drift of its clock from server time, seconds (positive: device ahead). Nulls when unknown.
 */
export async function readFreshness(
  db: Db,
  deviceId: string,
): Promise<{ lastReportTime: string | null; clockDriftSeconds: number | null }> {
  const row = await db
    .selectFrom("devices as d")
    .leftJoin("device_state as s", "s.device_id", "d.id")
    .leftJoin("device_clock as c", "c.device_id", "d.id")
    .select(["s.last_report_time", "c.drift_seconds"])
    .where("d.id", "=", deviceId)
    .executeTakeFirst();
  return {
    lastReportTime: row?.last_report_time ?? null,
    clockDriftSeconds: row?.drift_seconds === null || row?.drift_seconds === undefined ? null : row.drift_seconds,
  };
}

/**
 * Records the drift measured now: `lastReportTime` (device clock, just reported) − `now` (server time), seconds,
 * rounded to 0.1 s. Idempotent upsert per device.
 */
export async function recordClockDrift(db: Db, deviceId: string, lastReportTime: string, now: Date): Promise<number> {
  const drift = Math.round((Date.parse(lastReportTime) - now.getTime()) / 100) / 10;
  const values = { last_report_time: lastReportTime, drift_seconds: drift, measured_at: now.toISOString() };
  await db
    .insertInto("device_clock")
    .values({ device_id: deviceId, ...values })
    .onConflict((oc) => oc.column("device_id").doUpdateSet(values))
    .execute();
  return drift;
}
