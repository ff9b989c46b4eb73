import type { HardnessUnit, VolumeUnit } from "@aquapilot/contract/wire";

/**
 * Pure unit conversions for the display units each owner chooses. Devices always speak litres, L/min and
 * mg/L as CaCO₃ (docs/device-protocol.md §9); the app converts on the way out to the screen and back on the way in.
 */

/** Litres in one US gallon (exact, by definition: 231 in³). */
export const LITRES_PER_US_GALLON = 3.785411784;

/** mg/L as CaCO₃ in one unit of each hardness unit: °dH 17.848, °fH 10, gpg (grains per US gallon) 17.118. */
export const MG_L_PER_HARDNESS_UNIT: Record<HardnessUnit, number> = {
  mgL: 1,
  dH: 17.848,
  fH: 10,
  gpg: 17.118,
};

/** Litres in one unit of each volume unit. */
export const LITRES_PER_VOLUME_UNIT: Record<VolumeUnit, number> = {
  L: 1,
  gal: LITRES_PER_US_GALLON,
};

/** Litres (or L/min) → the owner's volume unit (or that unit per minute). Example: 37.85411784 L → 10 gal. */
export function fromLitres(litres: number, unit: VolumeUnit): number {
  return litres / LITRES_PER_VOLUME_UNIT[unit];
}

/** The owner's volume unit (or that unit per minute) → litres (or L/min). Example: 10 gal → 37.85411784 L. */
export function toLitres(value: number, unit: VolumeUnit): number {
  return value * LITRES_PER_VOLUME_UNIT[unit];
}

/** mg/L as CaCO₃ → the owner's hardness unit. Example: 178.48 mg/L → 10 °dH; 250 mg/L → 25 °fH. */
export function fromMgL(mgL: number, unit: HardnessUnit): number {
  return mgL / MG_L_PER_HARDNESS_UNIT[unit];
}

/** The owner's hardness unit → mg/L as CaCO₃. Example: 10 gpg → 171.18 mg/L. */
export function toMgL(value: number, unit: HardnessUnit): number {
  return value * MG_L_PER_HARDNESS_UNIT[unit];
}

/**
 * Rounds to `decimals` places without binary noise (1.005 → 1.01 with 2; -0 → 0).
 * @param decimals 0–6.
 */
export function roundTo(value: number, decimals: number): number {
  const f = 10 ** decimals;
  const rounded = Math.round((value + Number.EPSILON * Math.sign(value)) * f) / f;
  return rounded === 0 ? 0 : rounded;
}

/**
 * Rounds to the nearest multiple of `step` (a device's resolution, e.g. 0.5 L or 1 mg/L); no step → unchanged.
 * The result carries no more decimals than the step has (0.1 + 0.2 → 0.3 with step 0.1).
 */
export function roundToStep(value: number, step: number | null | undefined): number {
  if (!step || step <= 0) return value;
  return roundTo(Math.round(value / step) * step, decimalsOf(step));
}

/** Decimal places of a number as written (0.5 → 1, 0.25 → 2, 1 → 0, 1e-7 → 6 at most). */
export function decimalsOf(n: number): number {
  if (!Number.isFinite(n) || Number.isInteger(n)) return 0;
  for (let d = 1; d < 6; d++) if (Math.abs(roundTo(n, d) - n) < 1e-9) return d;
  return 6;
}

/**
 * How many decimals a converted value needs so that one unit of the last place is about the device's resolution:
 * `step` in device units times `factor` (display units per device unit), rounded, between 0 and 2.
 * Examples: 1 mg/L in °dH (factor 1/17.848) → 1 decimal; 0.5 L in gal → 1; 1 L/min in gal/min → 1; 1 mg/L in mg/L → 0.
 */
export function displayDecimals(step: number, factor: number): number {
  if (factor === 1) return decimalsOf(step);
  const size = step * factor;
  if (!(size > 0)) return 1;
  return Math.max(0, Math.min(2, Math.round(-Math.log10(size))));
}
