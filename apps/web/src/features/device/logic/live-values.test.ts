import { describe, expect, it } from "vitest";
import { clockDriftMs, formatCountdown, isClockDrifting, minutesAgo, stationProgress } from "./live-values.ts";

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

describe("station progress and countdown text", () => {
  it("measures progress against the station's duration", () => {
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
