import {
  DEVICE_REPORT_INTERVAL_SECONDS,
  DEVICE_REPORT_MARGIN_SECONDS,
  type TDeviceChangeMessage,
  type TDeviceLink,
} from "@aquapilot/contract";
import { type StationTimingRow, stationTiming } from "./station-timing.ts";

/** How long after its last accepted report (or connection) a device still counts as online, ms (§5.2). */
export const DEVICE_HEARD_WINDOW_MS = (DEVICE_REPORT_INTERVAL_SECONDS + DEVICE_REPORT_MARGIN_SECONDS) * 1000;

/** What decides whether a device counts as online (`device_state` columns; null when never written). */
export interface LinkRow {
  online: number | null;
  /** Server time of the last accepted state or telemetry report. */
  last_heard_at?: string | null;
  /** Server time of the last `online: true` status. */
  status_at?: string | null;
}

/** The stored live state of a device (`device_state` columns; all null when the device never reported). */
export interface LiveStateRow extends StationTimingRow, LinkRow {
  station: number | null;
  station_remaining_seconds: number | null;
  remaining_water_l: number | null;
  flow_rate_lpm: number | null;
}

/** The live-state fields every device answer carries: online, station, remaining time, water, flow, timing. */
export type LiveState = Pick<
  TDeviceChangeMessage,
  "online" | "station" | "stationRemainingSeconds" | "remainingWaterL" | "flowRateLpm" | "lastReportTime"
> &
  ReturnType<typeof stationTiming>;

/**
 * Whether a device counts as online at server time `nowMs` (docs/device-protocol.md §5.2), pure: its last status said
 * online AND the cloud heard it recently — its last accepted report (`last_heard_at`) or its last connection
 * (`status_at`, so a device that just connected has one report interval to send its first report) lies within
 * {@link DEVICE_HEARD_WINDOW_MS} (report interval + margin). A row from before these times were kept (both null)
 * follows its status alone until the device's next report.
 */
export function linkOnline(row: LinkRow, nowMs: number = Date.now()): boolean {
  if (row.online !== 1) return false;
  if (!row.last_heard_at && !row.status_at) return true;
  const heard = Math.max(Date.parse(row.last_heard_at ?? "") || 0, Date.parse(row.status_at ?? "") || 0);
  return nowMs - heard <= DEVICE_HEARD_WINDOW_MS;
}

/**
 * The device's last reported state on the wire (spec §3 Device, §7 hub 1), pure and shared by the hub-1 change message
 * and query-device-info: online ({@link linkOnline} at `nowMs`: false when never reported or not heard within the
 * report interval plus margin), station (0 service, 1–8), station remaining seconds, water left L, flow L/min and the
 * report's device time (null when unknown), plus the station timing of {@link stationTiming}.
 */
export function presentLiveState(row: LiveStateRow, nowMs: number = Date.now()): LiveState {
  return {
    online: linkOnline(row, nowMs),
    station: row.station ?? null,
    stationRemainingSeconds: row.station_remaining_seconds ?? null,
    ...stationTiming(row),
    remainingWaterL: row.remaining_water_l ?? null,
    flowRateLpm: row.flow_rate_lpm ?? null,
    lastReportTime: row.last_report_time ?? null,
  };
}

/** The `device_state` columns of {@link presentLink} (null or absent when the device never reported). */
export interface LinkFactsRow {
  last_heard_at?: string | null;
  reports_refused_since?: string | null;
  reports_refused_reason?: string | null;
}

/**
 * How the cloud hears a device, as the device answers carry it (contract ZDeviceLink; docs/device-protocol.md §5.1,
 * §5.2), pure: the receive time of the last accepted report, and since when and why its reports are refused (null
 * while they are accepted). ISO UTC server times.
 */
export function presentLink(row: LinkFactsRow): Required<TDeviceLink> {
  return {
    lastHeardAt: row.last_heard_at ?? null,
    reportsRefusedSince: row.reports_refused_since ?? null,
    reportsRefusedReason: row.reports_refused_since ? (row.reports_refused_reason ?? null) : null,
  };
}
