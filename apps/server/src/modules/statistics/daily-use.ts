import { MQTT_BOUNDS } from "@aquapilot/contract";
import type { Db } from "../../db/index.ts";

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** Days of use the forecasts average, like the valve's own reserve (docs/device-sim.md §4). */
export const USE_WINDOW_DAYS = 7;

/** Sum of `interval_water_l` of the raw telemetry that arrived in [fromIso, toIso), L. */
async function rawWater(db: Db, deviceId: string, fromIso: string, toIso: string): Promise<number> {
  if (fromIso >= toIso) return 0;
  const r = await db
    .selectFrom("device_telemetry")
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>("interval_water_l"), eb.lit(0)).as("water"))
    .where("device_id", "=", deviceId)
    .where("received_at", ">=", fromIso)
    .where("received_at", "<", toIso)
    // The rollup's plausibility rule: rows stored before the gateway bounded water with NaN, 1e308 or negative water count nothing.
    .where("interval_water_l", ">=", 0)
    .where("interval_water_l", "<=", MQTT_BOUNDS.intervalWaterL)
    .where("flow_rate_lpm", ">=", 0)
    .where("flow_rate_lpm", "<=", MQTT_BOUNDS.flowLpm)
    .executeTakeFirstOrThrow();
  return Number(r.water);
}

/**
 * Water metered by a device that arrived at the cloud in [fromMs, toMs) (real time, the server's arrival clock, never the device's), L. Whole
 * UTC hours inside the range come from the hourly rollups (which count water by its arrival hour), the partial hours
 * at either end from the raw telemetry, so a day costs at most 24 rollup rows plus two partial hours of raw rows, and
 * days that begin at a half-hour offset (India, Nepal) are cut exactly.
 */
export async function waterReceivedBetween(db: Db, deviceId: string, fromMs: number, toMs: number): Promise<number> {
  if (toMs <= fromMs) return 0;
  const firstHour = Math.ceil(fromMs / HOUR_MS) * HOUR_MS;
  const lastHour = Math.floor(toMs / HOUR_MS) * HOUR_MS;
  const iso = (ms: number) => new Date(ms).toISOString();
  if (firstHour >= lastHour) return rawWater(db, deviceId, iso(fromMs), iso(toMs));
  const hours = await db
    .selectFrom("device_water_hourly")
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>("water_l"), eb.lit(0)).as("water"))
    .where("device_id", "=", deviceId)
    .where("hour_start", ">=", iso(firstHour))
    .where("hour_start", "<", iso(lastHour))
    .executeTakeFirstOrThrow();
  return (
    (await rawWater(db, deviceId, iso(fromMs), iso(firstHour))) +
    Number(hours.water) +
    (await rawWater(db, deviceId, iso(lastHour), iso(toMs)))
  );
}

/**
 * The average water a device used per day of its own clock over the last {@link USE_WINDOW_DAYS} of them (the
 * valve's reserve, docs/device-sim.md §4), L; null when nothing arrived in that window. The window is measured in real
 * time as 7 device days ÷ the clock's rate; the average is over the time metered in it (from the first telemetry in
 * the window), but never over less than one device day, so a device that has just come online is not extrapolated
 * from a morning peak.
 */
export async function dailyUseL(db: Db, deviceId: string, nowMs: number, rate: number): Promise<number | null> {
  const windowStart = nowMs - (USE_WINDOW_DAYS * DAY_MS) / rate;
  const first = await db
    .selectFrom("device_telemetry")
    .select("received_at")
    .where("device_id", "=", deviceId)
    .where("received_at", ">=", new Date(windowStart).toISOString())
    .orderBy("received_at")
    .limit(1)
    .executeTakeFirst();
  if (!first?.received_at) return null;
  const water = await waterReceivedBetween(db, deviceId, windowStart, nowMs);
  const spanDeviceMs = Math.max(DAY_MS, (nowMs - Date.parse(first.received_at)) * rate);
  return (water / spanDeviceMs) * DAY_MS;
}
