/**
 * Rules of the minutes-and-seconds time picker (spec §2 "Time picker popup with columns minutes 00-99 and seconds
 * 00-59", §5 "minutes of 60 or more fold so the result starts with hour 01, otherwise 00; format
 * hour:minutes:seconds", §9 "Time picker minutes 00-99, seconds 00-59").
 */

/** Two-digit text of a non-negative integer below 100. */
export function pad2(value: number): string {
  return String(value).padStart(2, "0");
}

/** The minutes column of spec §9: "00" … "99". */
export const TIME_PICKER_MINUTES: readonly string[] = Array.from({ length: 100 }, (_, i) => pad2(i));

/** The seconds column of spec §9: "00" … "59". */
export const TIME_PICKER_SECONDS: readonly string[] = Array.from({ length: 60 }, (_, i) => pad2(i));

/**
 * Formats a minutes/seconds choice as "hh:mm:ss" (spec §5): 60–99 minutes fold into hour 01 and 0–39 minutes,
 * 0–59 minutes give hour 00. Throws RangeError outside minutes 0–99 or seconds 0–59 or for non-integers.
 * Examples: (5, 30) → "00:05:30"; (65, 30) → "01:05:30"; (99, 59) → "01:39:59".
 */
export function formatMinutesSeconds(minutes: number, seconds: number): string {
  if (!Number.isInteger(minutes) || minutes < 0 || minutes > 99) throw new RangeError(`minutes ${minutes} not in 0-99`);
  if (!Number.isInteger(seconds) || seconds < 0 || seconds > 59) throw new RangeError(`seconds ${seconds} not in 0-59`);
  const hour = minutes >= 60 ? 1 : 0;
  return `${pad2(hour)}:${pad2(minutes - hour * 60)}:${pad2(seconds)}`;
}

/**
 * Reads a value back into the picker's columns: "hh:mm:ss" (hour 00 or 01) or "mm:ss". Returns null for text the
 * picker cannot show (e.g. more than 99 minutes in total).
 */
export function parseMinutesSeconds(text: string | null | undefined): { minutes: number; seconds: number } | null {
  const match = /^\s*(?:(\d{1,2}):)?(\d{1,2}):(\d{1,2})\s*$/.exec(text ?? "");
  if (!match) return null;
  const hours = match[1] === undefined ? 0 : Number(match[1]);
  const minutes = hours * 60 + Number(match[2]);
  const seconds = Number(match[3]);
  if (minutes > 99 || seconds > 59) return null;
  return { minutes, seconds };
}
