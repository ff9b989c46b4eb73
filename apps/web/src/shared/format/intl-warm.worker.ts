/// <reference lib="webworker" />
/**
 * The off-thread half of {@link warmIntlOffThread} (./intl-warm.ts; issue 12): a dedicated worker that builds one of
 * each `Intl` formatter the first screens use, in the locale it is sent, then answers "warm" and closes. The engine's
 * locale data (ICU) is shared by every thread of the page's process, so its one-time start (50-100 ms on this
 * machine, several times that on a slow phone: the first `Intl.NumberFormat` of a page) happens here instead of in a
 * task of the page. Message in: `{ locale: string }` (an Intl locale, e.g. "zh-CN"); message out: "warm" (also when a
 * formatter throws: the page meets the same error itself).
 */
self.onmessage = (event: MessageEvent<{ locale: string }>) => {
  const { locale } = event.data;
  const now = new Date();
  try {
    new Intl.NumberFormat(locale, { maximumFractionDigits: 0 }).format(1);
    new Intl.NumberFormat(locale, { maximumFractionDigits: 1 }).format(1.5);
    new Intl.DateTimeFormat(locale, { hour: "2-digit", minute: "2-digit" }).format(now);
    new Intl.DateTimeFormat(locale, { weekday: "short" }).format(now);
    new Intl.RelativeTimeFormat(locale, { numeric: "auto" }).format(1, "day");
    new Intl.PluralRules(locale).select(1);
  } catch {
    // an engine without one of them: nothing more to warm
  }
  self.postMessage("warm");
  self.close();
};
