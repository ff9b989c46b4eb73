import { describe, expect, it } from "vitest";
import {
  addLocalDays,
  callerTimeZone,
  localDateKey,
  localDateStart,
  localDayStart,
  localMonthStart,
} from "./time-zone.ts";

describe("owner's local days", () => {
  it("reads the zone from the header and falls back to UTC for absent or unknown zones", () => {
    expect(callerTimeZone({ headers: { "x-time-zone": "Europe/Paris" } })).toBe("Europe/Paris");
    expect(callerTimeZone({ headers: { "x-time-zone": "Mars/Olympus" } })).toBe("UTC");
    expect(callerTimeZone({ headers: {} })).toBe("UTC");
  });

  it("cuts days at local midnight, not UTC midnight", () => {
    // 23:30 UTC on 1 March is already 2 March in Shanghai (UTC+8) and still 1 March in New York.
    const t = Date.parse("2026-03-01T23:30:00Z");
    expect(localDayStart(t, "Asia/Shanghai").toISOString()).toBe("2026-03-01T16:00:00.000Z");
    expect(localDateKey(t, "Asia/Shanghai")).toBe("2026-03-02");
    expect(localDayStart(t, "America/New_York").toISOString()).toBe("2026-03-01T05:00:00.000Z");
    expect(localDateKey(t, "America/New_York")).toBe("2026-03-01");
  });

  it("has 23- and 25-hour days at daylight-saving changes", () => {
    const start = localDateStart("2026-03-29", "Europe/Paris");
    expect(start.toISOString()).toBe("2026-03-28T23:00:00.000Z");
    expect(addLocalDays(start, 1, "Europe/Paris").getTime() - start.getTime()).toBe(23 * 3600_000);
    const autumn = localDateStart("2026-10-25", "Europe/Paris");
    expect(addLocalDays(autumn, 1, "Europe/Paris").getTime() - autumn.getTime()).toBe(25 * 3600_000);
  });

  it("finds local month starts", () => {
    const t = Date.parse("2026-01-31T20:00:00Z"); // already 1 February in Tokyo
    expect(localMonthStart(t, "Asia/Tokyo").toISOString()).toBe("2026-01-31T15:00:00.000Z");
    expect(localMonthStart(t, "Asia/Tokyo", 1).toISOString()).toBe("2026-02-28T15:00:00.000Z");
    expect(() => localDateStart("yesterday", "UTC")).toThrow(RangeError);
  });
});
