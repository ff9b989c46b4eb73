import { numberFormat } from "./intl.ts";
/**
 * A progress percent as the interface language writes it, with exactly one decimal (spec §9 "Progress percent with
 * one decimal"): 42.25 → en "42.3%", fr "42,3 %", zh-Hans "42.3%". Clamped to 0–100; null, undefined or NaN → 0.
 * `lang` is an interface language (zh-Hans is formatted as zh-CN).
 */
export function formatPercent(value: number | null | undefined, lang: string): string {
  const v = value === null || value === undefined || !Number.isFinite(value) ? 0 : value;
  const clamped = Math.min(100, Math.max(0, Math.round(v * 10) / 10));
  return numberFormat(lang === "zh-Hans" ? "zh-CN" : lang, {
    style: "percent",
    minimumFractionDigits: 1,
    maximumFractionDigits: 1,
  }).format(clamped / 100);
}
