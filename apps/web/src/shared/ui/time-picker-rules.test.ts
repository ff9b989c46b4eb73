import { describe, expect, it } from "vitest";
import {
  formatMinutesSeconds,
  parseMinutesSeconds,
  TIME_PICKER_MINUTES,
  TIME_PICKER_SECONDS,
} from "./time-picker-rules.ts";

describe("time picker (spec §2, §5, §9)", () => {
  it("offers minutes 00-99 and seconds 00-59", () => {
    expect(TIME_PICKER_MINUTES).toHaveLength(100);
    expect(TIME_PICKER_MINUTES[0]).toBe("00");
    expect(TIME_PICKER_MINUTES[99]).toBe("99");
    expect(TIME_PICKER_SECONDS).toHaveLength(60);
    expect(TIME_PICKER_SECONDS.at(-1)).toBe("59");
  });

  it("starts with hour 00 below 60 minutes", () => {
    expect(formatMinutesSeconds(0, 0)).toBe("00:00:00");
    expect(formatMinutesSeconds(5, 30)).toBe("00:05:30");
    expect(formatMinutesSeconds(59, 59)).toBe("00:59:59");
  });

  it("folds 60 minutes or more into hour 01", () => {
    expect(formatMinutesSeconds(60, 0)).toBe("01:00:00");
    expect(formatMinutesSeconds(65, 7)).toBe("01:05:07");
    expect(formatMinutesSeconds(99, 59)).toBe("01:39:59");
  });

  it("rejects values outside the columns", () => {
    expect(() => formatMinutesSeconds(100, 0)).toThrow(RangeError);
    expect(() => formatMinutesSeconds(-1, 0)).toThrow(RangeError);
    expect(() => formatMinutesSeconds(10, 60)).toThrow(RangeError);
    expect(() => formatMinutesSeconds(1.5, 0)).toThrow(RangeError);
  });

  it("reads a formatted value back into the columns", () => {
    expect(parseMinutesSeconds("01:05:07")).toEqual({ minutes: 65, seconds: 7 });
    expect(parseMinutesSeconds("00:59:10")).toEqual({ minutes: 59, seconds: 10 });
    expect(parseMinutesSeconds("12:30")).toEqual({ minutes: 12, seconds: 30 });
    expect(parseMinutesSeconds("02:00:00")).toBeNull();
    expect(parseMinutesSeconds("abc")).toBeNull();
    for (let m = 0; m < 100; m += 7) {
      expect(parseMinutesSeconds(formatMinutesSeconds(m, 42))).toEqual({ minutes: m, seconds: 42 });
    }
  });
});
