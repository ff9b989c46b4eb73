/**
 * Pure helpers of the Device screen (spec §3 stations, issue 4 "Freshness"): local countdown of the station's
 * remaining time between reports, progress against the station's configured duration, ages and clock drift.
 */

/** A clock drift between the device and the phone above this many ms shows the time-sync warning (issue 4). */
export const CLOCK_DRIFT_WARN_MS = 60_000;

/**
 * The station's remaining seconds at `nowMs`, counted down locally from the last report: `reportedSeconds` as
 * reported at `reportedAtMs` (ms since epoch, the phone's clock when the value arrived), running `rate` device
 * seconds per phone second (1 for a real valve; see {@link deviceClockRate}), never below 0.
 * Null when nothing was reported.
 */
export function remainingSecondsAt(
  reportedSeconds: number | null,
  reportedAtMs: number,
  nowMs: number,
  rate = 1,
): number | null {
  if (reportedSeconds === null || !Number.isFinite(reportedSeconds)) return null;
  const elapsed = Math.max(0, (nowMs - reportedAtMs) / 1000) * rate;
  return Math.max(0, Math.round(reportedSeconds - elapsed));
}

/**
 * How many device seconds pass per phone second, measured between two reports: the difference of the device's report
 * times (ISO, the device's clock) over the difference of the phone's arrival times (ms). A real valve runs at 1; a
 * time-scaled simulator at e.g. 60, and its countdown must run as fast or it jumps at every report. Rates within
 * 0.5–1.5 count as 1 (network jitter); with less than 1 s between arrivals, or unreadable times, the previous rate is
 * kept. Result clamped to 1/1000–100000.
 */
export function deviceClockRate(
  previous: { reportTime: string | null; atMs: number; rate: number },
  next: { reportTime: string | null; atMs: number },
): number {
  const phoneMs = next.atMs - previous.atMs;
  if (!previous.reportTime || !next.reportTime || phoneMs < 1000) return previous.rate;
  const deviceMs = Date.parse(next.reportTime) - Date.parse(previous.reportTime);
  if (!Number.isFinite(deviceMs) || deviceMs <= 0) return previous.rate;
  const rate = deviceMs / phoneMs;
  if (rate >= 0.5 && rate <= 1.5) return 1;
  return Math.min(100_000, Math.max(0.001, rate));
}

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

/** Whether a drift (ms) deserves the time-sync warning: more than one minute either way (issue 4). */
export function isClockDrifting(driftMs: number | null): boolean {
  return driftMs !== null && Math.abs(driftMs) > CLOCK_DRIFT_WARN_MS;
}

/**
 * A progress percentage with one decimal (spec §9 "Progress percent with one decimal"), clamped to 0–100:
 * 42.25 → "42.3%"; null or NaN → "0.0%".
 */
export function formatPercent(value: number | null | undefined): string {
  const v = value === null || value === undefined || !Number.isFinite(value) ? 0 : value;
  return `${Math.min(100, Math.max(0, v)).toFixed(1)}%`;
}
