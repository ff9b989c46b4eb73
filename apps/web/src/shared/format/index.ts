import { dateTimeFormat, numberFormat, relativeTimeFormat } from "./intl.ts";
/** Intl locale for one of the app's languages (zh-Hans → zh-CN formatting). */
export function intlLocale(lang: string): string {
  return lang === "zh-Hans" ? "zh-CN" : lang;
}

const DAY_MS = 86_400_000;

/**
 * A number for the dashboard in the language's conventions (Intl grouping and decimal mark): at most
 * `maxFractionDigits` decimals (trailing zeros dropped). The unit is added by the translation ("{{value}} L",
 * "{{value}} kg"), with a space, in each language.
 */
export function formatNumber(value: number, lang: string, maxFractionDigits = 0): string {
  return numberFormat(intlLocale(lang), { maximumFractionDigits: maxFractionDigits }).format(value);
}

/** Kilograms for the dashboard, one decimal at most. */
export function formatKg(kg: number, lang: string): string {
  return formatNumber(kg, lang, 1);
}

/**
 * Days since 1970 of the calendar date `date` shows in `timeZone` (the phone's when undefined). The phone's own zone
 * needs no formatter (Date's local fields; an `en-US` date formatter built for this slowed Home's first
 * render); another zone is read through `Intl.DateTimeFormat`.
 */
function calendarDay(date: Date, timeZone?: string): number {
  if (timeZone === undefined) return Math.round(Date.UTC(date.getFullYear(), date.getMonth(), date.getDate()) / DAY_MS);
  const parts = dateTimeFormat("en-US", {
    timeZone,
    year: "numeric",
    month: "numeric",
    day: "numeric",
  }).formatToParts(date);
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return Math.round(Date.UTC(part("year"), part("month") - 1, part("day")) / DAY_MS);
}

/**
 * A moment for the dashboard, in the phone's local time (one clock for the owner: `iso` is a real UTC instant from the
 * server, never a device clock), in `lang`: the time alone when `timeOnlyToday` and it is today; otherwise
 * "today", "tomorrow" or "yesterday" (Intl.RelativeTimeFormat) before the time, the short weekday within a week, else
 * the day and month. `timeZone` overrides the phone's zone (tests). Answers null for a missing or unreadable time.
 */
export function formatMoment(
  iso: string | null | undefined,
  lang: string,
  opts: { now?: Date; timeZone?: string; timeOnlyToday?: boolean } = {},
): string | null {
  if (!iso) return null;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return null;
  const locale = intlLocale(lang);
  const { timeZone } = opts;
  const time = dateTimeFormat(locale, { timeZone, hour: "2-digit", minute: "2-digit" }).format(date);
  const diff = calendarDay(date, timeZone) - calendarDay(opts.now ?? new Date(), timeZone);
  if (diff === 0 && opts.timeOnlyToday) return time;
  let day: string;
  if (Math.abs(diff) <= 1) {
    day = relativeTimeFormat(locale, { numeric: "auto" }).format(diff, "day");
  } else if (Math.abs(diff) < 7) {
    day = dateTimeFormat(locale, { timeZone, weekday: "short" }).format(date);
  } else {
    day = dateTimeFormat(locale, { timeZone, day: "numeric", month: "short" }).format(date);
  }
  return `${day} ${time}`;
}

/**
 * The formatters Home's first screen uses in `lang`, built ahead, one per call of the returned functions (because
 * building an `Intl` formatter is the costly part — on this project's test machine the first few of a page took
 * 70 ms in the task that rendered the device cards). Each function formats a sample with the same helpers and
 * options the screen uses (numbers with 0 and 1 decimal: volumes, dashboard figures, salt in kg; a time today and a
 * moment tomorrow: "last seen", next regeneration), so the screen finds them in the cache (shared/format/intl.ts).
 * `now` is the sample moment (tests). Meant to be run one per task while Home's calls are in flight.
 */
export function homeFormatWarmers(lang: string, now: Date = new Date()): Array<() => void> {
  const today = now.toISOString();
  const tomorrow = new Date(now.getTime() + DAY_MS).toISOString();
  return [
    () => formatNumber(0, lang, 0),
    () => formatNumber(0, lang, 1),
    () => formatMoment(today, lang, { now, timeOnlyToday: true }),
    () => formatMoment(tomorrow, lang, { now }),
  ];
}
