/**
 * The device clock's rate against real time: how many device seconds pass per real second.
 * A real valve runs at 1 (its drift is seconds per day); a time-scaled simulator at e.g. 60. The app's station
 * countdown runs at this rate, so it neither lags nor jumps at the next report.
 */

/** The stored measurement: the rate so far and the anchor the next measurement is taken against. */
export interface ClockRateState {
  /** Device seconds per real second; null until measured (treated as 1). */
  rate: number | null;
  /** Device clock (ISO) of the anchor report. */
  anchorTs: string | null;
  /** Server time (ISO) the anchor report arrived. */
  anchorAt: string | null;
}

/** Reports closer than this in real time keep the anchor (network jitter would dominate), ms. */
export const CLOCK_RATE_MIN_SPAN_MS = 5_000;

/**
 * Folds one report (device clock `ts`, arrived at server time `now`) into the measurement, pure. With at least
 * {@link CLOCK_RATE_MIN_SPAN_MS} of real time since the anchor, the rate is the device-clock span over the real span:
 * 0.5–1.5 counts as exactly 1 (a real clock), others are kept to two significant digits, clamped to 0.001–100 000.
 * A device clock that went backwards or stood still (a time sync, a reboot) keeps the previous rate and re-anchors.
 * Unreadable times leave the state as it was.
 */
export function foldClockRate(prev: ClockRateState, ts: string, now: Date): ClockRateState {
  const deviceMs = Date.parse(ts);
  if (!Number.isFinite(deviceMs)) return prev;
  const anchorDevice = prev.anchorTs ? Date.parse(prev.anchorTs) : Number.NaN;
  const anchorReal = prev.anchorAt ? Date.parse(prev.anchorAt) : Number.NaN;
  const fresh = { rate: prev.rate, anchorTs: ts, anchorAt: now.toISOString() };
  if (!Number.isFinite(anchorDevice) || !Number.isFinite(anchorReal)) return fresh;
  const realSpan = now.getTime() - anchorReal;
  if (realSpan < CLOCK_RATE_MIN_SPAN_MS) return prev;
  const deviceSpan = deviceMs - anchorDevice;
  if (deviceSpan <= 0) return fresh;
  const raw = deviceSpan / realSpan;
  const rate = raw >= 0.5 && raw <= 1.5 ? 1 : Math.min(100_000, Math.max(0.001, Number(raw.toPrecision(2))));
  return { ...fresh, rate };
}
