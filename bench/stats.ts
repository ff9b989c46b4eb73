/**
 * Small statistics and formatting helpers shared by the benchmarks.
 */

/** Summary of a sample of latencies, in milliseconds. */
export interface LatencySummary {
  count: number;
  p50: number;
  p99: number;
  mean: number;
  max: number;
}

/**
 * Nearest-rank percentile of an ascending-sorted sample (`q` in 0–100).
 * @throws RangeError on an empty sample.
 */
export function percentile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) throw new RangeError("percentile of an empty sample");
  const rank = Math.ceil((q / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

/** p50, p99, mean and max of latencies in ms (the input is not modified). @throws RangeError when empty. */
export function summarise(latenciesMs: readonly number[]): LatencySummary {
  const sorted = [...latenciesMs].sort((a, b) => a - b);
  const sum = sorted.reduce((acc, v) => acc + v, 0);
  return {
    count: sorted.length,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    mean: sum / sorted.length,
    max: sorted[sorted.length - 1],
  };
}

/** Median of an odd or even sample (mean of the two middle values when even). @throws RangeError when empty. */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new RangeError("median of an empty sample");
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** A number with `digits` decimals and thousands separators, e.g. 12 345.6 → "12,345.6". */
export function fmt(n: number, digits = 1): string {
  return n.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** `a ÷ b` formatted as "×1.23", or "n/a" when b is 0. */
export function ratio(a: number, b: number): string {
  return b === 0 ? "n/a" : `×${(a / b).toFixed(2)}`;
}
