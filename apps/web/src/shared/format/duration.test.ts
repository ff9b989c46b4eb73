import { describe, expect, it } from "vitest";
import { formatDuration, formatDurationSince, formatMinutes } from "./duration.ts";

const MIN = 60_000;
/** Intl writes non-breaking spaces between number and unit (they keep "5 min" on one line); compared as spaces. */
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, " ");

describe("formatDuration (spec §9 duration helper)", () => {
  it("reads as semantic text in the language's short units", () => {
    expect(formatDuration(10.5 * MIN, "en")).toBe("10 min 30 s");
    expect(formatDuration(90 * MIN, "en")).toBe("1 h 30 min");
    expect(formatDuration((26 * 60 + 3) * MIN, "en")).toBe("1 day 2 h 3 min");
    expect(formatDuration(45_000, "en")).toBe("45 s");
    expect(formatDuration(0, "en")).toBe("0 min");
    expect(formatDuration(-5 * MIN, "en")).toBe("5 min");
  });
  it("reads in each of the five languages", () => {
    expect(plain(formatDuration(65.5 * MIN, "fr"))).toBe("1 h 5 min 30 s");
    expect(plain(formatDuration(65.5 * MIN, "es"))).toBe("1 h 5 min 30 s");
    expect(plain(formatDuration(65.5 * MIN, "ru"))).toBe("1 ч 5 мин 30 с");
    expect(plain(formatDuration(65.5 * MIN, "zh-Hans"))).toBe("1小时5分钟30秒");
    expect(plain(formatDuration(2 * 1440 * MIN, "ru"))).toBe("2 дня");
    // Days are words with the language's plural (docs/glossary.md: never "дн." or "3 d").
    expect(plain(formatDuration(5 * 1440 * MIN + 3 * 60 * MIN, "ru"))).toBe("5 дней 3 ч");
    expect(plain(formatDuration(1440 * MIN, "fr"))).toBe("1 jour");
    expect(plain(formatDuration(3 * 1440 * MIN, "es"))).toBe("3 días");
    expect(plain(formatDuration(1440 * MIN, "en"))).toBe("1 day");
  });
  it("drops seconds from one day on", () => {
    expect(formatDuration(1440 * MIN + 40_000, "en")).toBe("1 day 1 min");
  });
  it("reads days:hours:minutes in the clock style", () => {
    expect(formatDuration((26 * 60 + 3) * MIN, "en", "clock")).toBe("1:02:03");
    expect(formatDuration(65.5 * MIN, "en", "clock")).toBe("0:01:06");
    expect(formatDuration(0, "en", "clock")).toBe("0:00:00");
    expect(formatDuration(Number.NaN, "en")).toBe("");
  });
  it("reads minutes, the devices' unit of station times", () => {
    expect(formatMinutes(8, "en")).toBe("8 min");
    expect(formatMinutes(99, "en")).toBe("1 h 39 min");
  });
});

describe("formatDurationSince", () => {
  const now = Date.parse("2026-05-02T12:00:00Z");
  it("answers nothing for the empty date 0001-01-01 and for missing or unreadable dates", () => {
    expect(formatDurationSince("0001-01-01T00:00:00", "en", { now })).toBe("");
    expect(formatDurationSince("0001-01-01", "en", { now })).toBe("");
    expect(formatDurationSince(new Date("0001-01-01T00:00:00Z"), "en", { now })).toBe("");
    expect(formatDurationSince(null, "en", { now })).toBe("");
    expect(formatDurationSince("yesterday", "en", { now })).toBe("");
  });
  it("measures from the date to now either way round", () => {
    expect(formatDurationSince("2026-05-01T09:30:00Z", "en", { now })).toBe("1 day 2 h 30 min");
    expect(formatDurationSince("2026-05-01T09:30:00Z", "en", { now, style: "clock" })).toBe("1:02:30");
    expect(formatDurationSince(new Date(now + 90 * MIN), "en", { now })).toBe("1 h 30 min");
  });
});
