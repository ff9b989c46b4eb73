import { describe, expect, it } from "vitest";
import { formatDate, formatDateTime, locationLine, shareStatus } from "./format.ts";
import { validateFamilyName } from "./validation.ts";

describe("household formatting", () => {
  it("location line: region without repeats and coordinates with 5 decimals", () => {
    expect(
      locationLine({ province: "上海市", city: "上海市", district: "黄浦区", longitude: 121.491, latitude: 31.233 }),
    ).toBe("上海市 黄浦区 · 121.49100, 31.23300");
    expect(locationLine({ province: null, city: "", district: null, longitude: 2.35, latitude: 48.8566 })).toBe(
      "2.35000, 48.85660",
    );
    expect(locationLine({ province: "Bayern", longitude: null, latitude: null })).toBe("Bayern");
    expect(locationLine({ longitude: null, latitude: 1 })).toBe("");
  });

  it("dates as yyyy-MM-dd HH:mm and yyyy-MM-dd (spec §9) in local time; bad input gives empty text", () => {
    const local = new Date(2025, 0, 2, 3, 4, 5).toISOString();
    expect(formatDateTime(local)).toBe("2025-01-02 03:04");
    expect(formatDate(local)).toBe("2025-01-02");
    expect(formatDateTime(null)).toBe("");
    expect(formatDateTime("nope")).toBe("");
  });

  it("share status: revoked, then expired by flag or clock, else valid", () => {
    const now = Date.parse("2025-01-01T12:00:00Z");
    const future = "2025-01-01T12:10:00Z";
    expect(shareStatus({ expired: false, revoked: false, expiresAt: future }, now)).toBe("valid");
    expect(shareStatus({ expired: true, revoked: false, expiresAt: future }, now)).toBe("expired");
    expect(shareStatus({ expired: false, revoked: false, expiresAt: "2025-01-01T11:59:59Z" }, now)).toBe("expired");
    expect(shareStatus({ expired: true, revoked: true, expiresAt: future }, now)).toBe("revoked");
  });

  it("family name: required, at most 32 characters after trimming", () => {
    expect(validateFamilyName("   ")).toBe("family.nameRequired");
    expect(validateFamilyName(" My home ")).toBeNull();
    expect(validateFamilyName("x".repeat(32))).toBeNull();
    expect(validateFamilyName("x".repeat(33))).toBe("family.nameTooLong");
  });
});
