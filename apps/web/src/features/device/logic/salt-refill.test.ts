import { describe, expect, it } from "vitest";
import { DEFAULT_REFILL_KG, defaultRefillKg, parseRefillKg } from "./salt-refill.ts";

describe("defaultRefillKg", () => {
  it("offers the tank size when known", () => {
    expect(defaultRefillKg(50)).toBe(50);
    expect(defaultRefillKg(5000)).toBe(1000);
  });
  it("falls back to 25 kg", () => {
    expect(DEFAULT_REFILL_KG).toBe(25);
    for (const v of [undefined, null, 0, -3, Number.NaN]) expect(defaultRefillKg(v)).toBe(25);
  });
});

describe("parseRefillKg", () => {
  it("reads decimals with a point or a comma", () => {
    expect(parseRefillKg("25")).toBe(25);
    expect(parseRefillKg(" 12.5 ")).toBe(12.5);
    expect(parseRefillKg("12,5")).toBe(12.5);
    expect(parseRefillKg("0")).toBe(0);
    expect(parseRefillKg("1000")).toBe(1000);
    expect(parseRefillKg("3.14159")).toBe(3.1);
  });
  it("refuses empty, negative, non-numeric and too large values", () => {
    for (const v of ["", " ", "-1", "abc", "12kg", "1e3", "1000.1", "1.2.3"]) expect(parseRefillKg(v)).toBeNull();
  });
});
