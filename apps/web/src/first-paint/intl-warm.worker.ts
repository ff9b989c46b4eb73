/// <reference lib="webworker" />
import { homeFormatWarmers } from "../shared/format/index.ts";

/**
 * The off-thread half of {@link warmIntlOffThread} (./intl-warm.ts): a dedicated worker that builds the
 * formatters of the first screens ({@link homeFormatWarmers}, and the plural rules the texts use) in the language it is
 * sent, then answers "warm" and closes. The engine's locale data (ICU) is shared by every thread of the page's process,
 * so its one-time start (50-100 ms on this machine, several times that on a slow phone: the first `Intl.NumberFormat`
 * of a page) happens here instead of in a task of the page. Message in: `{ lang: string }` (one of the app's
 * languages, e.g. "zh-Hans"); message out: "warm" (also when a formatter throws: the page meets the same error itself).
 */
self.onmessage = (event: MessageEvent<{ lang: string }>) => {
  const { lang } = event.data;
  try {
    for (const warm of homeFormatWarmers(lang)) warm();
    new Intl.PluralRules(lang).select(1);
  } catch {
    // an engine without one of them: nothing more to warm
  }
  self.postMessage("warm");
  self.close();
};
