import type { Db } from "../../db/index.ts";

/**
 * Freshness of a device's values: device-clock time of its last report and the measured
 * drift of its clock from server time, seconds (positive: device ahead). The drift is null when unknown: not measured,
 * or the clock's rate (`device_state.clock_rate`) is not yet measured as real time.
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

/** One clock-drift measurement: a device's just-reported device-clock time and the server time it arrived. */
export interface ClockDriftMeasurement {
  deviceId: string;
  /** Device clock time of the report, ISO. */
  lastReportTime: string;
  /** Server time of the measurement. */
  now: Date;
}

/**
 * Records the drift measured now: `lastReportTime` (device clock, just reported) − `now` (server time), seconds,
 * rounded to 0.1 s, and whether the clock runs at a multiple of real time ({@link isAcceleratedClock}: then
 * {@link readFreshness} reports no drift). Idempotent upsert per device. Answers the drift, seconds.
 */
export async function recordClockDrift(db: Db, deviceId: string, lastReportTime: string, now: Date): Promise<number> {
  const [drift] = await recordClockDrifts(db, [{ deviceId, lastReportTime, now }]);
  return drift;
}

/** Devices per statement of {@link recordClockDrifts}: 5 parameters a row, far below every engine's limit. */
export const CLOCK_ROWS_PER_STATEMENT = 500;

/**
 * {@link recordClockDrift} for many devices at once: their previous measurements
 * in one read and the new ones in one multi-row upsert per 500 devices, rows in device-id order — so two processes
 * writing overlapping devices lock them in the same order and cannot deadlock. At most one measurement per device
 * (a later one for the same device wins). Answers the drifts, seconds, in the order of `measurements`. Throws the
 * database's error (nothing written when `db` is a transaction that is then rolled back).
 */
export async function recordClockDrifts(db: Db, measurements: readonly ClockDriftMeasurement[]): Promise<number[]> {
  const latest = new Map<string, ClockDriftMeasurement>();
  for (const m of measurements) latest.set(m.deviceId, m);
  const ids = [...latest.keys()].sort();
  const previous = new Map<string, { last_report_time: string; measured_at: string; accelerated: number }>();
  for (let i = 0; i < ids.length; i += CLOCK_ROWS_PER_STATEMENT) {
    const rows = await db
      .selectFrom("device_clock")
      .select(["device_id", "last_report_time", "measured_at", "accelerated"])
      .where("device_id", "in", ids.slice(i, i + CLOCK_ROWS_PER_STATEMENT))
      .execute();
    for (const r of rows) previous.set(r.device_id, r);
  }
  const driftOf = (m: ClockDriftMeasurement) => Math.round((Date.parse(m.lastReportTime) - m.now.getTime()) / 100) / 10;
  const rows = ids.map((deviceId) => {
    const m = latest.get(deviceId) as ClockDriftMeasurement;
    const prev = previous.get(deviceId);
    const accelerated = isAcceleratedClock(
      prev && {
        lastReportTime: prev.last_report_time,
        measuredAt: prev.measured_at,
        accelerated: prev.accelerated === 1,
      },
      m.lastReportTime,
      m.now,
    );
    return {
      device_id: deviceId,
      last_report_time: m.lastReportTime,
      drift_seconds: driftOf(m),
      measured_at: m.now.toISOString(),
      accelerated: accelerated ? 1 : 0,
    };
  });
  for (let i = 0; i < rows.length; i += CLOCK_ROWS_PER_STATEMENT) {
    await db
      .insertInto("device_clock")
      .values(rows.slice(i, i + CLOCK_ROWS_PER_STATEMENT))
      .onConflict((oc) =>
        oc.column("device_id").doUpdateSet((eb) => ({
          last_report_time: eb.ref("excluded.last_report_time"),
          drift_seconds: eb.ref("excluded.drift_seconds"),
          measured_at: eb.ref("excluded.measured_at"),
          accelerated: eb.ref("excluded.accelerated"),
        })),
      )
      .execute();
  }
  return measurements.map(driftOf);
}
