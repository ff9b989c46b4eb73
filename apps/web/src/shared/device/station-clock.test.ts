import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  mergeStationClock,
  type StationClock,
  stationClockOf,
  stationProgressAt,
  stationRemainingAt,
  stationSecondsLeftAt,
} from "./station-clock.ts";

const T0 = Date.parse("2026-05-01T10:00:00.000Z");
const iso = (ms: number) => new Date(ms).toISOString();

describe("station countdown (from real timestamps, never running backwards)", () => {
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
      // The screen reads with its own ticking "now", up to a second behind the last message; it shows real seconds.
      const remaining = stationSecondsLeftAt(shown, now - Math.round(random() * 900));
      expect(remaining).toBeLessThanOrEqual(last);
      last = remaining;
    }
    expect(last).toBeLessThan(duration / 3);
  });

  it("one clock at 1×: the time left and 'back in service at' are the same real seconds as on the valve", () => {
    // Brine draw, 600 s of 3600 done, 960 s of refill and rinse after it; the report reached the server at T0.
    const clock = stationClockOf(
      {
        station: 2,
        stationRemainingSeconds: 3000,
        stationElapsedSeconds: 600,
        stationDurationSeconds: 3600,
        serviceRemainingSeconds: 3960,
        reportedAt: iso(T0),
        clockRate: 1,
      },
      T0,
    ) as StationClock;
    expect(stationSecondsLeftAt(clock, T0)).toBe(3000);
    expect(stationSecondsLeftAt(clock, T0 + 60_000)).toBe(2940);
    expect(clock.serviceAtMs).toBe(T0 + 3960_000);
    expect(stationProgressAt(clock, T0)).toBeCloseTo(600 / 3600, 9);
  });

  it("one clock at 60×: 59:27 of valve time left is one real minute, and 'back in service at' is the same minute", () => {
    // The demo valve in brine draw with 3567 valve seconds (59:27) left and 3567 + 960 until service.
    const clock = stationClockOf(
      {
        station: 2,
        stationRemainingSeconds: 3567,
        stationElapsedSeconds: 33,
        stationDurationSeconds: 3600,
        serviceRemainingSeconds: 3567 + 960,
        reportedAt: iso(T0),
        clockRate: 60,
      },
      T0,
    ) as StationClock;
    expect(stationSecondsLeftAt(clock, T0)).toBe(60); // 3567 ÷ 60 = 59.45 real seconds, shown as 1:00
    expect(stationRemainingAt(clock, T0)).toBe(3567); // what the valve's own display says
    expect(clock.serviceAtMs).toBe(T0 + ((3567 + 960) / 60) * 1000); // 75.45 s from now
    expect(T0 + stationSecondsLeftAt(clock, T0) * 1000).toBeLessThanOrEqual((clock.serviceAtMs as number) + 1000);
    expect(stationSecondsLeftAt(clock, T0 + 30_000)).toBe(30);
    expect(stationProgressAt(clock, T0 + 30_000)).toBeCloseTo((33 + 1800) / 3600, 9);
  });

  it("for any rate and any reports of one station: the countdown agrees with an independent computation, never runs backwards and ends by 'back in service at'", () => {
    const report = fc.record({
      // Real ms after the previous report (the phone samples every second in between).
      gapMs: fc.integer({ min: 0, max: 20_000 }),
      // The server's arrival stamp against the phone's (its clock may be behind or ahead), ms.
      skewMs: fc.integer({ min: -3000, max: 3000 }),
      // The rate the server measured at this report, as a share of the true rate.
      rateError: fc.double({ min: 0.8, max: 1.25, noNaN: true }),
    });
    fc.assert(
      fc.property(
        fc.constantFrom(1, 2, 60, 1440, 0.5),
        fc.integer({ min: 10, max: 7200 }), // station length, real seconds (at least ten: a station is sampled)
        fc.integer({ min: 0, max: 3600 }), // the steps after it, valve seconds
        fc.array(report, { minLength: 1, maxLength: 8 }),
        (rate, realLength, after, reports) => {
          const duration = Math.round(realLength * rate); // valve seconds
          let shown: StationClock | null = null;
          let phone = T0;
          let lastLeft = Number.POSITIVE_INFINITY;
          let lastProgress = -1;
          // Real time the station ends, computed here without the module: it began at T0 on the phone's clock.
          const trueEnd = T0 + (duration / rate) * 1000;
          for (const r of reports) {
            const before = phone;
            phone += r.gapMs;
            // Sample each second of the gap with the clock shown so far.
            for (let t = before; shown && t < phone; t += 1000) {
              const left = stationSecondsLeftAt(shown, t);
              expect(left).toBeLessThanOrEqual(lastLeft);
              lastLeft = left;
              const progress = stationProgressAt(shown, t) as number;
              expect(progress).toBeGreaterThanOrEqual(lastProgress - 1e-12);
              lastProgress = progress;
              if (shown.serviceAtMs !== null && left > 0) {
                expect(t + left * 1000).toBeLessThanOrEqual(shown.serviceAtMs + 1000);
              }
            }
            const elapsed = Math.min(duration, ((phone - T0) / 1000) * rate);
            if (elapsed >= duration) break; // the station is over: the next report names another one
            const next = stationClockOf(
              {
                station: 2,
                stationRemainingSeconds: Math.round(duration - elapsed),
                stationElapsedSeconds: elapsed,
                stationDurationSeconds: duration,
                serviceRemainingSeconds: duration - elapsed + after,
                reportedAt: iso(phone + r.skewMs),
                clockRate: rate * r.rateError,
              },
              phone,
            );
            if (!shown) {
              // The first report alone, independently: anchored at the earlier of the two stamps, the rest of the
              // station at the reported rate.
              const anchor = Math.min(phone, phone + r.skewMs);
              const expectedLeft = Math.ceil(
                (anchor + ((duration - elapsed) / (rate * r.rateError)) * 1000 - phone) / 1000 - 1e-9,
              );
              expect(stationSecondsLeftAt(next as StationClock, phone)).toBe(Math.max(0, expectedLeft));
            }
            shown = mergeStationClock(shown, next, phone);
            const left = stationSecondsLeftAt(shown as StationClock, phone);
            expect(left).toBeLessThanOrEqual(lastLeft);
            lastLeft = left;
            if (shown?.serviceAtMs != null && left > 0) {
              expect(phone + left * 1000).toBeLessThanOrEqual(shown.serviceAtMs + 1000);
            }
          }
          // Never later than the earliest end any report implied; with exact reports, the true end.
          if (shown && reports.every((r) => r.rateError === 1 && r.skewMs <= 0)) {
            expect(shown.endsAtMs).toBeLessThanOrEqual(trueEnd + 1);
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});
