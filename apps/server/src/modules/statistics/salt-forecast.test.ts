import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { forecastSalt } from "./salt.ts";

/**
 * The salt forecast and its "salt is low" rule (spec §4 Device: salt level, days left, the low-salt reminder), on
 * hand-made inputs and fast-check properties, expectations worked out by hand from the physics. Pure: no database, so
 * the mutation tests (mutation/modules/statistics.ts) rerun this file for each mutant in a fraction of a second.
 */
describe("salt forecast", () => {
  it("salt forecast math", () => {
    // 50 kg − 4 × 3 kg = 38 kg; 10 × 3 kg / 30 d = 1 kg/day → 38 days.
    expect(
      forecastSalt({
        levelAtRefillKg: 50,
        regenerationsSinceRefill: 4,
        regenerationsLast30Days: 10,
        saltPerRegenerationKg: 3,
      }),
    ).toEqual({ saltLevelKg: 38, dailySaltUseKg: 1, saltDaysLeft: 38, lowSalt: false, regenerationIntervalDays: 3 });
    // 5 kg; 15 × 3 / 30 = 1.5 kg/day → ⌊3.33⌋ = 3 days ≤ 7 → low.
    expect(
      forecastSalt({
        levelAtRefillKg: 5,
        regenerationsSinceRefill: 0,
        regenerationsLast30Days: 15,
        saltPerRegenerationKg: 3,
      }),
    ).toEqual({ saltLevelKg: 5, dailySaltUseKg: 1.5, saltDaysLeft: 3, lowSalt: true, regenerationIntervalDays: 2 });
    // Less than one regeneration's salt is low even without recent use; never below 0.
    expect(
      forecastSalt({
        levelAtRefillKg: 2,
        regenerationsSinceRefill: 3,
        regenerationsLast30Days: 0,
        saltPerRegenerationKg: 3,
      }),
    ).toEqual({ saltLevelKg: 0, dailySaltUseKg: 0, saltDaysLeft: null, lowSalt: true, regenerationIntervalDays: null });
    expect(
      forecastSalt({
        levelAtRefillKg: null,
        regenerationsSinceRefill: 0,
        regenerationsLast30Days: 9,
        saltPerRegenerationKg: 3,
      }),
    ).toMatchObject({ saltLevelKg: null, saltDaysLeft: null, lowSalt: false });
  });

  it("salt forecast: the valve's maximum interval between regenerations caps the days (50 kg, 3 kg, 15 days)", () => {
    // One regeneration in 30 days would say 500 days; the valve regenerates at least every 15 days: 50 ÷ 3 × 15 = 250.
    expect(
      forecastSalt({
        levelAtRefillKg: 50,
        regenerationsSinceRefill: 0,
        regenerationsLast30Days: 1,
        saltPerRegenerationKg: 3,
        maxDaysBetweenRegenerations: 15,
      }),
    ).toEqual({
      saltLevelKg: 50,
      dailySaltUseKg: 0.2,
      saltDaysLeft: 250,
      lowSalt: false,
      regenerationIntervalDays: 15,
    });
    // A brand-new device, no regeneration yet: the maximum interval still gives a forecast.
    expect(
      forecastSalt({
        levelAtRefillKg: 9,
        regenerationsSinceRefill: 0,
        regenerationsLast30Days: 0,
        saltPerRegenerationKg: 3,
        maxDaysBetweenRegenerations: 2,
      }),
    ).toMatchObject({ saltDaysLeft: 6, lowSalt: true });
    // More regenerations than the maximum interval asks for: the observed rate decides (10 in 30 days, 1 kg/day).
    expect(
      forecastSalt({
        levelAtRefillKg: 38,
        regenerationsSinceRefill: 0,
        regenerationsLast30Days: 10,
        saltPerRegenerationKg: 3,
        maxDaysBetweenRegenerations: 15,
      }).saltDaysLeft,
    ).toBe(38);
  });

  it("salt forecast, for any level, salt per regeneration, count and interval: the days the salt's regenerations last", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 5000 }).map((dag) => dag / 10), // level, kg (0.1 kg steps)
        fc.integer({ min: 1, max: 200 }).map((dag) => dag / 10), // salt per regeneration, kg
        fc.integer({ min: 0, max: 60 }), // regenerations in the last 30 days
        fc.option(fc.integer({ min: 1, max: 99 }), { nil: null }), // maximum days between regenerations
        (level, perRegen, last30, maxDays) => {
          const f = forecastSalt({
            levelAtRefillKg: level,
            regenerationsSinceRefill: 0,
            regenerationsLast30Days: last30,
            saltPerRegenerationKg: perRegen,
            maxDaysBetweenRegenerations: maxDays,
          });
          // Independently: the salt feeds level ÷ perRegen regenerations, one every `interval` days, where the
          // interval is what the last 30 days show, shortened to the valve's maximum.
          const observed = last30 > 0 ? 30 / last30 : Number.POSITIVE_INFINITY;
          const interval = Math.min(observed, maxDays ?? Number.POSITIVE_INFINITY);
          if (!Number.isFinite(interval)) {
            expect(f.saltDaysLeft).toBeNull();
            return;
          }
          const expected = (level / perRegen) * interval;
          expect(f.saltDaysLeft).not.toBeNull();
          expect(Math.abs((f.saltDaysLeft as number) - expected)).toBeLessThan(1.000001);
          expect(f.saltDaysLeft as number).toBeLessThanOrEqual(expected + 1e-6);
          if (maxDays !== null)
            expect(f.saltDaysLeft as number).toBeLessThanOrEqual((level / perRegen) * maxDays + 1e-6);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("salt forecast from the physics: 25 L resin, 250 mg/L, 450 L a day → 4 500 L, about every 10 days", () => {
    // 25 × 45 × 1000 ÷ 250 = 4 500 L; 4 500 ÷ 450 = 10 days; 3 kg every 10 days = 0.3 kg/day; 30 kg → 100 days.
    expect(
      forecastSalt({
        levelAtRefillKg: 30,
        regenerationsSinceRefill: 0,
        regenerationsLast30Days: 0,
        saltPerRegenerationKg: 3,
        maxDaysBetweenRegenerations: 15,
        capacityL: 4500,
        dailyUseL: 450,
      }),
    ).toEqual({
      saltLevelKg: 30,
      dailySaltUseKg: 0.3,
      saltDaysLeft: 100,
      lowSalt: false,
      regenerationIntervalDays: 10,
    });
    // The capacity and the use win over a count that says otherwise; the maximum interval still caps (7 days).
    expect(
      forecastSalt({
        levelAtRefillKg: 30,
        regenerationsSinceRefill: 0,
        regenerationsLast30Days: 1,
        saltPerRegenerationKg: 3,
        maxDaysBetweenRegenerations: 7,
        capacityL: 4500,
        dailyUseL: 450,
      }),
    ).toMatchObject({ saltDaysLeft: 70, regenerationIntervalDays: 7 });
  });

  it("salt is low when the days left are at most the reminder, and not one day more", () => {
    // 3 kg a day (one 3 kg regeneration a day: 30 in 30 days); the default reminder is 7 days.
    const days = (levelAtRefillKg: number, reminderDays?: number) =>
      forecastSalt({
        levelAtRefillKg,
        regenerationsSinceRefill: 0,
        regenerationsLast30Days: 30,
        saltPerRegenerationKg: 3,
        reminderDays,
      });
    expect(days(21)).toMatchObject({ saltDaysLeft: 7, lowSalt: true });
    expect(days(24)).toMatchObject({ saltDaysLeft: 8, lowSalt: false });
    expect(days(42, 14)).toMatchObject({ saltDaysLeft: 14, lowSalt: true });
    expect(days(45, 14)).toMatchObject({ saltDaysLeft: 15, lowSalt: false });
    expect(days(21, 6)).toMatchObject({ saltDaysLeft: 7, lowSalt: false });
  });

  it("salt: exactly one regeneration's salt is not low; without a forecast a full tank is not low", () => {
    // 3 kg left, 3 kg per regeneration, one regeneration in 30 days: 30 days left, enough for the next one.
    expect(
      forecastSalt({
        levelAtRefillKg: 3,
        regenerationsSinceRefill: 0,
        regenerationsLast30Days: 1,
        saltPerRegenerationKg: 3,
      }),
    ).toMatchObject({ saltLevelKg: 3, saltDaysLeft: 30, lowSalt: false });
    // No regeneration seen and no maximum interval: no days left to compare with the reminder.
    expect(
      forecastSalt({
        levelAtRefillKg: 50,
        regenerationsSinceRefill: 0,
        regenerationsLast30Days: 0,
        saltPerRegenerationKg: 3,
      }),
    ).toMatchObject({ saltDaysLeft: null, lowSalt: false });
  });

  it("salt forecast: the physics only with a positive capacity and a positive daily use, else the observed count", () => {
    // 10 regenerations in 30 days: every 3 days, whatever the valve's 15-day maximum would say.
    for (const [capacityL, dailyUseL] of [
      [null, 450],
      [0, 450],
      [4500, null],
      [4500, 0],
      [null, 0],
      [0, null],
    ]) {
      expect(
        forecastSalt({
          levelAtRefillKg: 30,
          regenerationsSinceRefill: 0,
          regenerationsLast30Days: 10,
          saltPerRegenerationKg: 3,
          maxDaysBetweenRegenerations: 15,
          capacityL,
          dailyUseL,
        }),
        `capacity ${capacityL}, daily use ${dailyUseL}`,
      ).toMatchObject({ regenerationIntervalDays: 3, saltDaysLeft: 30 });
    }
  });

  it("salt forecast: a maximum interval of 0 days is no limit", () => {
    // One regeneration in 30 days, 3 kg: 0.1 kg a day, 30 kg last 300 days.
    expect(
      forecastSalt({
        levelAtRefillKg: 30,
        regenerationsSinceRefill: 0,
        regenerationsLast30Days: 1,
        saltPerRegenerationKg: 3,
        maxDaysBetweenRegenerations: 0,
      }),
    ).toMatchObject({ regenerationIntervalDays: 30, saltDaysLeft: 300, lowSalt: false });
  });

  it("salt forecast, for any resin, hardness, use, salt and interval: level ÷ salt per regeneration × the interval", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 5000 }).map((dag) => dag / 10), // level, kg
        fc.integer({ min: 1, max: 200 }).map((dag) => dag / 10), // salt per regeneration, kg
        fc.integer({ min: 1, max: 2000 }).map((dl) => dl / 10), // resin volume, L
        fc.integer({ min: 1, max: 1000 }), // raw-water hardness, mg/L as CaCO₃
        fc.integer({ min: 1, max: 50_000 }).map((dl) => dl / 10), // daily use, L
        fc.option(fc.integer({ min: 1, max: 99 }), { nil: null }), // maximum days between regenerations
        fc.integer({ min: 0, max: 60 }), // regenerations in the last 30 days (ignored when the physics is known)
        (level, perRegen, resin, hardness, use, maxDays, last30) => {
          // Independently, in grains and gallons, the way softener dealers size a bed (714water.com "Water Softener
          // Capacity Calculation": capacity in grains ÷ grains removed a day = days between regenerations).
          const GRAIN_MG = 64.79891;
          const GALLON_L = 3.785411784;
          const capacityGrains = (resin * 45_000) / GRAIN_MG;
          const gpg = hardness / (GRAIN_MG / GALLON_L);
          const grainsPerDay = (use / GALLON_L) * gpg;
          const byUse = capacityGrains / grainsPerDay;
          const interval = maxDays === null ? byUse : Math.min(byUse, maxDays);
          const capacityL = (resin * 45 * 1000) / hardness;
          const f = forecastSalt({
            levelAtRefillKg: level,
            regenerationsSinceRefill: 0,
            regenerationsLast30Days: last30,
            saltPerRegenerationKg: perRegen,
            maxDaysBetweenRegenerations: maxDays,
            capacityL,
            dailyUseL: use,
          });
          const expected = (level / perRegen) * interval;
          expect(f.saltDaysLeft).not.toBeNull();
          // Floor of the exact days, allowing for the two routes' rounding.
          expect(f.saltDaysLeft as number).toBeGreaterThanOrEqual(Math.floor(expected * (1 - 1e-9)) - 1);
          expect(f.saltDaysLeft as number).toBeLessThanOrEqual(expected * (1 + 1e-9) + 1e-6);
          expect(Math.abs((f.regenerationIntervalDays as number) - interval)).toBeLessThanOrEqual(0.05 + 1e-9);
          if (maxDays !== null) {
            expect(f.saltDaysLeft as number).toBeLessThanOrEqual((level / perRegen) * maxDays + 1e-6);
          }
        },
      ),
      { numRuns: 2000 },
    );
  });
});
