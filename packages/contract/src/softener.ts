/**
 * The softener's physics that the simulator, the cloud and the app share: how much soft water a resin bed gives
 * between two regenerations, and how often the valve regenerates. One formula, so the simulated valve, the salt
 * forecast and the figures on the screens cannot disagree. Written out with worked examples in docs/device-sim.md §2
 * and §6; the numbers' sources in docs/device-protocol.md §7.6.
 */

/**
 * Operating exchange capacity of a strong-acid cation (sulfonated polystyrene gel) softening resin, g of hardness as
 * CaCO₃ per litre of resin: 20 000 grains per ft³ regenerated with 6 lb of salt per ft³ (96 g NaCl per L of resin),
 * i.e. 20 000 × 64.8 mg ÷ 28.32 L = 45.8 g/L. The same table gives 24 000 gr/ft³ at 8 lb/ft³, 27 000 at 10 and 30 000
 * at 15 (714water.com, "Water Softener Capacity Calculation", https://www.714water.com/en/?catid=20&id=61); new gel
 * resin holds 1.9–2.0 eq/L in total (≈ 95 g CaCO₃/L, docs/device-protocol.md §7.6 [6]). The simulator's default
 * salt dose, 3 kg for 25 L (120 g/L, 7.5 lb/ft³), would give somewhat more; 45 is the conservative round figure.
 */
export const DEFAULT_EXCHANGE_CAPACITY_G_PER_L = 45;

/**
 * Soft water a fully regenerated bed delivers before the next regeneration is due, L:
 *
 *   capacityL = resinVolume [L] × exchange capacity [g CaCO₃ per L resin] × 1000 [mg/g] ÷ rawWaterHardness [mg/L CaCO₃]
 *
 * `rawWaterHardness` is the spec's setting as the valve stores it, mg/L as CaCO₃ (the app shows and accepts °dH, °fH
 * and gpg and converts them: 1 °dH = 17.848, 1 °fH = 10, 1 gpg = 17.118 mg/L CaCO₃, apps/web/src/shared/units/
 * conversions.ts); hardness below 1 mg/L counts as 1. Example: 25 L × 45 g/L × 1000 ÷ 250 mg/L =
 * 4 500 L. Null when either setting is missing or not a positive number. Source of the default exchange capacity:
 * {@link DEFAULT_EXCHANGE_CAPACITY_G_PER_L}.
 */
export function exchangeCapacityL(
  settings: { resinVolume?: unknown; rawWaterHardness?: unknown },
  exchangeCapacityGPerL: number = DEFAULT_EXCHANGE_CAPACITY_G_PER_L,
): number | null {
  const resin = Number(settings.resinVolume);
  const hardness = Number(settings.rawWaterHardness);
  if (settings.resinVolume === undefined || settings.rawWaterHardness === undefined) return null;
  if (!(resin > 0) || !Number.isFinite(resin) || !(hardness > 0) || !Number.isFinite(hardness)) return null;
  return (resin * exchangeCapacityGPerL * 1000) / Math.max(1, hardness);
}

/**
 * Days between two regenerations of a metered valve, in the valve's own days: the bed lasts capacity ÷ daily use days,
 * but the valve regenerates at the latest after `maxDays` (settings maximumRegenerationIntervalDay, 0 or null = no
 * such limit; docs/device-sim.md §4 "all patterns"). So the result is min(capacityL ÷ dailyUseL, maxDays):
 * 4 500 L ÷ 450 L/day = 10 days; with maximumRegenerationIntervalDay 7 it is 7. Without use (dailyUseL null or 0) it
 * is `maxDays`; null when nothing bounds it (no capacity or no use, and no maximum). A delayed valve waits for its
 * trigger time, so the real interval can be up to a day longer; this is the estimate the salt forecast uses.
 */
export function regenerationIntervalDays(input: {
  capacityL: number | null;
  dailyUseL: number | null;
  maxDays: number | null;
}): number | null {
  const max = input.maxDays !== null && input.maxDays > 0 ? input.maxDays : null;
  const { capacityL, dailyUseL } = input;
  const byUse =
    capacityL !== null && capacityL > 0 && dailyUseL !== null && dailyUseL > 0 ? capacityL / dailyUseL : null;
  if (byUse === null) return max;
  return max === null ? byUse : Math.min(byUse, max);
}
