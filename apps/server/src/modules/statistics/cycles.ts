import type { TRegenerationCycle } from "@aquapilot/contract";
import type { Db } from "../../db/index.js";
import {
  expectedStationSeconds,
  type ReportedSettings,
  readReportedSettings,
  saltPerRegenerationKg,
} from "./settings.js";

/** A station or cycle deviates when its duration differs from the settings by more than this share. */
export const CYCLE_DEVIATION = 0.2;

/** One stored device event, as used by {@link buildCycles}. */
export interface CycleEvent {
  type: string;
  station: number | null;
  ts: string;
}

function deviates(actual: number, expected: number | null): boolean {
  return expected !== null && expected > 0 && Math.abs(actual - expected) > CYCLE_DEVIATION * expected;
}

/**
 * Builds regeneration cycles from events in time order (issue 4 "Regeneration timeline"), pure: a cycle opens at
 * "regeneration-start" and closes at "regeneration-end" (or the next start, then `complete` false); each "station"
 * event inside (station ≠ 0) lasts until the next station event or the end. Each station is compared with the
 * settings' duration (`deviates` when off by > 20 %); the cycle deviates when a station does or its total does.
 * `waterL(start, end)` gives the water metered in the cycle; salt = saltAddition when the cycle drew brine
 * (station 2), else 0. Units: seconds, L, kg. Answers cycles oldest first.
 */
export function buildCycles(
  events: CycleEvent[],
  settings: ReportedSettings,
  waterL: (startIso: string, endIso: string | null) => number,
): TRegenerationCycle[] {
  const cycles: TRegenerationCycle[] = [];
  const salt = saltPerRegenerationKg(settings) ?? 0;
  let open: { start: string; stations: Array<{ station: number; start: string }> } | null = null;
  const close = (endIso: string | null, complete: boolean) => {
    if (!open) return;
    const o = open;
    open = null;
    const stations = o.stations.map((s, i) => {
      const next = o.stations[i + 1]?.start ?? endIso;
      const duration = next === null ? 0 : Math.max(0, (Date.parse(next) - Date.parse(s.start)) / 1000);
      const expected = expectedStationSeconds(settings, s.station);
      return {
        station: s.station,
        startTime: s.start,
        durationSeconds: duration,
        expectedSeconds: expected,
        deviates: next !== null && deviates(duration, expected),
      };
    });
    const durationSeconds = endIso === null ? null : (Date.parse(endIso) - Date.parse(o.start)) / 1000;
    const expectations = stations.map((s) => s.expectedSeconds);
    const expectedSeconds =
      stations.length > 0 && expectations.every((e) => e !== null)
        ? (expectations as number[]).reduce((a, b) => a + b, 0)
        : null;
    cycles.push({
      startTime: o.start,
      endTime: endIso,
      durationSeconds,
      expectedSeconds,
      stations,
      waterL: Math.round(waterL(o.start, endIso) * 1000) / 1000,
      saltKg: stations.some((s) => s.station === 2) ? salt : 0,
      deviates:
        stations.some((s) => s.deviates) ||
        (complete && durationSeconds !== null && deviates(durationSeconds, expectedSeconds)),
      complete,
    });
  };
  for (const e of events) {
    if (e.type === "regeneration-start") {
      if (open) close(e.ts, false);
      open = { start: e.ts, stations: [] };
    } else if (e.type === "station" && open && e.station !== null && e.station !== 0) {
      const o: { stations: Array<{ station: number; start: string }> } = open;
      o.stations.push({ station: e.station, start: e.ts });
    } else if (e.type === "regeneration-end" && open) {
      close(e.ts, true);
    }
  }
  if (open) close(null, false);
  return cycles;
}

/**
 * Regeneration cycles of a device, newest first, paged (skipCount, maxResultCount); totalCount counts the
 * regeneration starts. Water per cycle from raw telemetry in (start, end]. Access is checked by the caller.
 */
export async function readRegenerationCycles(
  db: Db,
  deviceId: string,
  page: { skipCount: number; maxResultCount: number },
): Promise<{ items: TRegenerationCycle[]; totalCount: number }> {
  const starts = await db
    .selectFrom("device_events")
    .select("ts")
    .where("device_id", "=", deviceId)
    .where("type", "=", "regeneration-start")
    .orderBy("ts", "desc")
    .execute();
  const window = starts.slice(page.skipCount, page.skipCount + page.maxResultCount);
  if (window.length === 0) return { items: [], totalCount: starts.length };
  const from = window[window.length - 1].ts;
  const until = starts[page.skipCount - 1]?.ts ?? null; // the next (newer) start bounds the page
  let q = db
    .selectFrom("device_events")
    .select(["type", "station", "ts"])
    .where("device_id", "=", deviceId)
    .where("type", "in", ["regeneration-start", "regeneration-end", "station"])
    .where("ts", ">=", from)
    .orderBy("ts")
    .orderBy("received_at");
  if (until) q = q.where("ts", "<", until);
  const events = await q.execute();
  let tq = db
    .selectFrom("device_telemetry")
    .select(["ts", "interval_water_l"])
    .where("device_id", "=", deviceId)
    .where("ts", ">", from)
    .orderBy("ts");
  if (until) tq = tq.where("ts", "<=", until);
  const telemetry = await tq.execute();
  const settings = await readReportedSettings(db, deviceId);
  const cycles = buildCycles(events, settings, (s, e) =>
    telemetry.filter((t) => t.ts > s && (e === null || t.ts <= e)).reduce((a, t) => a + t.interval_water_l, 0),
  );
  return { items: cycles.reverse().slice(0, page.maxResultCount), totalCount: starts.length };
}
