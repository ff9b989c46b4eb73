import { listFormat, numberFormat } from "./intl.ts";
/**
 * The duration helper of spec §9: "returns days:hours:minutes or semantic text; nothing for the empty date
 * 0001-01-01". One format for every duration an owner reads, so a span reads the same on every screen.
 */

/** The empty date of the service (.NET DateTime.MinValue): a time that was never set. */
export const EMPTY_DATE_PREFIX = "0001-01-01";

/**
 * How a duration reads:
 * - `text` (semantic): the non-zero parts from days down to seconds, days as words with their plural and the rest as
 *   the language's unit symbols, e.g. en "1 day 2 h 5 min", "10 min 30 s", fr "1 h 5 min 30 s", ru "2 дня 3 ч",
 *   zh "1小时5分钟30秒"; seconds only below one day; zero → "0 min";
 * - `clock`: days:hours:minutes "D:HH:MM", e.g. "0:01:05" (seconds rounded into minutes).
 */
export type DurationStyle = "text" | "clock";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * Unit symbols that differ from Intl's short ones (docs/glossary.md "Units"): English writes "h" and "s" where Intl
 * writes "hr" and "sec".
 */
const SYMBOLS: Record<string, Partial<Record<"day" | "hour" | "minute" | "second", string>>> = {
  en: { hour: "h", second: "s" },
};

/** The language part of a tag ("en-US" → "en"). */
function baseLanguage(lang: string): string {
  return lang.split("-")[0].toLowerCase();
}

/** Intl locale of an app language (zh-Hans → zh-CN conventions). */
function intlLocale(lang: string): string {
  return lang === "zh-Hans" ? "zh-CN" : lang;
}

/**
 * A duration as text (spec §9).
 * @param ms length in milliseconds; negative lengths read as their absolute value; NaN/∞ → "".
 * @param lang one of the app's languages (spec §1) or any BCP 47 tag.
 * @param style "text" (default) or "clock", see {@link DurationStyle}.
 * Examples (en): 630 000 → "10 min 30 s"; 5 400 000 → "1 h 30 min"; 93 784 000 → "1 day 2 h 3 min";
 * clock 93 784 000 → "1:02:03".
 */
export function formatDuration(ms: number, lang: string, style: DurationStyle = "text"): string {
  if (!Number.isFinite(ms)) return "";
  const abs = Math.abs(ms);
  if (style === "clock") {
    const minutes = Math.round(abs / MINUTE);
    const d = Math.floor(minutes / 1440);
    const h = Math.floor((minutes % 1440) / 60);
    const m = minutes % 60;
    return `${d}:${String(h).padStart(2, "0")}:${String(m).padStart(2, "0")}`;
  }
  const locale = intlLocale(lang);
  const unit = (name: "day" | "hour" | "minute" | "second", n: number) => {
    // Days as words with the language's plural ("2 дня", never "2 дн."), the rest as symbols (docs/glossary.md).
    const parts = numberFormat(locale, {
      style: "unit",
      unit: name,
      unitDisplay: name === "day" ? "long" : "short",
    }).formatToParts(n);
    const symbol = SYMBOLS[baseLanguage(lang)]?.[name];
    return parts.map((p) => (p.type === "unit" && symbol ? symbol : p.value)).join("");
  };
  // Seconds count below one day; from one day on the length is read to the minute.
  const total = abs >= DAY ? Math.round(abs / MINUTE) * MINUTE : Math.round(abs / 1000) * 1000;
  const d = Math.floor(total / DAY);
  const h = Math.floor((total % DAY) / HOUR);
  const m = Math.floor((total % HOUR) / MINUTE);
  const s = Math.floor((total % MINUTE) / 1000);
  const parts: string[] = [];
  if (d) parts.push(unit("day", d));
  if (h) parts.push(unit("hour", h));
  if (m) parts.push(unit("minute", m));
  if (s) parts.push(unit("second", s));
  if (parts.length === 0) return unit("minute", 0);
  return listFormat(locale, { type: "unit", style: "narrow" }).format(parts);
}

/** A duration given in minutes (the devices' unit for station times, docs/device-protocol.md §9) as text. */
export function formatMinutes(minutes: number, lang: string, style: DurationStyle = "text"): string {
  return formatDuration(minutes * MINUTE, lang, style);
}

/**
 * The time between `date` and `now` (either way round) as text (spec §9); "" — nothing — for a missing or unreadable
 * date and for the empty date 0001-01-01.
 * @param date ISO 8601 text or a Date.
 * @param opts `now` (default the phone's clock), `style` (default "text").
 */
export function formatDurationSince(
  date: string | Date | null | undefined,
  lang: string,
  opts: { now?: Date | number; style?: DurationStyle } = {},
): string {
  if (!date) return "";
  if (typeof date === "string" && date.trim().startsWith(EMPTY_DATE_PREFIX)) return "";
  const t = typeof date === "string" ? Date.parse(date) : date.getTime();
  if (Number.isNaN(t)) return "";
  if (new Date(t).getUTCFullYear() <= 1) return "";
  const now = opts.now === undefined ? Date.now() : typeof opts.now === "number" ? opts.now : opts.now.getTime();
  return formatDuration(now - t, lang, opts.style);
}
