import { describe, expect, it } from "vitest";
import {
  clockDriftMs,
  deviceClockRate,
  formatCountdown,
  formatPercent,
  isClockDrifting,
  minutesAgo,
  remainingSecondsAt,
  stationProgress,
} from "./live-values.js";

describe("station countdown", () => {
  it("counts down from the reported value by the time since it arrived, never below 0", () => {
    expect(remainingSecondsAt(600, 1_000_000, 1_000_000)).toBe(600);
    expect(remainingSecondsAt(600, 1_000_000, 1_030_000)).toBe(570);
    expect(remainingSecondsAt(20, 1_000_000, 1_030_000)).toBe(0);
    expect(remainingSecondsAt(null, 0, 10)).toBeNull();
  });

  it("runs the countdown at the device's clock rate (a time-scaled simulator counts 60 s per second)", () => {
    expect(remainingSecondsAt(600, 1_000_000, 1_005_000, 60)).toBe(300);
    expect(remainingSecondsAt(600, 1_000_000, 1_020_000, 60)).toBe(0);
  });

  it("measures the device's clock rate between reports, treating jitter as 1 and keeping it when unmeasurable", () => {
    const prev = { reportTime: "2026-01-01T00:00:00Z", atMs: 10_000, rate: 1 };
    // 5 device minutes in 5 phone seconds: 60×.
    expect(deviceClockRate(prev, { reportTime: "2026-01-01T00:05:00Z", atMs: 15_000 })).toBe(60);
    // 6 device seconds in 5 phone seconds: a real valve with network jitter.
    expect(deviceClockRate(prev, { reportTime: "2026-01-01T00:00:06Z", atMs: 15_000 })).toBe(1);
    // Too close together, no time, or a clock that went back: keep the previous rate.
    expect(deviceClockRate({ ...prev, rate: 60 }, { reportTime: "2026-01-01T00:05:00Z", atMs: 10_500 })).toBe(60);
    expect(deviceClockRate({ ...prev, rate: 60 }, { reportTime: null, atMs: 20_000 })).toBe(60);
    expect(deviceClockRate({ ...prev, rate: 60 }, { reportTime: "2025-12-31T23:00:00Z", atMs: 20_000 })).toBe(60);
  });

  it("ignores a clock that runs backwards", () => {
    expect(remainingSecondsAt(100, 5000, 1000)).toBe(100);
  });

  it("measures progress against the configured duration", () => {
    expect(stationProgress(450, 600)).toBeCloseTo(0.25);
    expect(stationProgress(0, 600)).toBe(1);
    expect(stationProgress(900, 600)).toBe(0);
    expect(stationProgress(100, undefined)).toBeNull();
    expect(stationProgress(100, 0)).toBeNull();
    expect(stationProgress(null, 600)).toBeNull();
  });

  it("formats m:ss and h:mm:ss", () => {
    expect(formatCountdown(0)).toBe("0:00");
    expect(formatCountdown(65)).toBe("1:05");
    expect(formatCountdown(3600 + 62)).toBe("1:01:02");
    expect(formatCountdown(-5)).toBe("0:00");
  });
});

describe("freshness", () => {
  const now = Date.parse("2026-01-01T12:00:00Z");
  it("answers whole minutes ago", () => {
    expect(minutesAgo("2026-01-01T11:57:30Z", now)).toBe(2);
    expect(minutesAgo("2026-01-01T12:05:00Z", now)).toBe(0);
    expect(minutesAgo(null, now)).toBeNull();
    expect(minutesAgo("not a date", now)).toBeNull();
  });

  it("warns only above one minute of drift either way", () => {
    expect(clockDriftMs("2026-01-01T12:02:00Z", now)).toBe(120_000);
    expect(isClockDrifting(clockDriftMs("2026-01-01T12:02:00Z", now))).toBe(true);
    expect(isClockDrifting(clockDriftMs("2026-01-01T11:58:59Z", now))).toBe(true);
    expect(isClockDrifting(clockDriftMs("2026-01-01T12:01:00Z", now))).toBe(false);
    expect(isClockDrifting(null)).toBe(false);
  });
});

describe("formatPercent (spec §9: one decimal)", () => {
  it("rounds to one decimal and clamps", () => {
    expect(formatPercent(42.25)).toBe("42.3%");
    expect(formatPercent(0)).toBe("0.0%");
    expect(formatPercent(100)).toBe("100.0%");
    expect(formatPercent(130)).toBe("100.0%");
    expect(formatPercent(-3)).toBe("0.0%");
    expect(formatPercent(null)).toBe("0.0%");
    expect(formatPercent(Number.NaN)).toBe("0.0%");
  });
});
