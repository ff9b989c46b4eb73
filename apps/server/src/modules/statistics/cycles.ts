import type { TRegenerationCycle } from "@aquapilot/contract";
import type { Db } from "../../db/index.ts";
import {
  expectedStationSeconds,
  type ReportedSettings,
  readReportedSettings,
  saltPerRegenerationKg,
} from "./settings.ts";

/** A station or cycle deviates when its duration differs from the settings by more than this share. */
export const CYCLE_DEVIATION = 0.2;

/** One stored device event, as used by {@link buildCycles}. */
export interface CycleEvent {
  type: string;
  station: number | null;
  /** Device clock (ISO). */
  ts: string;
  /** Server time of arrival (ISO): the real time shown to the owner; defaults to `ts`. */
  receivedAt?: string;
  /** For "regeneration-end": water the cycle used, L, as the valve reports it. */
  waterL?: number | null;
  /** For "regeneration-end": salt the cycle drew, kg, as the valve reports it. */
  saltKg?: number | null;
}

function deviates(actual: number, expected: number | null): boolean {
  return expected !== null && expected > 0 && Math.abs(actual - expected) > CYCLE_DEVIATION * expected;
}

/** Seconds between two device-clock times; null when the clock went backwards between them (a time sync). */
function deviceSeconds(from: string, to: string): number | null {
  const d = (Date.parse(to) - Date.parse(from)) / 1000;
  return Number.isFinite(d) && d >= 0 ? d : null;
}

/**
 * Builds regeneration cycles from events in arrival order (the cloud's order of receipt, not the device clock's),
 * pure: a cycle opens at "regeneration-start" and closes at "regeneration-end" (or the next start, then `complete`
 * false); each "station" event inside (station ≠ 0) lasts until the next station event or the end. Times shown
 * (`startTime`, `endTime`, station starts) are real arrival times, so a later time sync cannot move past cycles;
 * durations are measured on the device's own clock (the valve's seconds, also for a time-scaled simulator), and a
 * span across a time sync (device clock going backwards) counts as unknown: shown as 0 and never flagged. Each station
 * is compared with the settings' duration (`deviates` when off by > 20 %); the cycle deviates when a station does or
 * its total does. Water and salt are what the valve reports in "regeneration-end" (`waterL` null when it does not;
 * salt then falls back to saltAddition when the cycle drew brine, station 2). Units: seconds, L, kg. Oldest first.
 */
export function buildCycles(events: CycleEvent[], settings: ReportedSettings): TRegenerationCycle[] {
  const cycles: TRegenerationCycle[] = [];
  const salt = saltPerRegenerationKg(settings) ?? 0;
  type Mark = { station: number; ts: string; at: string };
  let open: { ts: string; at: string; stations: Mark[] } | null = null;
  const close = (end: CycleEvent | null, complete: boolean) => {
    if (!open) return;
    const o = open;
    open = null;
    const endTs = end?.ts ?? null;
    const stations = o.stations.map((s, i) => {
      const nextTs = o.stations[i + 1]?.ts ?? endTs;
      const measured = nextTs === null ? null : deviceSeconds(s.ts, nextTs);
      const expected = expectedStationSeconds(settings, s.station);
      return {
        station: s.station,
        startTime: s.at,
        durationSeconds: measured ?? 0,
        expectedSeconds: expected,
        deviates: measured !== null && deviates(measured, expected),
      };
    });
    const durationSeconds = endTs === null ? null : deviceSeconds(o.ts, endTs);
    const expectations = stations.map((s) => s.expectedSeconds);
    const expectedSeconds =
      stations.length > 0 && expectations.every((e) => e !== null)
        ? (expectations as number[]).reduce((a, b) => a + b, 0)
        : null;
    const drewBrine = stations.some((s) => s.station === 2);
    cycles.push({
      startTime: o.at,
      endTime: end ? (end.receivedAt ?? end.ts) : null,
      durationSeconds,
      expectedSeconds,
      stations,
      waterL: end?.waterL ?? null,
      saltKg: end?.saltKg ?? (complete && drewBrine ? salt : 0),
      deviates:
        stations.some((s) => s.deviates) ||
        (complete && durationSeconds !== null && deviates(durationSeconds, expectedSeconds)),
      complete,
    });
  };
  for (const e of events) {
    const at = e.receivedAt ?? e.ts;
    if (e.type === "regeneration-start") {
      if (open) close(null, false);
      open = { ts: e.ts, at, stations: [] };
    } else if (e.type === "station" && open && e.station !== null && e.station !== 0) {
      const o: { stations: Mark[] } = open;
      o.stations.push({ station: e.station, ts: e.ts, at });
    } else if (e.type === "regeneration-end" && open) {
      close(e, true);
    }
  }
  if (open) close(null, false);
  return cycles;
}

/**
 * Regeneration cycles of a device, newest first, paged (skipCount, maxResultCount); totalCount counts the
 * regeneration starts. Ordered by arrival (real time), so a device clock set back by a time sync reorders nothing.
 * Access is checked by the caller.
 */
export async function readRegenerationCycles(
  db: Db,
  deviceId: string,
  page: { skipCount: number; maxResultCount: number },
): Promise<{ items: TRegenerationCycle[]; totalCount: number }> {
  const starts = await db
    .selectFrom("device_events")
    .select("received_at")
    .where("device_id", "=", deviceId)
    .where("type", "=", "regeneration-start")
    .orderBy("received_at", "desc")
    .orderBy("ts", "desc")
    .execute();
  const window = starts.slice(page.skipCount, page.skipCount + page.maxResultCount);
  if (window.length === 0) return { items: [], totalCount: starts.length };
  const from = window[window.length - 1].received_at;
  const until = starts[page.skipCount - 1]?.received_at ?? null; // the next (newer) start bounds the page
  let q = db
    .selectFrom("device_events")
    .select(["type", "station", "ts", "received_at", "water_l", "salt_kg"])
    .where("device_id", "=", deviceId)
    .where("type", "in", ["regeneration-start", "regeneration-end", "station"])
    .where("received_at", ">=", from)
    .orderBy("received_at")
    .orderBy("ts");
  if (until) q = q.where("received_at", "<", until);
  const rows = await q.execute();
  const settings = await readReportedSettings(db, deviceId);
  const cycles = buildCycles(
    rows.map((r) => ({
      type: r.type,
      station: r.station,
      ts: r.ts,
      receivedAt: r.received_at,
      waterL: r.water_l,
      saltKg: r.salt_kg,
    })),
    settings,
  );
  return { items: cycles.reverse().slice(0, page.maxResultCount), totalCount: starts.length };
}
