/**
 * Cached `Intl` formatters: building an `Intl.NumberFormat` or `Intl.DateTimeFormat` costs far more than
 * using one (on a slow phone a Home screen that built one per figure spent half a second in them), so each distinct
 * locale + options pair is built once and kept. Callers pass the same arguments they would pass to the constructor;
 * errors are the constructor's (RangeError for an unknown time zone or option).
 */

const cache = new Map<string, unknown>();

function cached<T>(kind: string, locale: string | string[] | undefined, options: object | undefined, make: () => T): T {
  const key = `${kind}|${String(locale)}|${options ? JSON.stringify(options) : ""}`;
  let formatter = cache.get(key) as T | undefined;
  if (formatter === undefined) {
    formatter = make();
    cache.set(key, formatter);
  }
  return formatter;
}

/** A cached `new Intl.NumberFormat(locale, options)`. */
export function numberFormat(locale?: string | string[], options?: Intl.NumberFormatOptions): Intl.NumberFormat {
  return cached("number", locale, options, () => new Intl.NumberFormat(locale, options));
}

/** A cached `new Intl.DateTimeFormat(locale, options)`. */
export function dateTimeFormat(locale?: string | string[], options?: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  return cached("date", locale, options, () => new Intl.DateTimeFormat(locale, options));
}

/** A cached `new Intl.RelativeTimeFormat(locale, options)`. */
export function relativeTimeFormat(
  locale?: string | string[],
  options?: Intl.RelativeTimeFormatOptions,
): Intl.RelativeTimeFormat {
  return cached("relative", locale, options, () => new Intl.RelativeTimeFormat(locale, options));
}

/** A cached `new Intl.Collator(locale, options)`. */
export function collator(locale?: string | string[], options?: Intl.CollatorOptions): Intl.Collator {
  return cached("collator", locale, options, () => new Intl.Collator(locale, options));
}

/** A cached `new Intl.ListFormat(locale, options)`. */
export function listFormat(locale?: string | string[], options?: Intl.ListFormatOptions): Intl.ListFormat {
  return cached("list", locale, options, () => new Intl.ListFormat(locale, options));
}
