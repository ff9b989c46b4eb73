import { describe, expect, it } from "vitest";
import { i18n } from "../i18n/index.ts";
import { volumeText } from "../units/volume.ts";
import { formatKg, formatMoment, formatNumber, homeFormatWarmers } from "./index.ts";

/** Intl writes narrow / no-break spaces as group separators; compare with plain spaces. */
const plain = (s: string | null) => s?.replace(/[\u00a0\u202f]/g, " ") ?? null;

describe("dashboard numbers in each language (L and kg with a space, Intl formats)", () => {
  it("groups and rounds in the language's conventions", () => {
    expect(formatKg(25, "en")).toBe("25");
    expect(formatKg(7.25, "es")).toBe("7,3");
    expect(formatNumber(1000.4, "en")).toBe("1,000");
  });

  it("puts the unit after a space, in each language's glossary", async () => {
    const cases: Array<[string, string, string]> = [
      ["en", "25 kg", "1,235 L"],
      ["zh-Hans", "25 kg", "1,235 L"],
      ["es", "25 kg", "1235 L"],
      ["fr", "25 kg", "1 235 L"],
      ["ru", "25 кг", "1 235 л"],
    ];
    for (const [lang, kg, litres] of cases) {
      const t = i18n.getFixedT(lang);
      expect(t("dashboard.kg", { value: formatKg(25, lang) }), lang).toBe(kg);
      expect(plain(volumeText(1234.56, "L", lang, (k) => t(`units.symbols.${k}` as "units.symbols.L"))), lang).toBe(
        litres,
      );
    }
  });

  it("counts days with each language's plural forms", () => {
    expect(i18n.getFixedT("en")("dashboard.saltDays", { count: 1 })).toBe("1 day");
    expect(i18n.getFixedT("en")("dashboard.saltDays", { count: 12 })).toBe("12 days");
    expect(i18n.getFixedT("ru")("dashboard.saltDays", { count: 1 })).toBe("1 день");
    expect(i18n.getFixedT("ru")("dashboard.saltDays", { count: 3 })).toBe("3 дня");
    expect(i18n.getFixedT("ru")("dashboard.saltDays", { count: 11 })).toBe("11 дней");
    expect(i18n.getFixedT("fr")("dashboard.saltDays", { count: 0 })).toBe("0 jour");
    expect(i18n.getFixedT("es")("dashboard.saltDays", { count: 2 })).toBe("2 días");
    expect(i18n.getFixedT("zh-Hans")("dashboard.saltDays", { count: 2 })).toBe("2 天");
  });
});

describe("dashboard moments in the phone's local time", () => {
  const now = new Date("2026-03-12T12:00:00Z");
  const at = (iso: string, lang: string, timeZone: string, timeOnlyToday = false) =>
    formatMoment(iso, lang, { now, timeZone, timeOnlyToday });

  it("today, tomorrow and yesterday by the local calendar, then the weekday, then the date", () => {
    expect(at("2026-03-12T18:30:00Z", "fr", "UTC")).toBe("aujourd’hui 18:30");
    expect(at("2026-03-13T02:00:00Z", "fr", "UTC")).toBe("demain 02:00");
    expect(at("2026-03-11T23:00:00Z", "ru", "UTC")).toBe("вчера 23:00");
    expect(at("2026-03-15T02:00:00Z", "es", "UTC")).toBe("dom 02:00");
    expect(at("2026-03-20T02:00:00Z", "fr", "UTC")).toBe("20 mars 02:00");
    expect(at("2026-03-13T02:00:00Z", "zh-Hans", "UTC")).toBe("明天 02:00");
  });

  it("cuts days in the phone's zone: 18:00 UTC is tomorrow 02:00 in Shanghai", () => {
    expect(at("2026-03-12T18:00:00Z", "en", "Asia/Shanghai")).toBe("tomorrow 02:00 AM");
    expect(at("2026-03-12T15:00:00Z", "en", "Asia/Shanghai")).toBe("today 11:00 PM");
  });

  it("the phone's own zone (no zone given) cuts days as that zone named does", () => {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    for (const hours of [-30, -25, -13, -1, 0, 1, 11, 13, 23, 25, 47, 100]) {
      const iso = new Date(now.getTime() + hours * 3_600_000).toISOString();
      expect(formatMoment(iso, "en", { now })).toBe(at(iso, "en", zone));
      expect(formatMoment(iso, "ru", { now, timeOnlyToday: true })).toBe(at(iso, "ru", zone, true));
    }
  });

  it("the time alone for today when asked; nothing for a missing or unreadable time", () => {
    expect(at("2026-03-12T09:05:00Z", "ru", "UTC", true)).toBe("09:05");
    expect(at("2026-03-11T09:05:00Z", "ru", "UTC", true)).toBe("вчера 09:05");
    expect(formatMoment(null, "en")).toBeNull();
    expect(formatMoment("not a time", "en")).toBeNull();
  });
});

describe("Home's formatters built ahead (not in the device cards' render)", () => {
  it("leaves nothing for the screen's numbers, volumes, salt and moments to build in that language", () => {
    const now = new Date("2026-03-10T08:00:00Z");
    const today = new Date(now.getTime() + 60_000).toISOString();
    const tomorrow = new Date(now.getTime() + 86_400_000).toISOString();
    // A locale no other test here formats in (the formatter cache lives as long as the module).
    for (const warm of homeFormatWarmers("de", now)) warm();
    // Count what is built from here on: each constructor replaced by a subclass that counts.
    const kinds = ["NumberFormat", "DateTimeFormat", "RelativeTimeFormat"] as const;
    const original = kinds.map((k) => Intl[k]);
    const built = [0, 0, 0];
    for (const [i, k] of kinds.entries()) {
      const Base = original[i] as new (...args: unknown[]) => object;
      Object.assign(Intl, {
        [k]: class extends Base {
          constructor(...args: unknown[]) {
            super(...args);
            built[i]++;
          }
        },
      });
    }
    try {
      formatNumber(6315, "de");
      formatKg(12.5, "de");
      volumeText(2581, "L", "de", (k) => k);
      volumeText(42.5, "L", "de", (k) => k);
      formatMoment(today, "de", { now, timeOnlyToday: true });
      formatMoment(tomorrow, "de", { now });
      expect(built).toEqual([0, 0, 0]);
      // The count does see a formatter the warm-up did not build.
      expect(formatNumber(1.2345, "de", 3)).toBe("1,235");
      expect(built).toEqual([1, 0, 0]);
    } finally {
      for (const [i, k] of kinds.entries()) Object.assign(Intl, { [k]: original[i] });
    }
  });
});
