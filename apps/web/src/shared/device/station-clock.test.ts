import { describe, expect, it } from "vitest";
import { mergeStationClock, stationClockOf, stationRemainingAt } from "./station-clock.ts";

const T0 = Date.parse("2026-05-01T10:00:00.000Z");
const iso = (ms: number) => new Date(ms).toISOString();

describe("station countdown (issue 10 One clock)", () => {
  it("counts from the reported elapsed and duration, anchored at the server's arrival time", () => {
    const clock = stationClockOf(
      {
        station: 2,
        stationRemainingSeconds: 999, // ignored: elapsed and duration win
        stationElapsedSeconds: 600,
        stationDurationSeconds: 3600,
        serviceRemainingSeconds: 3000 + 960,
        reportedAt: iso(T0),
        clockRate: 1,
      },
      T0 + 2000, // the phone got it 2 s later
    );
    expect(clock).not.toBeNull();
    if (!clock) return;
    expect(stationRemainingAt(clock, T0 + 2000)).toBe(2998);
    expect(clock.serviceAtMs).toBe(T0 + 3960_000);
    expect(stationClockOf({ station: 0, stationRemainingSeconds: null }, T0)).toBeNull();
    expect(stationClockOf({ station: 5, stationRemainingSeconds: 10 }, T0)).toBeNull();
  });

  it("runs at the device clock's rate and never trusts a server time later than the phone's arrival", () => {
    const sim = stationClockOf(
      { station: 1, stationRemainingSeconds: 600, reportedAt: iso(T0 + 60_000), clockRate: 60 },
      T0,
    );
    if (!sim) throw new Error("no clock");
    expect(sim.endsAtMs).toBe(T0 + 10_000);
    expect(stationRemainingAt(sim, T0 + 5000)).toBe(300);
    expect(stationRemainingAt(sim, T0 + 20_000)).toBe(0);
  });

  it("a later report never lengthens the station; a new station replaces it", () => {
    const first = stationClockOf(
      { station: 1, stationRemainingSeconds: null, stationElapsedSeconds: 100, stationDurationSeconds: 600 },
      T0,
    );
    // The next report says more time is left than the countdown showed (a slower rate than measured, say).
    const late = stationClockOf(
      { station: 1, stationRemainingSeconds: null, stationElapsedSeconds: 150, stationDurationSeconds: 600 },
      T0 + 120_000,
    );
    const merged = mergeStationClock(first, late, T0 + 120_000);
    if (!first || !merged) throw new Error("no clock");
    expect(merged.endsAtMs).toBe(first.endsAtMs);
    const next = stationClockOf({ station: 2, stationRemainingSeconds: 3600 }, T0 + 500_000);
    expect(mergeStationClock(merged, next, T0 + 500_000)).toBe(next);
    // The same station number again after the shown one ended is a new instance.
    const again = stationClockOf({ station: 1, stationRemainingSeconds: 600 }, T0 + 900_000);
    expect(mergeStationClock(merged, again, T0 + 900_000)).toBe(again);
  });

  it("a merge at a higher rate never shows a larger number to a screen whose 'now' lags behind", () => {
    const shown = stationClockOf({ station: 2, stationRemainingSeconds: 1500, clockRate: 60 }, T0);
    if (!shown) throw new Error("no clock");
    const staleNow = T0 + 500; // the screen's ticking "now", half a second behind the message
    const before = stationRemainingAt(shown, staleNow);
    const faster = stationClockOf({ station: 2, stationRemainingSeconds: 1440, clockRate: 62 }, T0 + 1000);
    const merged = mergeStationClock(shown, faster, T0 + 1000);
    if (!merged) throw new Error("no clock");
    expect(stationRemainingAt(merged, staleNow)).toBeLessThanOrEqual(before);
    expect(stationRemainingAt(merged, T0 + 2000)).toBeLessThanOrEqual(stationRemainingAt(merged, T0 + 1000));
  });

  it("sampled every second through random reports, the remaining time never increases", () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 16807) % 2147483647;
      return seed / 2147483647;
    };
    const duration = 1800;
    let shown = null as ReturnType<typeof stationClockOf>;
    let last = Number.POSITIVE_INFINITY;
    for (let s = 0; s < 600; s++) {
      const now = T0 + s * 1000;
      if (s % 15 === 0) {
        // The device reports its true elapsed time; the server's arrival stamp jitters and the rate estimate wobbles.
        const jitter = Math.round((random() - 0.5) * 4000);
        const report = stationClockOf(
          {
            station: 2,
            stationRemainingSeconds: null,
            stationElapsedSeconds: s * 3,
            stationDurationSeconds: duration,
            reportedAt: iso(now + jitter),
            clockRate: 3 * (0.8 + random() * 0.4),
          },
          now + Math.abs(jitter),
        );
        shown = mergeStationClock(shown, report, now);
      }
      if (!shown) throw new Error("no clock");
      // The screen reads with its own ticking "now", up to a second behind the last message.
      const remaining = stationRemainingAt(shown, now - Math.round(random() * 900));
      expect(remaining).toBeLessThanOrEqual(last);
      last = remaining;
    }
    expect(last).toBeLessThan(duration);
  });
});
