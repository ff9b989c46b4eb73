/**
 * The device's own clock on DeviceSetting, one of the few places it shows: every other time is the phone's.
 * Devices report their clock as ISO 8601 UTC (`lastReportTime`, docs/device-protocol.md §1); the server stamps each
 * report with its real arrival time (`reportedAt`) and measures the clock's rate (`clockRate`, 1 for a real valve).
 */

/** The clock facts of a device as the server answers them (get-device-with--data). */
export interface DeviceClockFacts {
  /** Device clock at its last report, ISO 8601 UTC. */
  lastReportTime?: string | null;
  /** Real (server) time that report arrived, ISO 8601 UTC. */
  reportedAt?: string | null;
  /** Device seconds per real second (1 until measured). */
  clockRate?: number | null;
}

/** A device clock whose rate is this far from 1 is a time-scaled simulator: no meaningful offset from the phone. */
const ACCELERATED = 0.5;

/**
 * The device clock now, ms since the epoch: the last reported device time carried forward at the clock's rate from
 * when the report arrived. After a time sync sent at `syncedAtMs` (phone time) and before a newer report, the clock
 * reads from the sync. Null when the device never reported its clock.
 */
export function deviceClockNow(facts: DeviceClockFacts, nowMs: number, syncedAtMs?: number | null): number | null {
  const rate = facts.clockRate && facts.clockRate > 0 ? facts.clockRate : 1;
  const reported = facts.reportedAt ? Date.parse(facts.reportedAt) : Number.NaN;
  if (syncedAtMs && !(reported >= syncedAtMs)) return syncedAtMs + (nowMs - syncedAtMs) * rate;
  const device = facts.lastReportTime ? Date.parse(facts.lastReportTime) : Number.NaN;
  if (Number.isNaN(device)) return null;
  if (Number.isNaN(reported)) return device;
  return device + (nowMs - reported) * rate;
}

/**
 * How far the device clock is from the phone's, ms (positive: the device is ahead); null when unknown or when the
 * clock runs at a multiple of real time (a time-scaled simulator, where an offset means nothing).
 */
export function deviceClockOffset(facts: DeviceClockFacts, nowMs: number, syncedAtMs?: number | null): number | null {
  const rate = facts.clockRate ?? 1;
  if (Math.abs(rate - 1) > ACCELERATED) return null;
  const device = deviceClockNow(facts, nowMs, syncedAtMs);
  return device === null ? null : device - nowMs;
}
