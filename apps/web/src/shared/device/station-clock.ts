/**
 * The station countdown of the Device screen (spec §3 stations; issue 10 "One clock"), pure: computed from what the
 * valve reported — how far into its station it was (`stationElapsedSeconds`), how long the station runs
 * (`stationDurationSeconds`) and how long until it is back in service — anchored at the real time the report reached
 * the server, running at the device clock's measured rate. Within one station the end only ever moves earlier, so the
 * countdown never runs backwards and its progress never drops, whatever order reports and refetches arrive in.
 */

/** What {@link stationClockOf} reads: the device info or hub-1 message fields (contract `ZStationTiming`). */
export interface StationTimingInput {
  station: number | null;
  stationRemainingSeconds: number | null;
  stationElapsedSeconds?: number | null;
  stationDurationSeconds?: number | null;
  serviceRemainingSeconds?: number | null;
  /** ISO UTC, when the server received the report. */
  reportedAt?: string | null;
  /** Device seconds per real second (1 for a real valve). */
  clockRate?: number;
}

/** One running station on the phone's clock (epoch ms). */
export interface StationClock {
  station: number;
  /** When the station began, phone ms (estimate; identifies the station's instance). */
  startMs: number;
  /** When the station ends, phone ms. */
  endsAtMs: number;
  /** When the valve is back in service, phone ms; null when not reported. */
  serviceAtMs: number | null;
  /** Device seconds per phone second. */
  rate: number;
  /** Total length of the station, device seconds; null when not reported. */
  durationSeconds: number | null;
  /**
   * Phone time (ms) this clock was made or last merged at: a screen still holding an older "now" reads the countdown
   * as of this moment, so a merge at a higher rate cannot show a larger number for an earlier instant.
   */
  sinceMs: number;
}

/**
 * The clock of the station in `input`, received by the phone at `receivedAtMs`; null in service (0), closed (5),
 * with no station or nothing to count. The anchor is the server's arrival time, but never later than the phone's own
 * arrival time (a phone clock behind the server's cannot stretch the countdown). Remaining device seconds are
 * duration − elapsed when both are reported, else `stationRemainingSeconds`.
 */
export function stationClockOf(input: StationTimingInput, receivedAtMs: number): StationClock | null {
  const { station } = input;
  if (station === null || station === 0 || station === 5) return null;
  const rate = input.clockRate && input.clockRate > 0 ? input.clockRate : 1;
  const reported = input.reportedAt ? Date.parse(input.reportedAt) : Number.NaN;
  const anchor = Number.isFinite(reported) ? Math.min(reported, receivedAtMs) : receivedAtMs;
  const duration = input.stationDurationSeconds ?? null;
  const elapsed = input.stationElapsedSeconds ?? null;
  const remaining =
    duration !== null && elapsed !== null ? Math.max(0, duration - elapsed) : input.stationRemainingSeconds;
  if (remaining === null || !Number.isFinite(remaining)) return null;
  const endsAtMs = anchor + (remaining / rate) * 1000;
  const done = elapsed ?? (duration !== null ? Math.max(0, duration - remaining) : 0);
  const service = input.serviceRemainingSeconds ?? null;
  return {
    station,
    startMs: anchor - (done / rate) * 1000,
    endsAtMs,
    serviceAtMs: service === null ? null : anchor + (Math.max(service, remaining) / rate) * 1000,
    rate,
    durationSeconds: duration,
    sinceMs: receivedAtMs,
  };
}

/**
 * Folds a newer report's clock into the one shown, at phone time `nowMs` (pure). For the same station instance (same
 * station, starting before the shown one ends) the remaining device seconds at `nowMs` are the smaller of the two and
 * run on at the newer rate from there, and the back-in-service time is the earlier one: a report can shorten a
 * countdown, never lengthen it, and a changed rate cannot make it jump up. A different station, or one that starts
 * after the shown one ended, replaces it.
 */
export function mergeStationClock(
  shown: StationClock | null,
  next: StationClock | null,
  nowMs: number,
): StationClock | null {
  if (!shown || !next || shown.station !== next.station || next.startMs >= shown.endsAtMs) return next;
  const left = Math.min(remainingExact(shown, nowMs), remainingExact(next, nowMs));
  const serviceAtMs =
    shown.serviceAtMs === null
      ? next.serviceAtMs
      : next.serviceAtMs === null
        ? shown.serviceAtMs
        : Math.min(shown.serviceAtMs, next.serviceAtMs);
  return {
    ...next,
    startMs: Math.min(shown.startMs, next.startMs),
    endsAtMs: nowMs + (left / next.rate) * 1000,
    serviceAtMs,
    durationSeconds: next.durationSeconds ?? shown.durationSeconds,
    sinceMs: Math.max(nowMs, shown.sinceMs),
  };
}

function remainingExact(clock: StationClock, nowMs: number): number {
  return Math.max(0, ((clock.endsAtMs - nowMs) / 1000) * clock.rate);
}

/**
 * Device seconds left in the station at phone time `nowMs` (read no earlier than the clock's `sinceMs`), whole seconds
 * rounded up, never below 0.
 */
export function stationRemainingAt(clock: StationClock, nowMs: number): number {
  const at = Math.max(nowMs, clock.sinceMs);
  return Math.max(0, Math.ceil(((clock.endsAtMs - at) / 1000) * clock.rate - 1e-9));
}
