import { pad2 } from "./time-picker-rules.ts";

/**
 * Column rules of the date/time picker (spec §2 "Date/time picker dialog (bottom popup): types datetime, time
 * (starts at 00:00) and timeWithSecond (hour 00-23, minute and second 00-59; an hour column with only 00 remaining is
 * removed; with two columns the result is prefixed 00:). Hour and minute bounds filter the choices. Swipe duration
 * 300.", §9 date formats). Pure functions; the popup in date-time-picker.tsx renders what these return.
 */

/** The picker types of spec §2, plus "date" for the yyyy-MM-dd format of §9. */
export type DateTimePickerType = "datetime" | "date" | "time" | "timeWithSecond";

/** The date formats of spec §9. */
export const DATE_FORMATS = ["yyyy-MM-dd HH:mm:ss", "yyyy-MM-dd", "yyyy-MM-dd HH:mm"] as const;
/** One of the date formats of spec §9. */
export type DateFormat = (typeof DATE_FORMATS)[number];

/** Momentum animation of a wheel column after a quick swipe, in ms (spec §2 "Swipe duration 300"). */
export const SWIPE_DURATION_MS = 300;

/** Hour and minute bounds (spec §2 "Hour and minute bounds filter the choices"); inclusive, defaults 0–23 / 0–59. */
export interface TimeBounds {
  minHour?: number;
  maxHour?: number;
  minMinute?: number;
  maxMinute?: number;
}

/** What a column holds. */
export type ColumnKey = "year" | "month" | "day" | "hour" | "minute" | "second";

/** One wheel column: its key and its two-digit (four for years) choices in order. */
export interface PickerColumn {
  key: ColumnKey;
  options: string[];
}

function range(from: number, to: number, width = 2): string[] {
  const out: string[] = [];
  for (let i = from; i <= to; i++) out.push(width === 2 ? pad2(i) : String(i).padStart(width, "0"));
  return out;
}

function clampInt(value: number | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined || !Number.isFinite(value)) return fallback;
  return Math.min(max, Math.max(min, Math.trunc(value)));
}

/** Hours 00–23 filtered by the bounds (an inverted range gives no hours). */
export function hourOptions(bounds: TimeBounds = {}): string[] {
  return range(clampInt(bounds.minHour, 0, 0, 23), clampInt(bounds.maxHour, 23, 0, 23));
}

/** Minutes 00–59 filtered by the bounds. */
export function minuteOptions(bounds: TimeBounds = {}): string[] {
  return range(clampInt(bounds.minMinute, 0, 0, 59), clampInt(bounds.maxMinute, 59, 0, 59));
}

/** Seconds 00–59. */
export function secondOptions(): string[] {
  return range(0, 59);
}

/**
 * Columns of the "time" and "timeWithSecond" types (spec §2). time: hour, minute. timeWithSecond: hour, minute,
 * second — and when the bounds leave only hour "00", the hour column is removed (minute, second remain).
 */
export function timeColumns(type: "time" | "timeWithSecond", bounds: TimeBounds = {}): PickerColumn[] {
  const hours = hourOptions(bounds);
  const columns: PickerColumn[] = [
    { key: "hour", options: hours },
    { key: "minute", options: minuteOptions(bounds) },
  ];
  if (type === "time") return columns;
  columns.push({ key: "second", options: secondOptions() });
  return hours.length === 1 && hours[0] === "00" ? columns.slice(1) : columns;
}

/**
 * The value of a time selection (spec §2): the chosen texts joined with ":"; for timeWithSecond with two columns
 * (the hour column removed) the result is prefixed "00:" so it always reads hh:mm:ss. Example: ["05","30"] →
 * "00:05:30".
 */
export function formatTimeSelection(type: "time" | "timeWithSecond", values: readonly string[]): string {
  const text = values.join(":");
  return type === "timeWithSecond" && values.length === 2 ? `00:${text}` : text;
}

/** Days in a month (month 1–12) of a year, leap years included. */
export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** Which columns a date format shows. */
export function formatColumns(format: DateFormat): ColumnKey[] {
  if (format === "yyyy-MM-dd") return ["year", "month", "day"];
  if (format === "yyyy-MM-dd HH:mm") return ["year", "month", "day", "hour", "minute"];
  return ["year", "month", "day", "hour", "minute", "second"];
}

/** Selected parts of a date/time; months 1–12. */
export interface DateParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/**
 * Columns of the "datetime"/"date" types for a format (spec §9) given the current selection (the day column follows
 * the chosen month) and the year range; hour and minute bounds filter those columns as for "time".
 */
export function dateTimeColumns(
  format: DateFormat,
  selected: Pick<DateParts, "year" | "month">,
  years: { min: number; max: number },
  bounds: TimeBounds = {},
): PickerColumn[] {
  return formatColumns(format).map((key) => {
    switch (key) {
      case "year":
        return { key, options: range(years.min, years.max, 4) };
      case "month":
        return { key, options: range(1, 12) };
      case "day":
        return { key, options: range(1, daysInMonth(selected.year, selected.month)) };
      case "hour":
        return { key, options: hourOptions(bounds) };
      case "minute":
        return { key, options: minuteOptions(bounds) };
      default:
        return { key, options: secondOptions() };
    }
  });
}

/** Formats local date parts with one of the formats of spec §9 (tokens yyyy, MM, dd, HH, mm, ss). */
export function formatDateParts(parts: DateParts, format: DateFormat): string {
  return format
    .replace("yyyy", String(parts.year).padStart(4, "0"))
    .replace("MM", pad2(parts.month))
    .replace("dd", pad2(parts.day))
    .replace("HH", pad2(parts.hour))
    .replace("mm", pad2(parts.minute))
    .replace("ss", pad2(parts.second));
}

/** Formats a Date (local time) with one of the formats of spec §9. */
export function formatDate(date: Date, format: DateFormat): string {
  return formatDateParts(toParts(date), format);
}

/** Local date parts of a Date. */
export function toParts(date: Date): DateParts {
  return {
    year: date.getFullYear(),
    month: date.getMonth() + 1,
    day: date.getDate(),
    hour: date.getHours(),
    minute: date.getMinutes(),
    second: date.getSeconds(),
  };
}

/**
 * Parses text written in one of the formats of spec §9 (or any shorter prefix of "yyyy-MM-dd HH:mm:ss") into parts;
 * null when it does not match or names an impossible date.
 */
export function parseDateText(text: string | null | undefined): DateParts | null {
  const m = /^\s*(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?\s*$/.exec(text ?? "");
  if (!m) return null;
  const parts: DateParts = {
    year: Number(m[1]),
    month: Number(m[2]),
    day: Number(m[3]),
    hour: Number(m[4] ?? 0),
    minute: Number(m[5] ?? 0),
    second: Number(m[6] ?? 0),
  };
  if (parts.month < 1 || parts.month > 12 || parts.day < 1 || parts.day > daysInMonth(parts.year, parts.month)) {
    return null;
  }
  if (parts.hour > 23 || parts.minute > 59 || parts.second > 59) return null;
  return parts;
}
