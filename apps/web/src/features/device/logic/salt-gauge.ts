import { SALT_REMINDER_DAYS } from "@aquapilot/contract/wire";

/**
 * How full the brine tank is, for the salt gauge: the level now against the level
 * entered at the last refill (no tank capacity is known), in whole percent 0–100. Null when either is unknown or
 * the refill was 0 kg.
 */
export function saltGaugePercent(
  levelKg: number | null | undefined,
  refillLevelKg: number | null | undefined,
): number | null {
  if (levelKg === null || levelKg === undefined || !refillLevelKg || refillLevelKg <= 0) return null;
  return Math.max(0, Math.min(100, Math.round((levelKg / refillLevelKg) * 100)));
}

/**
 * What the salt forecast rests on, for the salt card's "3 kg per regeneration, about every 9 days": the salt per
 * regeneration (kg, the valve's saltAddition) and the days between regenerations the server estimated (capacity
 * between regenerations ÷ recent daily use, at most maximumRegenerationIntervalDay), rounded to whole days and at
 * least 1; `days` null when the server gave no estimate. Null when the salt per regeneration is unknown.
 */
export function regenerationBasis(
  saltPerRegenerationKg: number | null | undefined,
  regenerationIntervalDays: number | null | undefined,
): { kg: number; days: number | null } | null {
  if (saltPerRegenerationKg === null || saltPerRegenerationKg === undefined || !(saltPerRegenerationKg >= 0)) {
    return null;
  }
  const interval = regenerationIntervalDays;
  const days =
    interval === null || interval === undefined || !Number.isFinite(interval) || interval <= 0
      ? null
      : Math.max(1, Math.round(interval));
  return { kg: saltPerRegenerationKg, days };
}

/** The reminder choices offered (days), within the contract's 1–30. */
export const REMINDER_CHOICES: readonly number[] = [3, 5, 7, 10, 14, 21, 30];

/**
 * The choices of the reminder picker: {@link REMINDER_CHOICES} plus the current setting when it is another allowed
 * value (set elsewhere), ascending.
 */
export function reminderChoices(current: number | null | undefined): number[] {
  const set = new Set(REMINDER_CHOICES);
  if (
    typeof current === "number" &&
    Number.isInteger(current) &&
    current >= SALT_REMINDER_DAYS.min &&
    current <= SALT_REMINDER_DAYS.max
  ) {
    set.add(current);
  }
  return [...set].sort((a, b) => a - b);
}
