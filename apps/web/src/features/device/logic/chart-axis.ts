/** The most intervals between gridlines on a statistics chart's value axis (the chart is about 150 px high). */
export const MAX_AXIS_INTERVALS = 5;

/** Round steps between gridlines, per power of ten. */
const NICE_STEPS = [1, 2, 2.5, 5] as const;

/**
 * The value axis of a statistics bar chart: from 0 to `top` in equal `step`s, where the step is a round number
 * (1, 2, 2.5 or 5 × a power of ten; whole numbers only for counts such as regenerations) and `top` is the first
 * multiple of the step at or above the largest value, with at most {@link MAX_AXIS_INTERVALS} intervals. So every
 * bar stands under the top gridline and the labels are round. Values below 0 count as 0; an empty or all-zero
 * series gets 0 to 1 (0 to 1 with step 1 for counts).
 * @param max the largest value drawn (litres, kg or a count).
 * @param counts true for whole-number series: steps of at least 1, never 0.5.
 * @returns `top`, `step` and the gridline values `ticks` (0, step, …, top).
 */
export function valueAxis(max: number, counts: boolean): { top: number; step: number; ticks: number[] } {
  const highest = Number.isFinite(max) && max > 0 ? max : 0;
  if (highest === 0)
    return counts ? { top: 1, step: 1, ticks: [0, 1] } : { top: 1, step: 0.25, ticks: [0, 0.25, 0.5, 0.75, 1] };
  // Below a millionth the chart shows nothing an owner can read: such a value counts as a millionth.
  const rough = Math.max(highest, 1e-6) / MAX_AXIS_INTERVALS;
  let step = 0;
  for (let exponent = Math.floor(Math.log10(rough)); step === 0; exponent++) {
    const found = NICE_STEPS.map((n) => n * 10 ** exponent).find(
      (s) => s >= rough * (1 - 1e-12) && (!counts || Number.isInteger(s)),
    );
    if (found !== undefined) step = found;
  }
  // Rounded to the step's own decimals, so 0.1 × 3 is 0.3 and not 0.30000000000000004.
  const decimals = Math.max(0, -Math.floor(Math.log10(step)) + 2);
  const round = (v: number) => Number(v.toFixed(decimals));
  const intervals = Math.max(1, Math.ceil(highest / step - 1e-9));
  const ticks = Array.from({ length: intervals + 1 }, (_, i) => round(i * step));
  return { top: ticks[ticks.length - 1] as number, step, ticks };
}
