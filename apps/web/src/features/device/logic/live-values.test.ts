import { describe, expect, it } from "vitest";
import {
  clockDriftMs,
  formatCountdown,
  formatPercent,
  isClockDrifting,
  minutesAgo,
  stationProgress,
} from "./live-values.js";

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
