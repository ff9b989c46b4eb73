import { EMPTY_DATE_PREFIX } from "./duration.ts";

/**
 * The age helper of spec §9: "Age computed with 365-day years". An age is the number of whole 365-day years between
 * a start and now — not calendar years: leap days count as days, so after four leap days the age turns a few days
 * before the calendar anniversary (born 2000-01-01, the age is 4 on 2003-12-31, after 1 460 days). Used for a
 * device's age since its factory registration (DeviceAttribute).
 */

/** One year of the spec: 365 days, in milliseconds. */
export const AGE_YEAR_MS = 365 * 24 * 60 * 60 * 1000;

/** What an age is counted from: an ISO 8601 text (a date alone is UTC midnight), a time in ms, or a Date. */
export type AgeStart = string | number | Date | null | undefined;

/**
 * Whole 365-day years from `start` to `now` (spec §9): ⌊(now − start) / 365 days⌋, counted on real instants (no time
 * zone or daylight saving matters). A start in the future counts 0 (a clock a little ahead must not show a negative
 * age). Null when there is nothing to count from: null, undefined, unparseable text, a non-finite number or the
 * service's empty date 0001-01-01.
 * @param now the instant to count to (ms or Date), by default the phone's clock.
 */
export function ageInYears(start: AgeStart, now: number | Date = Date.now()): number | null {
  if (start === null || start === undefined) return null;
  if (typeof start === "string" && start.trim().startsWith(EMPTY_DATE_PREFIX)) return null;
  const from = start instanceof Date ? start.getTime() : typeof start === "number" ? start : Date.parse(start.trim());
  const to = now instanceof Date ? now.getTime() : now;
  if (!Number.isFinite(from) || !Number.isFinite(to)) return null;
  if (to <= from) return 0;
  return Math.floor((to - from) / AGE_YEAR_MS);
}
