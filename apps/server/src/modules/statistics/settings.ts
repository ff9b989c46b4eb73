import type { Db } from "../../db/index.ts";

/** Reported advanced settings of a device (spec §3), as the device last sent them in its state; {} when unknown. */
export type ReportedSettings = Record<string, number | string | boolean>;

/** Reads the settings the device last reported (device_state.settings_json). */
export async function readReportedSettings(db: Db, deviceId: string): Promise<ReportedSettings> {
  const row = await db
    .selectFrom("device_state")
    .select("settings_json")
    .where("device_id", "=", deviceId)
    .executeTakeFirst();
  if (!row?.settings_json) return {};
  try {
    const parsed = JSON.parse(row.settings_json) as unknown;
    return typeof parsed === "object" && parsed !== null ? (parsed as ReportedSettings) : {};
  } catch {
    return {};
  }
}

function num(settings: ReportedSettings, key: string): number | null {
  const v = settings[key];
  const n = typeof v === "string" ? Number(v) : v;
  return typeof n === "number" && Number.isFinite(n) ? n : null;
}

/**
 * Configured duration of a station (spec §3 stations) from the settings, seconds; null when the settings give none.
 * 1 backwashing = backWashTime, 2 brine draw and slow rinse = absorbSaltSlowWashTime, 3 brine refilling =
 * saltTankRefillTime, 4 fast rinsing = washTime (all in minutes on the valve, docs/device-protocol.md).
 */
export function expectedStationSeconds(settings: ReportedSettings, station: number): number | null {
  const key =
    station === 1
      ? "backWashTime"
      : station === 2
        ? "absorbSaltSlowWashTime"
        : station === 3
          ? "saltTankRefillTime"
          : station === 4
            ? "washTime"
            : null;
  if (!key) return null;
  const minutes = num(settings, key);
  return minutes === null ? null : minutes * 60;
}

/** Salt used per regeneration (settings saltAddition), kg; null when not reported. */
export function saltPerRegenerationKg(settings: ReportedSettings): number | null {
  return num(settings, "saltAddition");
}

/**
 * The longest the valve goes between regenerations (settings maximumRegenerationIntervalDay: it regenerates after
 * that many days whatever the water used), days; null when not reported or 0 (no such limit).
 */
export function maxDaysBetweenRegenerations(settings: ReportedSettings): number | null {
  const days = num(settings, "maximumRegenerationIntervalDay");
  return days !== null && days > 0 ? days : null;
}
