/**
 * Edge-by-edge checks of the device plausibility rules (docs/device-protocol.md §5.1): the device era, the ±1 day
 * window around the server clock and around a time-scaled clock's own pace, the pinned reading, the moved station
 * start, the counter rule and the clock-rate measurement. Pure and fast (mutation testing reruns them per mutant);
 * every expectation is worked out by hand from the rule's text, at the edges of each bound.
 */
import { describe, expect, it } from "vitest";
import { type ClockRateState, foldClockRate } from "./clock-rate.ts";
import {
  checkCounter,
  isPlausibleDeviceTime,
  pinnedDeviceTime,
  storedStationStart,
  withinDeviceEra,
} from "./plausibility.ts";

const DAY = 86_400_000;
const HOUR = 3_600_000;
const ms = (iso: string) => Date.parse(iso);
const iso = (t: number) => new Date(t).toISOString();
const UNMEASURED: ClockRateState = { rate: null, anchorTs: null, anchorAt: null };

describe("device era (2000 ≤ year < 2100)", () => {
  it("includes 2000-01-01T00:00 and the last millisecond of 2099, excludes their neighbours and NaN", () => {
    expect(withinDeviceEra(ms("2000-01-01T00:00:00.000Z"))).toBe(true);
    expect(withinDeviceEra(ms("1999-12-31T23:59:59.999Z"))).toBe(false);
    expect(withinDeviceEra(ms("2099-12-31T23:59:59.999Z"))).toBe(true);
    expect(withinDeviceEra(ms("2100-01-01T00:00:00.000Z"))).toBe(false);
    expect(withinDeviceEra(Number.NaN)).toBe(false);
    expect(withinDeviceEra(Number.POSITIVE_INFINITY)).toBe(false);
  });
});

describe("device time plausibility", () => {
  const now = new Date("2026-05-01T12:00:00.000Z");
  const n = now.getTime();

  it("believes an unmeasured clock exactly up to one day either side of the server clock", () => {
    const ok = (t: number) => isPlausibleDeviceTime(iso(t), now, UNMEASURED);
    expect(ok(n)).toBe(true);
    expect(ok(n + DAY)).toBe(true);
    expect(ok(n - DAY)).toBe(true);
    expect(ok(n + DAY + 1)).toBe(false);
    expect(ok(n - DAY - 1)).toBe(false);
  });

  it("never believes a time outside the device era, even when the server clock is there too", () => {
    const at1999 = new Date("1999-12-31T12:00:00.000Z");
    expect(isPlausibleDeviceTime("1999-12-31T12:00:00.000Z", at1999, UNMEASURED)).toBe(false);
    expect(isPlausibleDeviceTime("garbage", now, UNMEASURED)).toBe(false);
  });

  it("follows a time-scaled clock's own pace: anchor + rate × real time since the anchor, ± rate days", () => {
    // Rate 2, anchored 10 real days ago at a device reading of 2026-01-01: the clock should read 2026-01-21 now.
    const clock: ClockRateState = { rate: 2, anchorTs: "2026-01-01T00:00:00.000Z", anchorAt: iso(n - 10 * DAY) };
    const expected = ms("2026-01-21T00:00:00.000Z");
    const ok = (t: number) => isPlausibleDeviceTime(iso(t), now, clock);
    expect(ok(expected)).toBe(true);
    expect(ok(expected + 2 * DAY)).toBe(true);
    expect(ok(expected - 2 * DAY)).toBe(true);
    expect(ok(expected + 2 * DAY + 1)).toBe(false);
    expect(ok(expected - 2 * DAY - 1)).toBe(false);
    // Where the anchor itself stood is far from the pace now: doubted.
    expect(ok(ms("2026-01-01T00:00:00.000Z"))).toBe(false);
  });

  it("keeps a one-day window for a clock slower than real time", () => {
    // Rate 0.5, anchored 20 real days ago at 2026-02-01: it should read 2026-02-11 now; the window stays a day.
    const clock: ClockRateState = { rate: 0.5, anchorTs: "2026-02-01T00:00:00.000Z", anchorAt: iso(n - 20 * DAY) };
    const expected = ms("2026-02-11T00:00:00.000Z");
    expect(isPlausibleDeviceTime(iso(expected + DAY), now, clock)).toBe(true);
    expect(isPlausibleDeviceTime(iso(expected + DAY + 1), now, clock)).toBe(false);
  });

  it("uses only the server window for a real clock (rate 1), an unusable rate, or a clock without an anchor", () => {
    const far = "2026-01-01T00:00:00.000Z"; // months from now
    const anchored = { anchorTs: far, anchorAt: iso(n) };
    // Rate 1 with an anchor that would put the clock at `far`: still only ±1 day of the server clock.
    expect(isPlausibleDeviceTime(far, now, { rate: 1, ...anchored })).toBe(false);
    expect(isPlausibleDeviceTime(far, now, { rate: 0, ...anchored })).toBe(false);
    expect(isPlausibleDeviceTime(far, now, { rate: -60, ...anchored })).toBe(false);
    expect(isPlausibleDeviceTime(far, now, { rate: null, ...anchored })).toBe(false);
    expect(isPlausibleDeviceTime(far, now, { rate: 60, ...anchored })).toBe(true);
    expect(isPlausibleDeviceTime(far, now, { rate: 60, anchorTs: null, anchorAt: iso(n) })).toBe(false);
    expect(isPlausibleDeviceTime(far, now, { rate: 60, anchorTs: far, anchorAt: null })).toBe(false);
    expect(isPlausibleDeviceTime(far, now, { rate: 60, anchorTs: "garbage", anchorAt: iso(n) })).toBe(false);
  });
});

describe("pinned device time", () => {
  const now = new Date("2026-05-01T12:00:00.000Z");
  it("pins a clock ahead to now + 1 day and one behind, level or unreadable to now − 1 day", () => {
    expect(pinnedDeviceTime("2030-01-01T00:00:00.000Z", now)).toBe("2026-05-02T12:00:00.000Z");
    expect(pinnedDeviceTime("2026-05-01T12:00:00.001Z", now)).toBe("2026-05-02T12:00:00.000Z");
    expect(pinnedDeviceTime("1970-01-01T00:00:00.000Z", now)).toBe("2026-04-30T12:00:00.000Z");
    expect(pinnedDeviceTime("2026-05-01T12:00:00.000Z", now)).toBe("2026-04-30T12:00:00.000Z");
    expect(pinnedDeviceTime("garbage", now)).toBe("2026-04-30T12:00:00.000Z");
  });
});

describe("stored station start", () => {
  const report = "2026-05-01T12:00:00.000Z";
  const stored = "2026-05-03T08:00:00.000Z"; // the report's time as stored (replaced)

  it("moves the start by the same amount as the report, keeping the elapsed time", () => {
    expect(storedStationStart("2026-05-01T11:50:00.000Z", report, stored, 3600)).toBe("2026-05-03T07:50:00.000Z");
    expect(storedStationStart("2026-05-01T12:00:00.000Z", report, report, 3600)).toBe(report);
  });

  it("keeps a start up to one second after the report and up to the longest station before it", () => {
    expect(storedStationStart("2026-05-01T12:00:01.000Z", report, stored, 3600)).toBe("2026-05-03T08:00:01.000Z");
    expect(storedStationStart("2026-05-01T12:00:01.001Z", report, stored, 3600)).toBeNull();
    expect(storedStationStart("2026-05-01T11:00:00.000Z", report, stored, 3600)).toBe("2026-05-03T07:00:00.000Z");
    expect(storedStationStart("2026-05-01T10:59:59.999Z", report, stored, 3600)).toBeNull();
  });

  it("drops an absent or unreadable start", () => {
    expect(storedStationStart(null, report, stored, 3600)).toBeNull();
    expect(storedStationStart(undefined, report, stored, 3600)).toBeNull();
    expect(storedStationStart("", report, stored, 3600)).toBeNull();
    expect(storedStationStart("garbage", report, stored, 3600)).toBeNull();
  });
});

describe("counter rule", () => {
  it("takes a counter more than 0.05 below the stored one for a reset, and anything else as ok", () => {
    expect(checkCounter(10, 10, 1e9)).toBe("ok");
    expect(checkCounter(10, 12, 1e9)).toBe("ok");
    expect(checkCounter(10, 9.95, 1e9)).toBe("ok");
    expect(checkCounter(10, 9.94, 1e9)).toBe("reset");
    expect(checkCounter(10, 0, 1e9)).toBe("reset");
  });

  it("checks a stored counter up to the bound and ignores one beyond it or none at all", () => {
    expect(checkCounter(1e9, 0, 1e9)).toBe("reset");
    expect(checkCounter(1e9 + 1, 0, 1e9)).toBe("ok");
    expect(checkCounter(null, 0, 1e9)).toBe("ok");
    expect(checkCounter(undefined, 0, 1e9)).toBe("ok");
    expect(checkCounter(Number.NaN, 0, 1e9)).toBe("ok");
  });
});

describe("clock rate", () => {
  const anchorAt = "2026-05-01T10:00:00.000Z";
  const anchorTs = "2026-01-01T00:00:00.000Z";
  const anchored: ClockRateState = { rate: 7, anchorTs, anchorAt };
  /** The state after a report whose device clock advanced `deviceMs` in `realMs` of real time since the anchor. */
  const fold = (deviceMs: number, realMs: number, prev: ClockRateState = anchored) =>
    foldClockRate(prev, iso(ms(anchorTs) + deviceMs), new Date(ms(anchorAt) + realMs));

  it("anchors the first report and keeps the rate it had", () => {
    const s = foldClockRate({ rate: 3, anchorTs: null, anchorAt: null }, anchorTs, new Date(anchorAt));
    expect(s).toEqual({ rate: 3, anchorTs, anchorAt });
    // Only one half of an anchor is no anchor: the report re-anchors, whatever the real time since.
    const half = foldClockRate({ rate: 3, anchorTs: null, anchorAt }, anchorTs, new Date(ms(anchorAt) + 60_000));
    expect(half).toEqual({ rate: 3, anchorTs, anchorAt: iso(ms(anchorAt) + 60_000) });
    const half2 = foldClockRate({ rate: 3, anchorTs, anchorAt: null }, anchorTs, new Date(ms(anchorAt) + 1000));
    expect(half2).toEqual({ rate: 3, anchorTs, anchorAt: iso(ms(anchorAt) + 1000) });
  });

  it("leaves the state as it was for an unreadable time or a report under 5 s of real time after the anchor", () => {
    expect(foldClockRate(anchored, "garbage", new Date(ms(anchorAt) + HOUR))).toBe(anchored);
    expect(fold(600_000, 4_999)).toBe(anchored);
  });

  it("measures from 5 s of real time on, to two significant digits", () => {
    expect(fold(300_000, 5_000)).toEqual({
      rate: 60,
      anchorTs: iso(ms(anchorTs) + 300_000),
      anchorAt: iso(ms(anchorAt) + 5_000),
    });
    expect(fold(612_345, 10_000).rate).toBe(61);
    expect(fold(30_000, 10_000).rate).toBe(3);
  });

  it("calls 0.5–1.5 exactly 1 (a real clock) and keeps the rates just outside", () => {
    expect(fold(5_000, 10_000).rate).toBe(1);
    expect(fold(15_000, 10_000).rate).toBe(1);
    expect(fold(10_000, 10_000).rate).toBe(1);
    expect(fold(4_900, 10_000).rate).toBe(0.49);
    expect(fold(16_000, 10_000).rate).toBe(1.6);
  });

  it("clamps the rate to 0.001–100 000", () => {
    expect(fold(1_000, 10_000_000).rate).toBe(0.001);
    expect(fold(2_000_000_000, 10_000).rate).toBe(100_000);
  });

  it("re-anchors and keeps the rate when the device clock stood still or went back (a time sync)", () => {
    expect(fold(0, 10_000)).toEqual({ rate: 7, anchorTs, anchorAt: iso(ms(anchorAt) + 10_000) });
    expect(fold(-HOUR, 10_000)).toEqual({
      rate: 7,
      anchorTs: iso(ms(anchorTs) - HOUR),
      anchorAt: iso(ms(anchorAt) + 10_000),
    });
  });
});
