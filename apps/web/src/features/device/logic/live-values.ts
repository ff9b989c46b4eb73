/**
 * Pure helpers of the Device screen (spec §3 stations, each value's freshness): progress against the station's
 * duration, countdown and percent formats, ages and clock drift (the countdown itself: `station-clock.ts`).
 */

/** A clock drift between the device and the phone above this many ms shows the time-sync warning. */
export const CLOCK_DRIFT_WARN_MS = 60_000;

/**
 * Share of the station done (0–1) given the remaining seconds and the station's configured duration in seconds
 * (device-station-maxworktime-cache). Null when either is unknown or the duration is not positive.
 */
export function stationProgress(
  remainingSeconds: number | null,
  durationSeconds: number | null | undefined,
): number | null {
  if (remainingSeconds === null || !durationSeconds || durationSeconds <= 0) return null;
  const done = (durationSeconds - Math.min(remainingSeconds, durationSeconds)) / durationSeconds;
  return Math.min(1, Math.max(0, done));
}

/** Seconds as "m:ss", or "h:mm:ss" from one hour; negative values count as 0. */
export function formatCountdown(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${ss}` : `${m}:${ss}`;
}

/** Whole minutes between an ISO 8601 time and `nowMs` (0 when in the future); null when the time is missing or bad. */
export function minutesAgo(iso: string | null | undefined, nowMs: number): number | null {
  if (!iso) return null;
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return null;
  return Math.max(0, Math.floor((nowMs - t) / 60_000));
}

/**
 * The device clock's drift from the phone's, ms (positive: the device is ahead). `deviceTime` is the device's
 * reported local clock (ISO 8601) observed at `observedAtMs` on the phone; null when unknown.
 */
export function clockDriftMs(deviceTime: string | null | undefined, observedAtMs: number): number | null {
  if (!deviceTime) return null;
  const t = Date.parse(deviceTime);
  if (Number.isNaN(t)) return null;
  return t - observedAtMs;
}

/** Whether a drift (ms) deserves the time-sync warning: more than one minute either way. */
export function isClockDrifting(driftMs: number | null): boolean {
  return driftMs !== null && Math.abs(driftMs) > CLOCK_DRIFT_WARN_MS;
}
