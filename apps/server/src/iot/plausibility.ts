import type { ClockRateState } from "./clock-rate.ts";

/**
 * Plausibility of what a device reports beyond its schema (docs/device-protocol.md §5.1): whether its clock
 * can be believed, and whether its counters move the way the physics allows. Pure functions; the gateway applies them.
 */

/** How far a device time may be from where its clock should be, ms of real time (1 day). */
export const DEVICE_TIME_WINDOW_MS = 86_400_000;
/** No device time before this is ever believed (RTCs reset to 1970 or 2000 after a power cut). */
export const DEVICE_TIME_EARLIEST_MS = Date.parse("2000-01-01T00:00:00.000Z");
/** No device time from this on is ever believed. */
export const DEVICE_TIME_LATEST_MS = Date.parse("2100-01-01T00:00:00.000Z");
/** A counter lower than the stored one by more than this is a decrease (the wire rounds to 0.1), same unit. */
export const COUNTER_TOLERANCE = 0.05;

/** True when `ms` lies in the calendar years a device time may have (2000 ≤ year < 2100). */
export function withinDeviceEra(ms: number): boolean {
  return Number.isFinite(ms) && ms >= DEVICE_TIME_EARLIEST_MS && ms < DEVICE_TIME_LATEST_MS;
}

/**
 * Whether a device time (ISO, as the contract normalised it) is plausible at server time `now`, given the clock the
 * gateway has measured for that device (`clock`: rate and anchor, clock-rate.ts), pure:
 * - never outside 2000–2099 ({@link withinDeviceEra});
 * - within ±{@link DEVICE_TIME_WINDOW_MS} of `now` (a real clock, drifted by up to a day); or
 * - for a clock measured as time-scaled (rate ≠ 1: a simulator at 60× runs days ahead after an hour), within
 *   ±1 day × rate of where that clock should read now: anchor device time + rate × real time since the anchor.
 *   So a 60× simulator running for weeks stays believed, and a clock that jumps away from its own pace does not.
 */
export function isPlausibleDeviceTime(ts: string, now: Date, clock: ClockRateState): boolean {
  const t = Date.parse(ts);
  if (!withinDeviceEra(t)) return false;
  const nowMs = now.getTime();
  if (Math.abs(t - nowMs) <= DEVICE_TIME_WINDOW_MS) return true;
  const rate = clock.rate;
  if (rate === null || rate === 1 || !(rate > 0)) return false;
  const anchorDevice = clock.anchorTs ? Date.parse(clock.anchorTs) : Number.NaN;
  const anchorReal = clock.anchorAt ? Date.parse(clock.anchorAt) : Number.NaN;
  if (!Number.isFinite(anchorDevice) || !Number.isFinite(anchorReal)) return false;
  const expected = anchorDevice + rate * (nowMs - anchorReal);
  return Math.abs(t - expected) <= DEVICE_TIME_WINDOW_MS * Math.max(1, rate);
}

/**
 * The device-clock reading kept for an implausible time, pure: `ts` pinned to the nearest edge of the window around
 * `now` (now − 1 day when the clock is behind, now + 1 day when ahead). The drift measured from it is a day, so the
 * owner is asked to synchronise the clock (the warning shows at least a day), and it advances with real time.
 */
export function pinnedDeviceTime(ts: string, now: Date): string {
  const t = Date.parse(ts);
  const nowMs = now.getTime();
  const pinned = Number.isFinite(t) && t > nowMs ? nowMs + DEVICE_TIME_WINDOW_MS : nowMs - DEVICE_TIME_WINDOW_MS;
  return new Date(pinned).toISOString();
}

/**
 * The station's start as stored with a report whose device time `reportTs` is stored as `storedTs`:
 * moved by the same amount, so the elapsed time of the station is kept; null when absent, when it lies after the
 * report (by more than a second) or more than `maxStationSeconds` of device time before it. Pure; ISO in and out.
 */
export function storedStationStart(
  startedAt: string | null | undefined,
  reportTs: string,
  storedTs: string,
  maxStationSeconds: number,
): string | null {
  if (!startedAt) return null;
  const start = Date.parse(startedAt);
  const report = Date.parse(reportTs);
  const elapsed = (report - start) / 1000;
  if (!Number.isFinite(elapsed) || elapsed < -1 || elapsed > maxStationSeconds) return null;
  return new Date(Date.parse(storedTs) - (report - start)).toISOString();
}

/**
 * Checks a reported cumulative counter (the totaliser, L, or the regeneration count) against the stored one, pure:
 * "ok" when it did not go down (within {@link COUNTER_TOLERANCE}) or nothing believable is stored (none, or beyond
 * `max`, the contract's bound: a value stored before the checks existed must not freeze the device); else "reset".
 * A counter that goes down is a counter reset, as Prometheus treats one (docs/device-protocol.md §5.1): the device
 * started counting again from zero (power loss, board swap, firmware update, factory reset, a restarted simulator),
 * so the report is believed and what it counted since the reset is the reported value itself.
 */
export function checkCounter(stored: number | null | undefined, reported: number, max: number): "ok" | "reset" {
  if (stored === null || stored === undefined || !Number.isFinite(stored) || stored > max) return "ok";
  if (reported >= stored - COUNTER_TOLERANCE) return "ok";
  return "reset";
}
