import { describe, expect, it } from "vitest";
import {
  decimalsOf,
  displayDecimals,
  fromLitres,
  fromMgL,
  LITRES_PER_US_GALLON,
  MG_L_PER_HARDNESS_UNIT,
  roundTo,
  roundToStep,
  toLitres,
  toMgL,
} from "./conversions.ts";

describe("volume conversions (1 US gal = 3.785411784 L)", () => {
  it("converts litres to US gallons and back", () => {
    expect(LITRES_PER_US_GALLON).toBe(3.785411784);
    expect(fromLitres(3.785411784, "gal")).toBeCloseTo(1, 12);
    expect(fromLitres(100, "gal")).toBeCloseTo(26.417205, 6);
    expect(toLitres(10, "gal")).toBeCloseTo(37.85411784, 10);
    expect(toLitres(fromLitres(1234.5, "gal"), "gal")).toBeCloseTo(1234.5, 9);
  });
  it("leaves litres as they are", () => {
    expect(fromLitres(25, "L")).toBe(25);
    expect(toLitres(25, "L")).toBe(25);
  });
});

describe("hardness conversions (°dH 17.848, °fH 10, gpg 17.118 mg/L CaCO₃)", () => {
  it("has the agreed factors", () => {
    expect(MG_L_PER_HARDNESS_UNIT).toEqual({ mgL: 1, dH: 17.848, fH: 10, gpg: 17.118 });
  });
  it("converts mg/L CaCO₃ to each unit and back", () => {
    expect(fromMgL(178.48, "dH")).toBeCloseTo(10, 10);
    expect(fromMgL(250, "fH")).toBe(25);
    expect(fromMgL(171.18, "gpg")).toBeCloseTo(10, 10);
    expect(fromMgL(250, "mgL")).toBe(250);
    expect(toMgL(14, "dH")).toBeCloseTo(249.872, 9);
    expect(toMgL(3, "fH")).toBe(30);
    expect(toMgL(146, "gpg")).toBeCloseTo(2499.228, 9);
    for (const unit of ["mgL", "dH", "fH", "gpg"] as const) expect(toMgL(fromMgL(321, unit), unit)).toBeCloseTo(321, 9);
  });
});

describe("rounding", () => {
  it("rounds to decimals without binary noise", () => {
    expect(roundTo(1.005, 2)).toBe(1.01);
    expect(roundTo(14.0069, 1)).toBe(14);
    expect(roundTo(-0.04, 1)).toBe(0);
    expect(Object.is(roundTo(-0.04, 1), -0)).toBe(false);
  });
  it("rounds to the device's step", () => {
    expect(roundToStep(249.872, 1)).toBe(250);
    expect(roundToStep(26.6, 0.5)).toBe(26.5);
    expect(roundToStep(26.8, 0.5)).toBe(27);
    expect(roundToStep(0.1 + 0.2, 0.1)).toBe(0.3);
    expect(roundToStep(2.71, null)).toBe(2.71);
  });
  it("counts a step's decimals", () => {
    expect(decimalsOf(1)).toBe(0);
    expect(decimalsOf(0.5)).toBe(1);
    expect(decimalsOf(0.25)).toBe(2);
  });
  it("picks about the device's resolution for a converted value", () => {
    expect(displayDecimals(1, 1 / 17.848)).toBe(1); // mg/L → °dH
    expect(displayDecimals(1, 1 / 10)).toBe(1); // mg/L → °fH
    expect(displayDecimals(1, 1 / 17.118)).toBe(1); // mg/L → gpg
    expect(displayDecimals(0.5, 1 / 3.785411784)).toBe(1); // 0.5 L → gal
    expect(displayDecimals(1, 1)).toBe(0);
    expect(displayDecimals(0.5, 1)).toBe(1);
    expect(displayDecimals(0.0001, 1 / 3.785)).toBe(2);
    expect(displayDecimals(1000, 1 / 3.785)).toBe(0);
  });
});
