/**
 * The owner's "Salt refilled" action: the level typed in the dialog, kg, sent to
 * `reset-salt-level` (contract: 0 ≤ levelKg ≤ 1000).
 */

/** The level offered when the brine tank's size is not known, kg. */
export const DEFAULT_REFILL_KG = 25;
/** The largest level reset-salt-level accepts, kg. */
export const MAX_REFILL_KG = 1000;

/** The dialog's default level, kg: the tank size when known (a positive number), else {@link DEFAULT_REFILL_KG}. */
export function defaultRefillKg(tankSizeKg?: number | null): number {
  return typeof tankSizeKg === "number" && Number.isFinite(tankSizeKg) && tankSizeKg > 0
    ? Math.min(tankSizeKg, MAX_REFILL_KG)
    : DEFAULT_REFILL_KG;
}

/**
 * Reads the level typed in the dialog, kg: a decimal number with "." or "," (surrounding spaces ignored), from 0
 * to {@link MAX_REFILL_KG}, rounded to 0.1 kg. Returns null for empty, non-numeric or out-of-range text.
 */
export function parseRefillKg(text: string): number | null {
  const raw = text.trim().replace(",", ".");
  if (!/^\d+(\.\d*)?$|^\.\d+$/.test(raw)) return null;
  const kg = Number(raw);
  if (!Number.isFinite(kg) || kg < 0 || kg > MAX_REFILL_KG) return null;
  return Math.round(kg * 10) / 10;
}
