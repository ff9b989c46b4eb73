/**
 * The repeat visit of the web benchmark (its goal: the installed app (service worker) shows the cached shell with no
 * network round trip for code). Lighthouse clears the service worker
 * before each run, so this part drives Chromium itself: the demo owner opens Home once (the app registers
 * apps/web/public/sw.js, which stores the build's shell), then Home is opened again under the throttling Lighthouse's
 * own "devtools" mode applies (4× CPU, slow 4G: 562.5 ms request latency, 1,474.6 kbit/s down, 675 kbit/s up), and
 * every request for code is followed — the page's own and the worker's — to count those that reached the network.
 * Baselines under the same throttling, in the same browser: the same Home with the worker bypassed and the HTTP cache
 * off (a first visit), and the static Login page of web-bench.ts. See bench/README.md "(e)".
 */
import type { CDPSession, Page, Target } from "puppeteer-core";
import { fmt, median, ratio } from "./stats.ts";

/** Lighthouse 12's devtools throttling for mobile (constants.throttling.mobileSlow4G, adjusted as it applies them). */
export const REPEAT_THROTTLING = {
  cpuSlowdown: 4,
  latencyMs: 150 * 3.75,
  downloadBytesPerS: (1.6 * 1024 * 0.9 * 1024) / 8,
  uploadBytesPerS: (750 * 0.9 * 1024) / 8,
} as const;

/** One throttled visit: paint times from navigation start (ms), and the code it asked for. */
export interface VisitFigures {
  fcpMs: number;
  /** The last largest-contentful-paint entry, ms; NaN when the browser reported none (left out of the medians). */
  lcpMs: number;
  /** When the page's `readySelector` first matched (Home: the first device card), ms; NaN when it never did. */
  readyMs: number;
  /** URLs of code (the page, scripts, stylesheets) the visit asked for, each once. */
  codeUrls: string[];
  /** Those of {@link codeUrls} that went to the network (not answered by the service worker from its cache). */
  codeFromNetwork: string[];
}

/** What one round of the repeat-visit measurement saw. */
export interface RepeatVisitRun {
  repeat: VisitFigures;
  firstVisit: VisitFigures;
  staticPage: VisitFigures;
  /**
   * The demo owner's first device opened on #/Device with the worker installed, ready when the live screen (its
   * controls, drawn with the device's answered figures) has replaced the frame: what an owner waits for.
   */
  device: VisitFigures;
  /** The same Device screen with the worker and the HTTP cache bypassed (a first visit). */
  deviceFirst: VisitFigures;
}

/** Whether a URL is code of the app: the HTML page, boot.js, or a built script or stylesheet. */
export function isCodeUrl(url: string): boolean {
  const { pathname } = new URL(url);
  return (
    pathname === "/" ||
    pathname.endsWith(".html") ||
    pathname === "/boot.js" ||
    (pathname.startsWith("/assets/") && /\.(m?js|css)$/.test(pathname))
  );
}

/**
 * The code a visit asked for and which of it reached the network: `page` lists the page's responses (URL and whether
 * the service worker answered it), `worker` the URLs the service worker itself fetched from the network during the
 * visit. A page request the worker answered counts as network only when the worker fetched that URL too (a cache
 * miss passed through). Each URL once, in first-seen order.
 */
export function codeRequests(
  page: ReadonlyArray<{ url: string; fromServiceWorker: boolean }>,
  worker: readonly string[],
): { codeUrls: string[]; codeFromNetwork: string[] } {
  const strip = (u: string) => u.split("#")[0];
  const codeUrls: string[] = [];
  const codeFromNetwork: string[] = [];
  const workerFetched = new Set(worker.map(strip));
  for (const r of page) {
    const url = strip(r.url);
    if (!isCodeUrl(url) || codeUrls.includes(url)) continue;
    codeUrls.push(url);
    if (!r.fromServiceWorker || workerFetched.has(url)) codeFromNetwork.push(url);
  }
  for (const url of workerFetched) if (isCodeUrl(url) && !codeFromNetwork.includes(url)) codeFromNetwork.push(url);
  return { codeUrls, codeFromNetwork };
}

/**
 * A script for the page to run before its own: records when `selector` first matches, as `window.__readyAt` (ms).
 * Source text, not a function: the bench's TypeScript runner wraps named functions in a helper the page lacks.
 */
export function readyWatcher(selector: string): string {
  return `new MutationObserver(function () {
    if (window.__readyAt === undefined && document.querySelector(${JSON.stringify(selector)}))
      window.__readyAt = performance.now();
  }).observe(document, { childList: true, subtree: true });`;
}

/** Puts the throttling of {@link REPEAT_THROTTLING} on a page's session. */
async function throttle(cdp: CDPSession): Promise<void> {
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: REPEAT_THROTTLING.latencyMs,
    downloadThroughput: REPEAT_THROTTLING.downloadBytesPerS,
    uploadThroughput: REPEAT_THROTTLING.uploadBytesPerS,
  });
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: REPEAT_THROTTLING.cpuSlowdown });
}

/**
 * Opens `url` in `page` under {@link REPEAT_THROTTLING} and returns its figures. `bypassWorker`: the service worker
 * and the HTTP cache are bypassed (a first visit). Waits for `readySelector` (when given) and then 1 s, so the
 * largest paint has settled. The page first leaves to `blankUrl` (same origin, no app code), so the visit is a full
 * load, not a hash change.
 * @throws Error when `readySelector` does not match within 30 s, or the browser reports no first contentful paint.
 */
export async function throttledVisit(
  page: Page,
  url: string,
  opts: { blankUrl: string; readySelector?: string; bypassWorker?: boolean },
): Promise<VisitFigures> {
  await page.goto(opts.blankUrl);
  const cdp = await page.createCDPSession();
  const workerFetches: string[] = [];
  const workerSessions: CDPSession[] = [];
  const onTarget = async (target: Target) => {
    if (target.type() !== "service_worker") return;
    const session = await target.createCDPSession();
    workerSessions.push(session);
    session.on("Network.requestWillBeSent", (e) => workerFetches.push(e.request.url));
    await session.send("Network.enable");
  };
  const browser = page.browser();
  browser.on("targetcreated", onTarget);
  for (const target of browser.targets()) await onTarget(target);
  const responses: Array<{ url: string; fromServiceWorker: boolean }> = [];
  const onResponse = (r: { url(): string; fromServiceWorker(): boolean }) =>
    responses.push({ url: r.url(), fromServiceWorker: r.fromServiceWorker() });
  page.on("response", onResponse);
  try {
    await throttle(cdp);
    await cdp.send("Network.setBypassServiceWorker", { bypass: opts.bypassWorker === true });
    await cdp.send("Network.setCacheDisabled", { cacheDisabled: opts.bypassWorker === true });
    const script = opts.readySelector ? await page.evaluateOnNewDocument(readyWatcher(opts.readySelector)) : null;
    await page.goto(url, { waitUntil: "load", timeout: 60_000 });
    if (opts.readySelector) await page.waitForSelector(opts.readySelector, { timeout: 30_000 });
    await new Promise((r) => setTimeout(r, 1_000));
    if (script) await page.removeScriptToEvaluateOnNewDocument(script.identifier);
    const paints = await page.evaluate(
      () =>
        new Promise<{ fcp: number; lcp: number; ready: number }>((resolve) => {
          const fcp = performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? Number.NaN;
          let lcp = Number.NaN;
          new PerformanceObserver((list) => {
            for (const e of list.getEntries()) lcp = e.startTime;
          }).observe({ type: "largest-contentful-paint", buffered: true });
          const ready = (window as unknown as { __readyAt?: number }).__readyAt ?? Number.NaN;
          setTimeout(() => resolve({ fcp, lcp, ready }), 50);
        }),
    );
    if (!Number.isFinite(paints.fcp)) throw new Error(`repeat visit: no first contentful paint on ${url}`);
    return {
      fcpMs: paints.fcp,
      lcpMs: paints.lcp,
      readyMs: paints.ready,
      ...codeRequests(responses, workerFetches),
    };
  } finally {
    page.off("response", onResponse);
    browser.off("targetcreated", onTarget);
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: 1 }).catch(() => {});
    await cdp
      .send("Network.emulateNetworkConditions", {
        offline: false,
        latency: 0,
        downloadThroughput: -1,
        uploadThroughput: -1,
      })
      .catch(() => {});
    await cdp.detach().catch(() => {});
    for (const s of workerSessions) await s.detach().catch(() => {});
  }
}

/**
 * Waits until a service worker controls `page` and has stored the shell (the worker's install, which fills its
 * cache, finishes before it activates and claims the page).
 * @throws Error when no worker controls the page within 30 s (the app did not register it).
 */
export async function waitForInstalledShell(page: Page): Promise<void> {
  await page.waitForFunction(
    async () => {
      const registration = await navigator.serviceWorker.getRegistration();
      return registration?.active?.state === "activated" && navigator.serviceWorker.controller !== null;
    },
    { timeout: 30_000, polling: 200 },
  );
}

/** {@link median} of the sample's finite values (a figure a run did not see is NaN); NaN when none is finite. */
function medianOf(values: readonly number[]): number {
  const seen = values.filter((v) => Number.isFinite(v));
  return seen.length === 0 ? Number.NaN : median(seen);
}

/** The per-figure medians of one kind of visit over the runs; code counts are the worst run's (the most). */
export function visitMedians(visits: readonly VisitFigures[]): {
  fcpMs: number;
  lcpMs: number;
  readyMs: number;
  codeRequests: number;
  fromNetwork: number;
} {
  return {
    fcpMs: medianOf(visits.map((v) => v.fcpMs)),
    lcpMs: medianOf(visits.map((v) => v.lcpMs)),
    readyMs: medianOf(visits.map((v) => v.readyMs)),
    codeRequests: Math.max(0, ...visits.map((v) => v.codeUrls.length)),
    fromNetwork: Math.max(0, ...visits.map((v) => v.codeFromNetwork.length)),
  };
}

/**
 * The README rows of the repeat visit (bench/results.md; columns: benchmark, metric, system, baseline, ratio):
 * code requests that reached the network (against the same visit without the worker), the first device card, FCP and
 * LCP (against the static page), and the Device screen's live figures (against the same screen without the worker).
 * @throws RangeError when `runs` is empty.
 */
export function repeatVisitRows(runs: readonly RepeatVisitRun[]): string[] {
  if (runs.length === 0) throw new RangeError("no repeat-visit runs");
  const r = visitMedians(runs.map((x) => x.repeat));
  const f = visitMedians(runs.map((x) => x.firstVisit));
  const s = visitMedians(runs.map((x) => x.staticPage));
  const d = visitMedians(runs.map((x) => x.device));
  const df = visitMedians(runs.map((x) => x.deviceFirst));
  const t = REPEAT_THROTTLING;
  const label =
    `Web repeat visit #/index/home signed in, service worker installed, devtools throttling (CPU ×${t.cpuSlowdown}, ` +
    `${t.latencyMs} ms latency), median of ${runs.length}`;
  return [
    `| ${label} | Code requests that reached the network, worst run (baseline: the visit without the worker) | ${r.fromNetwork} of ${r.codeRequests} | ${f.fromNetwork} of ${f.codeRequests} | n/a |`,
    `| | First device card (ms; baseline: the visit without the worker) | ${fmt(r.readyMs, 0)} | ${fmt(f.readyMs, 0)} | ${ratio(r.readyMs, f.readyMs)} |`,
    `| | FCP (ms; baseline: the static page) | ${fmt(r.fcpMs, 0)} | ${fmt(s.fcpMs, 0)} | ${ratio(r.fcpMs, s.fcpMs)} |`,
    `| | LCP (ms; baseline: the static page) | ${fmt(r.lcpMs, 0)} | ${fmt(s.lcpMs, 0)} | ${ratio(r.lcpMs, s.lcpMs)} |`,
    `| | #/Device live figures shown (ms; baseline: the visit without the worker) | ${fmt(d.readyMs, 0)} | ${fmt(df.readyMs, 0)} | ${ratio(d.readyMs, df.readyMs)} |`,
  ];
}
