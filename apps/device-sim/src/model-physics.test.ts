/**
 * The valve model against a second, independent computation (docs/device-sim.md §2, §6): for random resin volumes,
 * hardnesses, exchange capacities, salt doses and sequences of draws and forced regenerations, the model's capacity,
 * water left, regeneration count and salt used equal what this file computes by itself — the capacity in grains and
 * gallons the way softener dealers size a bed, the water left as a running balance of the litres drawn in service.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SoftenerModel } from "./model.ts";

const GRAIN_MG = 64.79891;
const GALLON_L = 3.785411784;

/** Capacity between regenerations, L, in grains and gallons: grains the bed holds ÷ grains per gallon of the water. */
function capacityByGrains(resinL: number, gramsPerL: number, hardnessMgL: number): number {
  const grains = (resinL * gramsPerL * 1000) / GRAIN_MG;
  const grainsPerGallon = hardnessMgL / (GRAIN_MG / GALLON_L);
  return (grains / grainsPerGallon) * GALLON_L;
}

type Action =
  | { kind: "draw"; flowLpm: number; seconds: number }
  | { kind: "regenerate"; drawDuringLpm: number }
  | { kind: "wait"; seconds: number };

const action: fc.Arbitrary<Action> = fc.oneof(
  fc.record({
    kind: fc.constant("draw" as const),
    flowLpm: fc.integer({ min: 1, max: 200 }).map((d) => d / 10),
    seconds: fc.integer({ min: 1, max: 1800 }),
  }),
  fc.record({
    kind: fc.constant("regenerate" as const),
    drawDuringLpm: fc.integer({ min: 0, max: 120 }).map((d) => d / 10),
  }),
  fc.record({ kind: fc.constant("wait" as const), seconds: fc.integer({ min: 1, max: 600 }) }),
);

describe("the valve model against an independent computation", () => {
  it("capacity, water left, regenerations and salt for any bed, water and sequence of draws and regenerations", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 200 }).map((d) => d / 2), // resinVolume, L (0.5–100)
        fc.integer({ min: 1, max: 1000 }), // rawWaterHardness, mg/L as CaCO₃
        fc.integer({ min: 20, max: 90 }), // exchange capacity, g CaCO₃ per L resin
        fc.integer({ min: 0, max: 100 }).map((d) => d / 10), // saltAddition, kg
        fc.constantFrom(0, 3), // delayed downflow or upflow: only forced regenerations within the day tested
        fc.array(action, { minLength: 1, maxLength: 12 }),
        (resinVolume, rawWaterHardness, gramsPerL, saltAddition, workPattern, actions) => {
          const settings = {
            resinVolume,
            rawWaterHardness,
            saltAddition,
            workPattern,
            maximumRegenerationIntervalDay: 0, // no day override within the test
            flowRateOff: 0, // no closes: every draw is metered
            continuousWaterTime: 0,
            backWashTime: 10,
            absorbSaltSlowWashTime: 60,
            saltTankRefillTime: 6,
            washTime: 10,
          };
          const m = new SoftenerModel({
            settings,
            exchangeCapacityGPerL: gramsPerL,
            family: { persons: 0 }, // only the draws of the test
            startTime: Date.parse("2026-03-02T10:00:00Z"), // the actions end long before the 02:00 trigger time
          });
          const capacity = capacityByGrains(resinVolume, gramsPerL, rawWaterHardness);
          expect(Math.abs(m.capacityL - capacity)).toBeLessThanOrEqual(capacity * 1e-12);
          const cycleSeconds = (10 + 60 + 6 + 10) * 60;
          let left = capacity;
          let regenerations = 0;
          let salt = 0;
          let metered = 0;
          for (const a of actions) {
            if (a.kind === "draw") {
              m.injectDraw(a.flowLpm, a.seconds);
              m.tick(a.seconds);
              const litres = (a.flowLpm * a.seconds) / 60;
              metered += litres;
              left = Math.max(0, left - litres);
            } else if (a.kind === "wait") {
              m.tick(a.seconds);
            } else {
              m.startRegeneration();
              // The house draws raw water through the bypass meanwhile: metered, not taken from the bed.
              const drawSeconds = Math.floor(cycleSeconds / 2);
              if (a.drawDuringLpm > 0) m.injectDraw(a.drawDuringLpm, drawSeconds);
              const events = m.tick(cycleSeconds);
              metered += (a.drawDuringLpm * (a.drawDuringLpm > 0 ? drawSeconds : 0)) / 60;
              const end = events.find((e) => e.type === "regeneration-end");
              expect(end).toMatchObject({ completed: true, saltKg: saltAddition });
              regenerations += 1;
              salt += saltAddition;
              left = capacity; // a completed regeneration restores the whole bed
            }
            const s = m.snapshot();
            expect(s.station).toBe(0);
            expect(Math.abs(s.remainingWaterL - left)).toBeLessThanOrEqual(1e-6 * Math.max(1, capacity));
            expect(s.remainingWaterL).toBeLessThanOrEqual(s.capacityL + 1e-9);
            expect(s.regenerationCount).toBe(regenerations);
            expect(Math.abs(s.saltUsedKg - salt)).toBeLessThanOrEqual(1e-9);
            expect(Math.abs(s.totalWaterL - metered)).toBeLessThanOrEqual(1e-6 * Math.max(1, metered));
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it("a completed regeneration always returns the water left to the capacity, whatever was left before", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 10, max: 60 }), // resinVolume, L
        fc.integer({ min: 50, max: 500 }), // rawWaterHardness, mg/L
        fc.double({ min: 0, max: 1, noNaN: true }), // share of the bed already used
        (resinVolume, rawWaterHardness, used) => {
          const capacity = capacityByGrains(resinVolume, 45, rawWaterHardness);
          const m = new SoftenerModel({
            settings: { resinVolume, rawWaterHardness, maximumRegenerationIntervalDay: 0 },
            family: { persons: 0 },
            remainingWaterL: capacity * (1 - used),
            startTime: Date.parse("2026-03-02T10:00:00Z"),
          });
          m.startRegeneration();
          const events = m.tick(86 * 60);
          expect(events.some((e) => e.type === "regeneration-end" && e.completed)).toBe(true);
          expect(Math.abs(m.snapshot().remainingWaterL - capacity)).toBeLessThanOrEqual(capacity * 1e-12);
        },
      ),
      { numRuns: 200 },
    );
  });
});
