import { describe, expect, it } from "vitest";
import { exchangeCapacityL, regenerationIntervalDays } from "./softener.ts";

describe("the softener's shared physics", () => {
  it("capacity = resin volume × exchange capacity × 1000 ÷ hardness (mg/L as CaCO₃)", () => {
    expect(exchangeCapacityL({ resinVolume: 25, rawWaterHardness: 250 })).toBe(4500);
    // 30 L at 15 °dH (15 × 17.848 mg/L): the app stores mg/L, the formula reads mg/L.
    expect(exchangeCapacityL({ resinVolume: 30, rawWaterHardness: 15 * 17.848 })).toBeCloseTo(5042.58, 2);
    expect(exchangeCapacityL({ resinVolume: "10", rawWaterHardness: "300" }, 30)).toBe(1000); // as a device reports them
    expect(exchangeCapacityL({ resinVolume: 25 })).toBeNull();
    expect(exchangeCapacityL({ resinVolume: 0, rawWaterHardness: 250 })).toBeNull();
    expect(exchangeCapacityL({ resinVolume: 25, rawWaterHardness: "hard" })).toBeNull();
  });

  it("days between regenerations = capacity ÷ daily use, at most the maximum interval", () => {
    expect(regenerationIntervalDays({ capacityL: 4500, dailyUseL: 450, maxDays: 15 })).toBe(10);
    expect(regenerationIntervalDays({ capacityL: 4500, dailyUseL: 450, maxDays: 7 })).toBe(7);
    expect(regenerationIntervalDays({ capacityL: 4500, dailyUseL: 450, maxDays: 0 })).toBe(10); // 0 = no maximum
    expect(regenerationIntervalDays({ capacityL: 4500, dailyUseL: 0, maxDays: 15 })).toBe(15);
    expect(regenerationIntervalDays({ capacityL: null, dailyUseL: 450, maxDays: null })).toBeNull();
  });
});
