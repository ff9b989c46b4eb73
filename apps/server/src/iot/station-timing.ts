import type { TStationTiming } from "@aquapilot/contract";

/** The `device_state` columns {@link stationTiming} reads (any may be missing when the device never reported). */
export interface StationTimingRow {
  last_report_time?: string | null;
  reported_at?: string | null;
  station_started_at?: string | null;
  station_duration_seconds?: number | null;
  service_remaining_seconds?: number | null;
  clock_rate?: number | null;
}

/**
 * The wire's station timing from the stored state (contract `ZStationTiming`: a countdown never runs backwards), pure:
 * elapsed = the report's device time − the station's start on the same device clock (a time sync moves both), in
 * seconds, null when either is missing, unreadable or the difference is negative; the duration and the time back in
 * service as reported; `reportedAt` the server's arrival time; `clockRate` the measured rate (1 until measured).
 */
export function stationTiming(row: StationTimingRow): Required<TStationTiming> {
  const report = row.last_report_time ? Date.parse(row.last_report_time) : Number.NaN;
  const start = row.station_started_at ? Date.parse(row.station_started_at) : Number.NaN;
  const elapsed = (report - start) / 1000;
  return {
    stationElapsedSeconds: Number.isFinite(elapsed) && elapsed >= 0 ? Math.round(elapsed * 10) / 10 : null,
    stationDurationSeconds: row.station_duration_seconds ?? null,
    serviceRemainingSeconds: row.service_remaining_seconds ?? null,
    reportedAt: row.reported_at ?? null,
    clockRate: row.clock_rate ?? 1,
  };
}
