import { afterAll, describe, expect, it } from "vitest";
import { type ClockRateState, foldClockRate } from "./clock-rate.ts";
import {
  checkCounter,
  DEVICE_TIME_WINDOW_MS,
  isPlausibleDeviceTime,
  pinnedDeviceTime,
  storedStationStart,
} from "./plausibility.ts";

const UNMEASURED: ClockRateState = { rate: null, anchorTs: null, anchorAt: null };
const iso = (ms: number) => new Date(ms).toISOString();
const figures = { reports: 0, believed: 0 };

afterAll(() => {
  console.log(
    `plausibility: ${figures.reports.toLocaleString("en")} simulated reports, ${figures.believed.toLocaleString("en")} believed`,
  );
});

/**
 * Plays a device clock running at `scale` × real time against the server for `hours` of real time: a state report
 * every 15 device minutes (at most one per real second, as the simulator does) folds the clock rate as the gateway
 * does, and a telemetry message every 10 real seconds is checked in between. Answers how many times were doubted.
 */
function playClock(scale: number, hours: number, startOffsetMs = 0): { doubted: number; reports: number } {
  const start = Date.parse("2026-03-10T00:00:00.000Z");
  let clock = UNMEASURED;
  let doubted = 0;
  let reports = 0;
  const stateEveryMs = Math.max(1000, (15 * 60_000) / scale);
  let nextState = 0;
  for (let real = 0; real <= hours * 3_600_000; real += 1000) {
    const now = new Date(start + real);
    const device = iso(start + startOffsetMs + real * scale);
    const isState = real >= nextState;
    const isTelemetry = real % 10_000 === 0;
    if (!isState && !isTelemetry) continue;
    reports++;
    const believed = isPlausibleDeviceTime(device, now, clock);
    if (!believed) doubted++;
    if (isState) {
      clock = foldClockRate(clock, device, now);
      nextState = real + stateEveryMs;
    }
  }
  figures.reports += reports;
  figures.believed += reports - doubted;
  return { doubted, reports };
}

describe("device time plausibility", () => {
  it("believes a real clock within a day of the server and doubts 1970, 9999 and a reset to 2000", () => {
    const now = new Date("2026-03-10T12:00:00.000Z");
    const ok = (ts: string) => isPlausibleDeviceTime(ts, now, UNMEASURED);
    expect(ok("2026-03-10T12:00:00.000Z")).toBe(true);
    expect(ok(iso(now.getTime() + DEVICE_TIME_WINDOW_MS))).toBe(true);
    expect(ok(iso(now.getTime() - DEVICE_TIME_WINDOW_MS - 1))).toBe(false);
    expect(ok("2026-03-12T12:00:00.000Z")).toBe(false);
    expect(ok("1970-01-01T00:00:00.000Z")).toBe(false);
    expect(ok("9999-12-31T23:59:59.999Z")).toBe(false);
    expect(ok("2000-01-01T00:00:00.000Z")).toBe(false);
    // Measured at rate 1 with an anchor a year off: the anchor does not make a wrong clock right.
    const wrong = { rate: 1, anchorTs: "2025-03-10T12:00:00.000Z", anchorAt: "2026-03-10T11:59:00.000Z" };
    expect(isPlausibleDeviceTime("2025-03-10T12:01:00.000Z", now, wrong)).toBe(false);
  });

  it("keeps believing a 60× simulator for hours, and a 1440× one for a day, from its first report on", () => {
    const sixty = playClock(60, 6); // six real hours: the device clock is 15 days ahead at the end
    expect(sixty.reports).toBeGreaterThan(2000);
    expect(sixty.doubted).toBe(0);
    expect(playClock(1440, 24).doubted).toBe(0); // a day per minute for a day: four years of device time
    expect(playClock(1, 48).doubted).toBe(0);
    // A 60× simulator started with its clock set three days back is doubted only until its rate is measured: then
    // it is believed for its own pace (its times stay in 2000–2099).
    const late = playClock(60, 1, -3 * 86_400_000);
    expect(late.doubted).toBeGreaterThan(0);
    expect(late.doubted).toBeLessThan(5);
  });

  it("doubts a time-scaled clock that leaves its own pace, and anything outside 2000–2099", () => {
    const now = new Date("2026-03-10T12:00:00.000Z");
    // Measured at 60×, anchored 10 real minutes ago: the clock should read anchor + 600 min now.
    const clock = { rate: 60, anchorTs: "2026-04-01T00:00:00.000Z", anchorAt: "2026-03-10T11:50:00.000Z" };
    const expected = Date.parse("2026-04-01T00:00:00.000Z") + 60 * 600_000;
    expect(isPlausibleDeviceTime(iso(expected), now, clock)).toBe(true);
    expect(isPlausibleDeviceTime(iso(expected + 59 * DEVICE_TIME_WINDOW_MS), now, clock)).toBe(true);
    expect(isPlausibleDeviceTime(iso(expected + 61 * DEVICE_TIME_WINDOW_MS), now, clock)).toBe(false);
    const fast = { rate: 100_000, anchorTs: "2099-06-01T00:00:00.000Z", anchorAt: "2026-03-10T11:59:00.000Z" };
    expect(isPlausibleDeviceTime("2100-01-01T00:00:00.000Z", now, fast)).toBe(false);
    expect(isPlausibleDeviceTime("9999-01-01T00:00:00.000Z", now, fast)).toBe(false);
  });

  it("pins an implausible reading a day from now on its side, and moves the station start with it", () => {
    const now = new Date("2026-03-10T12:00:00.000Z");
    expect(pinnedDeviceTime("1970-01-01T00:00:00.000Z", now)).toBe("2026-03-09T12:00:00.000Z");
    expect(pinnedDeviceTime("9999-12-31T00:00:00.000Z", now)).toBe("2026-03-11T12:00:00.000Z");
    // A station that began 5 minutes before the report still began 5 minutes before it.
    expect(
      storedStationStart("1970-01-01T00:00:00.000Z", "1970-01-01T00:05:00.000Z", "2026-03-09T12:00:00.000Z", 604_800),
    ).toBe("2026-03-09T11:55:00.000Z");
    expect(storedStationStart(null, "1970-01-01T00:05:00.000Z", "2026-03-09T12:00:00.000Z", 604_800)).toBeNull();
    // After the report, or longer ago than any station lasts: dropped.
    expect(storedStationStart("2026-03-10T12:00:05.000Z", "2026-03-10T12:00:00.000Z", "x", 604_800)).toBeNull();
    expect(storedStationStart("2026-01-01T00:00:00.000Z", "2026-03-10T12:00:00.000Z", "x", 604_800)).toBeNull();
  });

  it("takes a counter that goes down for a counter reset", () => {
    expect(checkCounter(100, 100.04, 1e9)).toBe("ok");
    expect(checkCounter(100, 99.96, 1e9)).toBe("ok"); // rounding to 0.1 L
    expect(checkCounter(100, 99, 1e9)).toBe("reset");
    expect(checkCounter(100, 0, 1e9)).toBe("reset");
    expect(checkCounter(null, 0, 1e9)).toBe("ok");
    expect(checkCounter(1e308, 5, 1e9)).toBe("ok"); // an implausible value stored before the bounds existed does not freeze the device
  });
});
