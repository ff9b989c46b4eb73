/**
 * The station countdown of the Device screen (spec §3 stations; one clock), pure: computed from what the valve
 * reported — how far into its station it was (`stationElapsedSeconds`), how long the station runs
 * (`stationDurationSeconds`) and how long until it is back in service — anchored at the real time the report reached
 * the server, with the device clock's measured rate (device seconds per real second, 60 for the 60× demo) turning
 * device seconds into real ones. Everything the owner reads comes from the phone's clock: the time left in the
 * station ({@link stationSecondsLeftAt}, real seconds) and "back in service at" ({@link StationClock.serviceAtMs}, a
 * phone time) — so at any time scale the station ends no later than the valve is back in service, and at 60× a
 * one-hour station counts down one real minute. Within one station the end only ever moves earlier, so the countdown
 * never runs backwards and its progress never drops, whatever order reports and refetches arrive in.
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
 * station, starting before the shown one ends) the station ends at the earlier of the two phone times, and the valve
 * is back in service at the earlier of the two but never before the station ends: a report can shorten a countdown,
 * never lengthen it, and a changed rate cannot make it jump up. A different station, or one that starts after the
 * shown one ended, replaces it.
 */
export function mergeStationClock(
  shown: StationClock | null,
  next: StationClock | null,
  nowMs: number,
): StationClock | null {
  if (!shown || !next || shown.station !== next.station || next.startMs >= shown.endsAtMs) return next;
  const endsAtMs = Math.min(shown.endsAtMs, next.endsAtMs);
  const service =
    shown.serviceAtMs === null
      ? next.serviceAtMs
      : next.serviceAtMs === null
        ? shown.serviceAtMs
        : Math.min(shown.serviceAtMs, next.serviceAtMs);
  return {
    ...next,
    startMs: Math.min(shown.startMs, next.startMs),
    endsAtMs,
    serviceAtMs: service === null ? null : Math.max(service, endsAtMs),
    durationSeconds: next.durationSeconds ?? shown.durationSeconds,
    sinceMs: Math.max(nowMs, shown.sinceMs),
  };
}

/**
 * Device seconds left in the station at phone time `nowMs` (read no earlier than the clock's `sinceMs`), whole seconds
 * rounded up, never below 0: the real time left × the device clock's rate (what the valve's own display shows).
 */
export function stationRemainingAt(clock: StationClock, nowMs: number): number {
  const at = Math.max(nowMs, clock.sinceMs);
  return Math.max(0, Math.ceil(((clock.endsAtMs - at) / 1000) * clock.rate - 1e-9));
}

/**
 * Real seconds the owner waits until the station ends, at phone time `nowMs` (read no earlier than `sinceMs`): whole
 * seconds rounded up, never below 0. The Device screen's "Time left in this station": on the same clock as
 * `serviceAtMs`, so nowMs + this × 1000 ≤ serviceAtMs + 1000 at any rate (1× a valve, 60× the demo).
 */
export function stationSecondsLeftAt(clock: StationClock, nowMs: number): number {
  const at = Math.max(nowMs, clock.sinceMs);
  return Math.max(0, Math.ceil((clock.endsAtMs - at) / 1000 - 1e-9));
}

/**
 * Share of the station done (0–1) at phone time `nowMs`: the real time since the station began over its real length
 * (the device's elapsed ÷ duration at a steady rate). Null when the station's duration was not reported (its start is
 * then unknown). Never drops: time only moves on, and merges only move the start and the end earlier.
 */
export function stationProgressAt(clock: StationClock, nowMs: number): number | null {
  if (clock.durationSeconds === null || clock.endsAtMs <= clock.startMs) return null;
  const at = Math.max(nowMs, clock.sinceMs);
  return Math.min(1, Math.max(0, (at - clock.startMs) / (clock.endsAtMs - clock.startMs)));
}
