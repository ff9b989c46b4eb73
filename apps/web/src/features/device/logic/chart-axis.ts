import { dateTimeFormat, numberFormat } from "../../../shared/format/intl.ts";
import { decimalsOf } from "../../../shared/units/conversions.ts";

/**
 * The figure of a statistics bucket one chart draws: water used (in the owner's volume unit, L or gal), regenerations
 * started (a count) or salt used (kg).
 */
export type ChartMetric = "waterL" | "regenerations" | "saltKg";

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

/**
 * How a statistics chart labels its buckets: hour and minute for hourly buckets (the day view; en "02:00 PM", fr
 * "14:00"), month and day for daily ones (week and month views; en "5/4", fr "04/05"), in the phone's time zone.
 * The chart's time axis and its table both label with it, so the table reads as the axis does.
 * @param locale the interface language's Intl locale (e.g. "zh-CN", "en").
 * @param hourly true for hourly buckets.
 * @returns a cached formatter; format `new Date(bucketStart)`.
 */
export function bucketLabelFormat(locale: string, hourly: boolean): Intl.DateTimeFormat {
  return dateTimeFormat(locale, hourly ? { hour: "2-digit", minute: "2-digit" } : { month: "numeric", day: "numeric" });
}

/**
 * The gridline labels of a statistics chart's value axis: numbers in the interface language with as many decimals
 * as the axis step has (step 0.25 → "0.25", fr "0,25"; step 25 → "25"), so no two gridlines read the same.
 * @param locale the interface language's Intl locale.
 * @param step the distance between gridlines ({@link valueAxis}).
 */
export function axisLabelFormat(locale: string, step: number): Intl.NumberFormat {
  return numberFormat(locale, { maximumFractionDigits: decimalsOf(step) });
}

/**
 * One bar's value as text in the interface language, without its unit (the chart's title and the table's column
 * header carry it): water as volumes read elsewhere in the app (whole units from 100 up, one decimal below: "312",
 * "12.4"), salt in kg to two decimals (a regeneration draws well under a kilogram, so "0.45" rather than "0.5"),
 * regenerations as whole numbers.
 * @param value the bucket's figure in the chart's unit (owner's volume unit, kg or a count).
 * @param metric which figure it is.
 * @param locale the interface language's Intl locale.
 */
export function barValueText(value: number, metric: ChartMetric, locale: string): string {
  const digits = metric === "regenerations" ? 0 : metric === "saltKg" ? 2 : Math.abs(value) >= 100 ? 0 : 1;
  return numberFormat(locale, { maximumFractionDigits: digits }).format(value);
}
