import { describe, expect, it } from "vitest";
import { REMINDER_CHOICES, reminderChoices, saltGaugePercent } from "./salt-gauge.ts";

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
