import type { TDiagnostics } from "@aquapilot/contract";
import type { Kysely } from "kysely";
import type { Database } from "../../db/index.ts";
import { linkOnline } from "../../iot/live-state.ts";

/** How far back a diagnostics snapshot looks: 30 days of recent events and usage. */
export const DIAGNOSTICS_DAYS = 30;
/** At most this many events (the newest) go into one snapshot, so a chatty device cannot bloat a request. */
export const DIAGNOSTICS_MAX_EVENTS = 500;
const DAY_MS = 86_400_000;

/** The UTC calendar day (YYYY-MM-DD) of an ISO time. */
function utcDay(iso: string): string {
  return new Date(iso).toISOString().slice(0, 10);
}

function parseSettings(json: string | null | undefined): Record<string, unknown> | null {
  if (!json) return null;
  try {
    const parsed = JSON.parse(json) as unknown;
    return parsed !== null && typeof parsed === "object" && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/**
 * Collects the diagnostics snapshot of device `deviceId` at `now` (contract ZDiagnostics): firmware version
 * and model (devices), online flag, last report time and current settings (device_state.settings_json), the device
 * events of the last {@link DIAGNOSTICS_DAYS} days newest first (at most {@link DIAGNOSTICS_MAX_EVENTS}), and one
 * entry per UTC day of those 30 days, oldest first, with the water used (L, device_water_daily; 0 when none was
 * metered) and the regenerations started that day ("regeneration-start" events). Works in or out of a transaction;
 * access is the caller's to check. A device that no longer exists gives an empty snapshot (nulls, no events).
 */
export async function collectDiagnostics(db: Kysely<Database>, deviceId: string, now: Date): Promise<TDiagnostics> {
  const device = await db
    .selectFrom("devices")
    .leftJoin("device_state as s", "s.device_id", "devices.id")
    .select([
      "devices.firmware_version",
      "devices.model",
      "s.online",
      "s.last_heard_at",
      "s.status_at",
      "s.last_report_time",
      "s.settings_json",
    ])
    .where("devices.id", "=", deviceId)
    .executeTakeFirst();
  const since = new Date(now.getTime() - (DIAGNOSTICS_DAYS - 1) * DAY_MS);
  const firstDay = since.toISOString().slice(0, 10);
  const sinceIso = `${firstDay}T00:00:00.000Z`;
  const events = await db
    .selectFrom("device_events")
    .select(["ts", "type", "close_reason"])
    .where("device_id", "=", deviceId)
    .where("ts", ">=", sinceIso)
    .orderBy("ts", "desc")
    .orderBy("id", "desc")
    .limit(DIAGNOSTICS_MAX_EVENTS)
    .execute();
  const regenerations = await db
    .selectFrom("device_events")
    .select("ts")
    .where("device_id", "=", deviceId)
    .where("type", "=", "regeneration-start")
    .where("ts", ">=", sinceIso)
    .execute();
  const water = await db
    .selectFrom("device_water_daily")
    .select(["day", "water_l"])
    .where("device_id", "=", deviceId)
    .where("day", ">=", firstDay)
    .execute();

  const regenPerDay = new Map<string, number>();
  for (const r of regenerations) {
    const day = utcDay(r.ts);
    regenPerDay.set(day, (regenPerDay.get(day) ?? 0) + 1);
  }
  const waterPerDay = new Map(water.map((w) => [w.day, Number(w.water_l)]));
  const dailyUsage: TDiagnostics["dailyUsage"] = [];
  for (let i = 0; i < DIAGNOSTICS_DAYS; i++) {
    const date = new Date(since.getTime() + i * DAY_MS).toISOString().slice(0, 10);
    dailyUsage.push({
      date,
      waterL: Math.round((waterPerDay.get(date) ?? 0) * 1000) / 1000,
      regenerations: regenPerDay.get(date) ?? 0,
    });
  }

  return {
    collectedTime: now.toISOString(),
    firmwareVersion: device?.firmware_version ?? null,
    model: device?.model ?? null,
    // Online only while heard within the report interval plus margin (docs/device-protocol.md §5.2).
    online: device ? linkOnline(device) : false,
    lastReportTime: device?.last_report_time ?? null,
    settings: parseSettings(device?.settings_json),
    events: events.map((e) => ({
      time: e.ts,
      type: e.type,
      closeReason: e.close_reason === null ? null : Number(e.close_reason),
    })),
    dailyUsage,
  };
}
