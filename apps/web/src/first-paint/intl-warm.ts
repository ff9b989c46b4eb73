/**
 * The longest the page waits for the worker's answer before it builds its formatters itself, ms (a worker that failed
 * to load answers never).
 */
export const INTL_WARM_LIMIT_MS = 1_500;

let warmed: Promise<void> | null = null;

/**
 * Starts the engine's locale data (ICU) on another thread, once per page: a dedicated worker
 * (./intl-warm.worker.ts) builds the first screens' number, date, relative-time and plural formatters in `lang`, so the
 * first `Intl.NumberFormat` of the page — 50-100 ms on this machine, several times that on a slow phone, in one task —
 * costs the page a fraction of a millisecond. Call it at start-up, as soon as the language is known; later calls
 * answer the first one's promise. Where workers are missing (unit tests, an old engine) or the worker cannot start,
 * resolves at once; otherwise when the worker answers or after {@link INTL_WARM_LIMIT_MS}. Never rejects.
 * @param lang one of the app's languages (spec §1), e.g. "zh-Hans"
 * @returns resolves when the locale data is warm or waiting longer is pointless
 */
export function warmIntlOffThread(lang: string): Promise<void> {
  if (warmed) return warmed;
  warmed = new Promise<void>((resolve) => {
    if (typeof Worker === "undefined") {
      resolve();
      return;
    }
    let worker: Worker;
    try {
      worker = new Worker(new URL("./intl-warm.worker.ts", import.meta.url), { type: "module", name: "intl-warm" });
    } catch {
      resolve();
      return;
    }
    const done = () => {
      clearTimeout(timer);
      worker.terminate();
      resolve();
    };
    const timer = setTimeout(done, INTL_WARM_LIMIT_MS);
    worker.onmessage = done;
    worker.onerror = done;
    worker.postMessage({ lang });
  });
  return warmed;
}

/**
 * What {@link warmIntlOffThread} started, for code about to build its first formatters (Home's format warm-up):
 * resolves when the off-thread start is over, at once when none was started. Never rejects.
 */
export function intlWarmed(): Promise<void> {
  return warmed ?? Promise.resolve();
}

/** Test hook: forget the started warm-up. */
export function resetIntlWarm(): void {
  warmed = null;
}
