import { describe, expect, it } from "vitest";
import {
  dateTimeColumns,
  daysInMonth,
  formatDate,
  formatDateParts,
  formatTimeSelection,
  hourOptions,
  minuteOptions,
  parseDateText,
  SWIPE_DURATION_MS,
  timeColumns,
} from "./date-time-rules.ts";

describe("date/time picker columns (spec §2, §9)", () => {
  it("time: hour 00-23 and minute 00-59", () => {
    const cols = timeColumns("time");
    expect(cols.map((c) => c.key)).toEqual(["hour", "minute"]);
    expect(cols[0].options).toHaveLength(24);
    expect(cols[0].options[0]).toBe("00");
    expect(cols[1].options.at(-1)).toBe("59");
    expect(formatTimeSelection("time", ["00", "00"])).toBe("00:00");
  });

  it("timeWithSecond: three columns, result hh:mm:ss", () => {
    const cols = timeColumns("timeWithSecond");
    expect(cols.map((c) => c.key)).toEqual(["hour", "minute", "second"]);
    expect(cols[2].options).toHaveLength(60);
    expect(formatTimeSelection("timeWithSecond", ["02", "03", "04"])).toBe("02:03:04");
  });

  it("timeWithSecond: an hour column with only 00 is removed and the result is prefixed 00:", () => {
    const cols = timeColumns("timeWithSecond", { maxHour: 0 });
    expect(cols.map((c) => c.key)).toEqual(["minute", "second"]);
    expect(formatTimeSelection("timeWithSecond", ["05", "30"])).toBe("00:05:30");
  });

  it("keeps a single hour other than 00, and the time type keeps its hour column", () => {
    expect(timeColumns("timeWithSecond", { minHour: 1, maxHour: 1 }).map((c) => c.key)).toEqual([
      "hour",
      "minute",
      "second",
    ]);
    expect(timeColumns("time", { maxHour: 0 }).map((c) => c.key)).toEqual(["hour", "minute"]);
  });

  it("hour and minute bounds filter the choices", () => {
    expect(hourOptions({ minHour: 8, maxHour: 10 })).toEqual(["08", "09", "10"]);
    expect(minuteOptions({ minMinute: 55 })).toEqual(["55", "56", "57", "58", "59"]);
    expect(minuteOptions({ maxMinute: 2 })).toEqual(["00", "01", "02"]);
    expect(hourOptions({ minHour: -3, maxHour: 99 })).toHaveLength(24);
    const cols = dateTimeColumns(
      "yyyy-MM-dd HH:mm",
      { year: 2024, month: 2 },
      { min: 2020, max: 2030 },
      { minHour: 9 },
    );
    expect(cols.find((c) => c.key === "hour")?.options[0]).toBe("09");
  });

  it("datetime columns follow the format and the month's length", () => {
    const years = { min: 2020, max: 2030 };
    expect(dateTimeColumns("yyyy-MM-dd", { year: 2024, month: 2 }, years).map((c) => c.key)).toEqual([
      "year",
      "month",
      "day",
    ]);
    expect(dateTimeColumns("yyyy-MM-dd HH:mm:ss", { year: 2024, month: 2 }, years)).toHaveLength(6);
    expect(dateTimeColumns("yyyy-MM-dd", { year: 2024, month: 2 }, years)[2].options.at(-1)).toBe("29");
    expect(dateTimeColumns("yyyy-MM-dd", { year: 2023, month: 2 }, years)[2].options.at(-1)).toBe("28");
    expect(daysInMonth(2024, 12)).toBe(31);
    expect(daysInMonth(2100, 2)).toBe(28);
  });

  it("formats and parses the three formats of §9", () => {
    const parts = { year: 2025, month: 3, day: 7, hour: 8, minute: 5, second: 9 };
    expect(formatDateParts(parts, "yyyy-MM-dd HH:mm:ss")).toBe("2025-03-07 08:05:09");
    expect(formatDateParts(parts, "yyyy-MM-dd")).toBe("2025-03-07");
    expect(formatDateParts(parts, "yyyy-MM-dd HH:mm")).toBe("2025-03-07 08:05");
    expect(formatDate(new Date(2025, 2, 7, 8, 5, 9), "yyyy-MM-dd HH:mm:ss")).toBe("2025-03-07 08:05:09");
    expect(parseDateText("2025-03-07 08:05")).toEqual({ ...parts, second: 0 });
    expect(parseDateText("2023-02-29")).toBeNull();
    expect(parseDateText("nonsense")).toBeNull();
  });

  it("swipe duration is 300 ms", () => {
    expect(SWIPE_DURATION_MS).toBe(300);
  });
});
