import { LANGUAGES } from "@aquapilot/contract/wire";
import i18next from "i18next";
import { describe, expect, it } from "vitest";
import { LOCALES } from "../../../app/all-locales.ts";
import { REMINDER_CHOICES, regenerationBasis, reminderChoices, saltGaugePercent } from "./salt-gauge.ts";

describe("the salt gauge", () => {
  it("shows the level against the last refill, in whole percent, within 0–100", () => {
    expect(saltGaugePercent(25, 25)).toBe(100);
    expect(saltGaugePercent(20, 25)).toBe(80);
    expect(saltGaugePercent(1, 3)).toBe(33);
    expect(saltGaugePercent(0, 25)).toBe(0);
    expect(saltGaugePercent(30, 25)).toBe(100);
  });

  it("is unknown without a level or a refill", () => {
    expect(saltGaugePercent(null, 25)).toBeNull();
    expect(saltGaugePercent(10, null)).toBeNull();
    expect(saltGaugePercent(10, 0)).toBeNull();
    expect(saltGaugePercent(undefined, undefined)).toBeNull();
  });
});

describe("the reminder choices", () => {
  it("offers the usual choices plus the current setting when it is another allowed value", () => {
    expect(reminderChoices(7)).toEqual([...REMINDER_CHOICES]);
    expect(reminderChoices(12)).toEqual([3, 5, 7, 10, 12, 14, 21, 30]);
    expect(reminderChoices(45)).toEqual([...REMINDER_CHOICES]);
    expect(reminderChoices(2.5)).toEqual([...REMINDER_CHOICES]);
    expect(reminderChoices(undefined)).toEqual([...REMINDER_CHOICES]);
  });
});

describe("what the salt forecast rests on", () => {
  it("salt per regeneration and the estimated days between regenerations, whole days, at least one", () => {
    expect(regenerationBasis(3, 9.4)).toEqual({ kg: 3, days: 9 });
    expect(regenerationBasis(3, 15)).toEqual({ kg: 3, days: 15 });
    expect(regenerationBasis(2.5, 0.3)).toEqual({ kg: 2.5, days: 1 });
    expect(regenerationBasis(3, null)).toEqual({ kg: 3, days: null });
    expect(regenerationBasis(3, undefined)).toEqual({ kg: 3, days: null }); // a server before the estimate
    expect(regenerationBasis(null, 9)).toBeNull();
  });

  it('reads "3 kg per regeneration, about every 9 days" in all five languages', async () => {
    const i18n = i18next.createInstance();
    await i18n.init({
      resources: Object.fromEntries(LANGUAGES.map((l) => [l, { translation: LOCALES[l] }])),
      lng: "en",
      interpolation: { escapeValue: false },
    });
    const expected: Record<string, [string, string, string]> = {
      en: [
        "3 kg per regeneration, about every 9 days",
        "3 kg per regeneration, about every 1 day",
        "3 kg per regeneration",
      ],
      "zh-Hans": ["每次再生 3 kg，约每 9 天再生一次", "每次再生 3 kg，约每 1 天再生一次", "每次再生 3 kg"],
      ru: [
        "3 кг на регенерацию, примерно раз в 9 дней",
        "3 кг на регенерацию, примерно раз в 1 день",
        "3 кг на регенерацию",
      ],
      es: [
        "3 kg por regeneración, aprox. cada 9 días",
        "3 kg por regeneración, aprox. cada 1 día",
        "3 kg por regeneración",
      ],
      fr: [
        "3 kg par régénération, intervalle d'environ 9 jours",
        "3 kg par régénération, intervalle d'environ 1 jour",
        "3 kg par régénération",
      ],
    };
    for (const lang of LANGUAGES) {
      const t = i18n.getFixedT(lang);
      expect([
        t("saltGauge.basis", { kg: "3", count: 9 }),
        t("saltGauge.basis", { kg: "3", count: 1 }),
        t("saltGauge.basisNoInterval", { kg: "3" }),
      ]).toEqual(expected[lang]);
    }
    expect(i18n.getFixedT("ru")("saltGauge.basis", { kg: "3", count: 3 })).toBe(
      "3 кг на регенерацию, примерно раз в 3 дня",
    );
  });
});
