import { describe, expect, it } from "vitest";
import { AGE_YEAR_MS, ageInYears } from "./age.ts";

const at = (iso: string) => Date.parse(iso);

describe("age with 365-day years (spec §9)", () => {
  it("counts whole 365-day years between two instants", () => {
    expect(ageInYears("2020-06-01", at("2020-06-01T00:00:00Z"))).toBe(0);
    expect(ageInYears("2019-06-01", at("2020-06-01T00:00:00Z"))).toBe(1);
    expect(ageInYears("2010-06-01T12:00:00Z", at("2026-11-24T07:00:00Z"))).toBe(16);
    expect(ageInYears(0, AGE_YEAR_MS)).toBe(1);
    expect(ageInYears(0, AGE_YEAR_MS - 1)).toBe(0);
    expect(ageInYears(new Date(0), new Date(10 * AGE_YEAR_MS))).toBe(10);
  });

  it("leap days are days: the age turns before the calendar anniversary once leap days add up", () => {
    // 2000-01-01 → 2003-12-31 is 1 460 days (2000 is a leap year): four 365-day years, three calendar years.
    expect(ageInYears("2000-01-01", at("2003-12-30T23:59:59.999Z"))).toBe(3);
    expect(ageInYears("2000-01-01", at("2003-12-31T00:00:00Z"))).toBe(4);
    // Born on a leap day: one year after 365 days, i.e. on 28 February of the next year.
    expect(ageInYears("2020-02-29", at("2021-02-27T23:59:59Z"))).toBe(0);
    expect(ageInYears("2020-02-29", at("2021-02-28T00:00:00Z"))).toBe(1);
    // Across a leap day: 2019-03-01 → 2020-02-29 is 365 days.
    expect(ageInYears("2019-03-01", at("2020-02-28T23:59:59Z"))).toBe(0);
    expect(ageInYears("2019-03-01", at("2020-02-29T00:00:00Z"))).toBe(1);
  });

  it("a start with an offset is the same instant whatever the phone's zone", () => {
    expect(ageInYears("2020-01-01T08:00:00+08:00", at("2020-12-31T00:00:00Z"))).toBe(1);
    expect(ageInYears("2020-01-01T08:00:00+08:00", at("2020-12-30T23:59:59Z"))).toBe(0);
  });

  it("a start in the future is age 0, never negative", () => {
    expect(ageInYears("2030-01-01", at("2026-11-24T00:00:00Z"))).toBe(0);
    expect(ageInYears(at("2026-11-24T00:00:01Z"), at("2026-11-24T00:00:00Z"))).toBe(0);
  });

  it("nothing to count from: null, unparseable, or the empty date 0001-01-01", () => {
    expect(ageInYears(null)).toBeNull();
    expect(ageInYears(undefined)).toBeNull();
    expect(ageInYears("")).toBeNull();
    expect(ageInYears("not a date")).toBeNull();
    expect(ageInYears(Number.NaN)).toBeNull();
    expect(ageInYears("0001-01-01T00:00:00")).toBeNull();
    expect(ageInYears(" 0001-01-01")).toBeNull();
    expect(ageInYears("2020-01-01", Number.NaN)).toBeNull();
  });
});
