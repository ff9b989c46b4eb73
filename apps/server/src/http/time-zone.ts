import { TIME_ZONE_HEADER } from "@aquapilot/contract";
import { TZDate } from "@date-fns/tz";
import { addDays, addMonths, startOfDay, startOfMonth } from "date-fns";
import type { FastifyRequest } from "fastify";

/**
 * The owner's local time on the server, from real timestamps: the phone sends its IANA time zone in
 * {@link TIME_ZONE_HEADER}; "today" and the day, week and month buckets of statistics are cut at local midnight of that
 * zone (daylight-saving days are 23 or 25 hours long). Arithmetic is date-fns over `@date-fns/tz`.
 */

const valid = new Map<string, boolean>();

/** Whether `zone` is an IANA time zone this runtime knows (cached). */
export function isTimeZone(zone: string): boolean {
  if (zone.length === 0 || zone.length > 64) return false;
  let ok = valid.get(zone);
  if (ok === undefined) {
    try {
      new Intl.DateTimeFormat("en", { timeZone: zone });
      ok = true;
    } catch {
      ok = false;
    }
    if (valid.size < 1000) valid.set(zone, ok);
  }
  return ok;
}

/** The caller's time zone from {@link TIME_ZONE_HEADER}; "UTC" when absent or unknown (never throws). */
export function callerTimeZone(request: Pick<FastifyRequest, "headers">): string {
  const raw = request.headers[TIME_ZONE_HEADER.toLowerCase()];
  const zone = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  return zone && isTimeZone(zone) ? zone : "UTC";
}

/** Start (local midnight, as an instant) of the local day holding `instant` in `zone`. */
export function localDayStart(instant: Date | number, zone: string): Date {
  return new Date(startOfDay(new TZDate(+instant, zone)).getTime());
}

/** Local midnight `days` days after the local day holding `instant` (negative: before); DST-aware. */
export function addLocalDays(instant: Date | number, days: number, zone: string): Date {
  return new Date(addDays(startOfDay(new TZDate(+instant, zone)), days).getTime());
}

/** Local midnight of the first day of the month holding `instant`, `months` months later (0: that month). */
export function localMonthStart(instant: Date | number, zone: string, months = 0): Date {
  return new Date(addMonths(startOfMonth(new TZDate(+instant, zone)), months).getTime());
}

/** The local calendar date of `instant` in `zone` as YYYY-MM-DD. */
export function localDateKey(instant: Date | number, zone: string): string {
  const d = new TZDate(+instant, zone);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
}

/**
 * Local midnight (instant) of the calendar date `date` (YYYY-MM-DD) in `zone`; throws RangeError for a malformed date.
 */
export function localDateStart(date: string, zone: string): Date {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(date);
  if (!m) throw new RangeError(`Not a date: ${date}`);
  return new Date(new TZDate(Number(m[1]), Number(m[2]) - 1, Number(m[3]), zone).getTime());
}
