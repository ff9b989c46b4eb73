import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { axisLabelFormat, barValueText, bucketLabelFormat, MAX_AXIS_INTERVALS, valueAxis } from "./chart-axis.ts";

describe("valueAxis: a statistics chart's value axis covers the tallest bar with round gridlines", () => {
  it("the cases owners saw: a 110 L day, a single regeneration", () => {
    expect(valueAxis(110, false)).toEqual({ top: 125, step: 25, ticks: [0, 25, 50, 75, 100, 125] });
    expect(valueAxis(100, false).top).toBe(100);
    expect(valueAxis(1, true)).toEqual({ top: 1, step: 1, ticks: [0, 1] });
    expect(valueAxis(7, true)).toEqual({ top: 8, step: 2, ticks: [0, 2, 4, 6, 8] });
    expect(valueAxis(0.3, false)).toEqual({ top: 0.3, step: 0.1, ticks: [0, 0.1, 0.2, 0.3] });
    expect(valueAxis(0, true).ticks).toEqual([0, 1]);
    expect(valueAxis(Number.NaN, false).top).toBe(1);
  });

  it("for any largest value: covers it, at most five equal round intervals from 0, whole steps for counts", () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1e7, noNaN: true }), fc.boolean(), (max, counts) => {
        const { top, step, ticks } = valueAxis(max, counts);
        expect(top).toBeGreaterThanOrEqual(max);
        expect(ticks[0]).toBe(0);
        expect(ticks.at(-1)).toBe(top);
        expect(ticks.length - 1).toBeLessThanOrEqual(MAX_AXIS_INTERVALS);
        expect(ticks.length).toBeGreaterThanOrEqual(2);
        // Equal intervals of `step`, and the step is 1, 2, 2.5 or 5 times a power of ten.
        for (let i = 1; i < ticks.length; i++)
          expect((ticks[i] as number) - (ticks[i - 1] as number)).toBeCloseTo(step, 6);
        const mantissa = step / 10 ** Math.floor(Math.log10(step));
        expect([1, 2, 2.5, 5].some((n) => Math.abs(mantissa - n) < 1e-9)).toBe(true);
        // Not wastefully tall: one interval less would no longer cover the value (unless the axis is the minimum).
        if (max > 0 && ticks.length > 2) expect(top - step).toBeLessThan(max);
        if (counts) expect(ticks.every(Number.isInteger)).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });
});

describe("a statistics chart's labels, shared by its axes and its table", () => {
  it("writes each bar's value in the interface language: volumes as elsewhere, salt to 0.01 kg, whole counts", () => {
    expect(barValueText(1234.5, "waterL", "en")).toBe("1,235");
    expect(barValueText(12.44, "waterL", "en")).toBe("12.4");
    expect(barValueText(12.44, "waterL", "fr")).toBe("12,4");
    expect(barValueText(0.456, "saltKg", "ru")).toBe("0,46");
    expect(barValueText(2, "regenerations", "zh-CN")).toBe("2");
  });

  it("labels gridlines with the step's decimals and buckets by date or hour", () => {
    expect(axisLabelFormat("fr", 0.25).format(0.75)).toBe("0,75");
    expect(axisLabelFormat("en", 25).format(125)).toBe("125");
    expect(bucketLabelFormat("en", false).format(new Date(2026, 4, 4))).toBe("5/4");
    expect(bucketLabelFormat("fr", true).format(new Date(2026, 4, 4, 14))).toBe("14:00");
  });
});
