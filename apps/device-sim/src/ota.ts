import type { Rng } from "./random.ts";

/** How a firmware update will go: the progress the device reports and whether it ends in the new version. */
export interface OtaPlan {
  /** Version before the update. */
  from: string;
  /** Version the device runs after a successful update. */
  target: string;
  /** Progress reported as "ota-progress" events, percent, in order (0, 10, …; up to 100 on success). */
  progress: number[];
  /** Percent at which the update fails ("ota-failed" event, the version stays `from`), or null on success. */
  failAt: number | null;
}

/**
 * The next firmware version: the last number of `current` plus one ("1.0.9" → "1.0.10"); "1.0.1" when `current`
 * has no trailing number.
 */
export function nextFirmwareVersion(current: string): string {
  return /\d+$/.test(current) ? current.replace(/(\d+)$/, (d) => String(Number(d) + 1)) : "1.0.1";
}

/**
 * Plans a firmware update (spec §4 "firmware update"): progress 0 → 100 % in steps of 10. With probability
 * `failureChance` (0–1; 0 never fails) it fails at a step drawn uniformly from 10–90 %. Draws two numbers from
 * `rng` every time, so a seeded device gives the same outcomes in the same order.
 * @throws RangeError when failureChance is outside 0–1.
 */
export function planOta(current: string, requested: string | null, failureChance: number, rng: Rng): OtaPlan {
  if (!(failureChance >= 0 && failureChance <= 1)) throw new RangeError("otaFailureChance must be within 0–1");
  const fails = rng.next() < failureChance;
  const failStep = 1 + Math.floor(rng.next() * 9); // 1–9 → 10–90 %
  const failAt = fails ? failStep * 10 : null;
  const last = failAt ?? 100;
  const progress: number[] = [];
  for (let p = 0; p <= last; p += 10) progress.push(p);
  return { from: current, target: requested ?? nextFirmwareVersion(current), progress, failAt };
}
