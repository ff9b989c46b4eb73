import type { TDeviceChangeMessage } from "@aquapilot/contract";
import { type StationTimingRow, stationTiming } from "./station-timing.ts";

/** The stored live state of a device (`device_state` columns; all null when the device never reported). */
export interface LiveStateRow extends StationTimingRow {
  online: number | null;
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
 * The device's last reported state on the wire (spec §3 Device, §7 hub 1), pure and shared by the hub-1 change message
 * and query-device-info: online (false when never reported), station (0 service, 1–8), station remaining seconds,
 * water left L, flow L/min and the report's device time (null when unknown), plus the station timing of
 * {@link stationTiming}.
 */
export function presentLiveState(row: LiveStateRow): LiveState {
  return {
    online: row.online === 1,
    station: row.station ?? null,
    stationRemainingSeconds: row.station_remaining_seconds ?? null,
    ...stationTiming(row),
    remainingWaterL: row.remaining_water_l ?? null,
    flowRateLpm: row.flow_rate_lpm ?? null,
    lastReportTime: row.last_report_time ?? null,
  };
}
