import { SALT_REMINDER_DAYS } from "@aquapilot/contract/wire";

/**
 * How full the brine tank is, for the salt gauge (issue 10 "Salt an owner can trust"): the level now against the level
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
