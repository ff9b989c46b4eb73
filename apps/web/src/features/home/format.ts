/** Intl locale for one of the app's languages (zh-Hans → zh-CN formatting). */
export function intlLocale(lang: string): string {
  return lang === "zh-Hans" ? "zh-CN" : lang;
}

/**
 * Formats a device's last report time (ISO 8601) for the card: "HH:mm" today, otherwise "MM-dd HH:mm" in the
 * language's conventions; `never` when there is none.
 */
export function formatReportTime(iso: string | null, lang: string, never: string, now = new Date()): string {
  if (!iso) return never;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return never;
  const sameDay = date.toDateString() === now.toDateString();
  const options: Intl.DateTimeFormatOptions = sameDay
    ? { hour: "2-digit", minute: "2-digit" }
    : { month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit" };
  return new Intl.DateTimeFormat(intlLocale(lang), options).format(date);
}
