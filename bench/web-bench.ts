/**
 * The web part of `npm run bench`, how fast a phone opens the app: builds the web app (unless told it is
 * built), starts the whole system as run.ts does but serving a temporary copy of apps/web/dist, writes into that copy a
 * static HTML + CSS page of the Login screen's look (no JavaScript), then runs Lighthouse 12 (default config = mobile,
 * simulated throttling, performance category) three times, round-robin, on that static page, on `#/login` signed out
 * on `#/index/home` signed in as the demo owner and on the demo owner's first device (`#/Device`, its time to
 * interactive, and whether the statistics were asked only after the live figures answered), reopened (the owner saw it
 * earlier today, as on a reload there) and opened for the first time on this phone, each run in a fresh
 * Chromium (Debian's /usr/bin/chromium through chrome-launcher). Prints the median of three per page and the ratios to
 * the static page, and the first-screen JavaScript of each route from apps/web/scripts/size-budget.ts; then the repeat
 * visit of Home with the app's service worker installed and the time until the Device screen shows its live figures,
 * with and without the worker (web-repeat-visit.ts). See bench/README.md "(e)".
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { endpoints } from "@aquapilot/contract/wire";
import { DEMO_ACCOUNT, type DevSystem, startDevSystem } from "@aquapilot/dev";
import { loadConfig } from "@aquapilot/server/config.ts";
import * as chromeLauncher from "chrome-launcher";
import lighthouse, { generateReport, type Result } from "lighthouse";
import puppeteer, { type Browser, type Page } from "puppeteer-core";
import {
  BUDGET_GZIP_BYTES,
  formatBudgetTable,
  kb,
  measureDist,
  type RouteSize,
} from "../apps/web/scripts/size-budget.ts";
import { signInDemo } from "./demo-sign-in.ts";
import { fmt, median, ratio } from "./stats.ts";
import {
  type RepeatVisitRun,
  repeatVisitRows,
  throttledVisit,
  visitMedians,
  waitForInstalledShell,
} from "./web-repeat-visit.ts";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
/** The built web app. */
export const WEB_DIST = path.join(REPO, "apps", "web", "dist");
/** Debian's Chromium (the browser tests' too). */
export const CHROMIUM = process.env.CHROME_PATH || "/usr/bin/chromium";
/** Chromium's flags: headless in a container, and no background traffic that would land in the measured loads. */
export const CHROME_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
/** Lighthouse runs per page. */
export const RUNS = 3;
/** The static baseline page, written into the served copy of dist. */
const STATIC_HTML = "static-first-screen.html";
const STATIC_CSS = "static-first-screen.css";

/** One measured page. */
/**
 * One measured page. "device": the Device screen reopened (the earlier visit showed Home, then this device: a reload
 * on the Device screen, or the app reopened there); "device-first": the Device screen opened the first time on this
 * phone (the earlier visit showed Home only: a notification opening a device never shown here). Both paint the
 * screen's prerendered frame before the app's code runs (apps/web/src/first-paint/boot.js); the app keeps no snapshot
 * of the Device screen.
 */
export type WebTarget = "static" | "login" | "home" | "device" | "device-first";
const TARGETS: WebTarget[] = ["static", "login", "home", "device", "device-first"];
/** The Device screen's goal: interactive within 2 s on the same throttling, ms. */
export const DEVICE_TTI_GOAL_MS = 2_000;

/** The figures of one Lighthouse run (or their medians). Times in ms, sizes in bytes. */
export interface WebMetrics {
  /** Lighthouse performance score, 0–100. */
  score: number;
  lcpMs: number;
  tbtMs: number;
  fcpMs: number;
  /** Time to interactive (Lighthouse's `interactive`, simulated like the others). */
  ttiMs: number;
  /** Every transferred byte of the load (`total-byte-weight`). */
  totalBytes: number;
  /** Transferred bytes of scripts (`resource-summary`, resourceType "script"). */
  jsBytes: number;
}

/** What the web benchmark measured. */
export interface WebBenchResult {
  /** Per page: the runs in order, and the per-metric median. */
  pages: Record<WebTarget, { url: string; runs: WebMetrics[]; median: WebMetrics }>;
  /** First-screen JavaScript per route (size-budget.ts). */
  budget: RouteSize[];
  /** Per run on `#/Device`: whether the statistics were asked only after the live figures answered (null: unseen). */
  statisticsAfterLive: Array<boolean | null>;
  /** The repeat visits of Home with the service worker installed, and their baselines (web-repeat-visit.ts). */
  repeatVisit: RepeatVisitRun[];
  lighthouseVersion: string;
  chromiumVersion: string;
}

/** Builds the web app with `npm run build -w apps/web`. @throws Error when the build fails. */
export function buildWebApp(): void {
  console.log("  building the web app (npm run build -w apps/web) …");
  const r = spawnSync("npm", ["run", "build", "-w", "apps/web"], { cwd: REPO, stdio: ["ignore", "ignore", "inherit"] });
  if (r.status !== 0) throw new Error(`web build failed (exit ${r.status ?? r.signal})`);
}

/** The per-metric median of several runs (each metric on its own, so the figures may come from different runs). */
export function medianMetrics(runs: readonly WebMetrics[]): WebMetrics {
  const m = (k: keyof WebMetrics) => median(runs.map((r) => r[k]));
  return {
    score: m("score"),
    lcpMs: m("lcpMs"),
    tbtMs: m("tbtMs"),
    fcpMs: m("fcpMs"),
    ttiMs: m("ttiMs"),
    totalBytes: m("totalBytes"),
    jsBytes: m("jsBytes"),
  };
}

/**
 * The figures of a Lighthouse result. @throws Error when Lighthouse reported a runtime error or a metric is missing
 * (e.g. NO_LCP), so a broken run never counts as a fast one.
 */
export function metricsOf(lhr: Result): WebMetrics {
  if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  const num = (id: string): number => {
    const v = lhr.audits[id]?.numericValue;
    if (typeof v !== "number" || !Number.isFinite(v)) {
      throw new Error(`Lighthouse: no ${id} for ${lhr.finalDisplayedUrl}: ${lhr.audits[id]?.errorMessage ?? "?"}`);
    }
    return v;
  };
  const score = lhr.categories.performance?.score;
  if (typeof score !== "number") throw new Error(`Lighthouse: no performance score for ${lhr.finalDisplayedUrl}`);
  const items = (lhr.audits["resource-summary"]?.details as { items?: Array<Record<string, unknown>> } | undefined)
    ?.items;
  const script = items?.find((i) => i.resourceType === "script");
  if (!items) throw new Error("Lighthouse: no resource-summary");
  return {
    score: Math.round(score * 100),
    lcpMs: num("largest-contentful-paint"),
    tbtMs: num("total-blocking-time"),
    fcpMs: num("first-contentful-paint"),
    ttiMs: num("interactive"),
    totalBytes: num("total-byte-weight"),
    jsBytes: typeof script?.transferSize === "number" ? script.transferSize : 0,
  };
}

/** A network request as Lighthouse's `network-requests` audit lists it (the fields read here; times in ms). */
interface NetworkItem {
  url: string;
  networkRequestTime?: number;
  networkEndTime?: number;
}

/**
 * Whether the Device screen asked for its statistics (spec §7 device-flow-statistics, the chart's data) only after its
 * live figures had answered (spec §7 query-device-info), from the run's `network-requests` audit (the
 * statistics chart must load after the live figures). Null when the run made either call not at all.
 */
export function statisticsAfterLive(lhr: Result): boolean | null {
  const items = (lhr.audits["network-requests"]?.details as { items?: NetworkItem[] } | undefined)?.items ?? [];
  const first = (path: string) => items.find((i) => new URL(i.url).pathname === path);
  const live = first(endpoints.queryDeviceInfo.path);
  const stats = first(endpoints.deviceFlowStatistics.path);
  if (!live || !stats || live.networkEndTime === undefined || stats.networkRequestTime === undefined) return null;
  return stats.networkRequestTime >= live.networkEndTime;
}

/**
 * The Device screen of the demo owner's first device in their first household, as the app links it
 * (`#/Device?params={"deviceId":…,"familyId":…}`, shared/navigation), read through the API with `accessToken`.
 * @throws Error when a call fails or the demo owner has no device.
 */
export async function demoDeviceUrl(baseUrl: string, accessToken: string): Promise<string> {
  const get = async <T>(path: string, query: Record<string, string>): Promise<T> => {
    const res = await fetch(`${baseUrl}${path}?${new URLSearchParams(query)}`, {
      headers: { authorization: `Bearer ${accessToken}` },
    });
    if (!res.ok) throw new Error(`demo device: GET ${path} answered HTTP ${res.status}`);
    return ((await res.json()) as { result: T }).result;
  };
  const families = await get<{ items: Array<{ id: string }> }>(endpoints.getFamilies.path, {});
  const familyId = families.items[0]?.id;
  if (!familyId) throw new Error("demo device: the demo owner has no household");
  const devices = await get<{ items: Array<{ id: string }> } | Array<{ id: string }>>(endpoints.getFamilyDevices.path, {
    familyId,
  });
  const deviceId = (Array.isArray(devices) ? devices : devices.items)[0]?.id;
  if (!deviceId) throw new Error("demo device: the demo owner's household has no device");
  return `${baseUrl}/#/Device?params=${encodeURIComponent(JSON.stringify({ deviceId, familyId }))}`;
}

/** The version of the Chromium last started, e.g. "156.0.8078.79" (the user agent of a page says "156.0.0.0"). */
let chromiumVersion = "?";

/** Starts a fresh Chromium (new temporary profile: cold HTTP cache, no service worker), gives `fn` a page. */
export async function withChromium<T>(fn: (page: Page, browser: Browser) => Promise<T>): Promise<T> {
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: CHROME_FLAGS, logLevel: "silent" });
  let browser: Browser | null = null;
  try {
    browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}`, defaultViewport: null });
    chromiumVersion = (await browser.version()).replace(/^\D*\//, "");
    const page = await browser.newPage();
    return await fn(page, browser);
  } finally {
    await browser?.disconnect().catch(() => {});
    chrome.kill();
  }
}

/** The DOM of the page, without scripts, and the CSS that the page's inline styles and `<style>` elements held. */
interface Snapshot {
  html: string;
  css: string;
}

/**
 * Runs in the page: clones the rendered document and drops its scripts, script preloads and stylesheets; the CSS of
 * the static page is every rule of the page's stylesheets that applies to the rendered DOM (a style rule when one of
 * its selectors, pseudo-elements set aside, matches an element; @media, @supports and the like with such rules
 * inside; @font-face, @keyframes and other at-rules always), then the `style` attributes (which the app's CSP would
 * block in a static page) as `[data-static-style="n"]` rules with !important (an inline style outranks the
 * stylesheets). A rule that cannot be tested is kept. Runs in the browser: no helpers from outside this function.
 */
function snapshotInPage(cssHref: string): Snapshot {
  const pseudoElement =
    /::?(before|after|placeholder|selection|marker|backdrop|first-line|first-letter|file-selector-button|-webkit-[\w-]+|-moz-[\w-]+)(\([^)]*\))?/g;
  const used: string[] = [];
  const walk = (rules: CSSRuleList, out: string[]): void => {
    for (const rule of Array.from(rules)) {
      if (rule instanceof CSSStyleRule) {
        const applies = rule.selectorText.split(",").some((sel) => {
          try {
            return document.querySelector(sel.replace(pseudoElement, "").trim() || "*") !== null;
          } catch {
            return true;
          }
        });
        if (applies) out.push(rule.cssText);
      } else if ("cssRules" in rule && !(rule instanceof CSSKeyframesRule)) {
        const inner: string[] = [];
        walk((rule as CSSGroupingRule).cssRules, inner);
        if (inner.length)
          out.push(`${rule.cssText.slice(0, rule.cssText.indexOf("{")).trim()} {\n${inner.join("\n")}\n}`);
      } else {
        out.push(rule.cssText);
      }
    }
  };
  for (const sheet of Array.from(document.styleSheets)) walk(sheet.cssRules, used);
  const root = document.documentElement.cloneNode(true) as HTMLElement;
  // Every preload goes too (the app's code, Home's stylesheets): the static page loads only its own CSS.
  const drop = 'script, style, link[rel="stylesheet"], link[rel="modulepreload"], link[rel="preload"]';
  for (const el of root.querySelectorAll(drop)) el.remove();
  let css = `${used.join("\n")}\n`;
  let n = 0;
  for (const el of [root, ...Array.from(root.querySelectorAll<HTMLElement>("[style]"))]) {
    const st = el.style;
    if (!st || st.length === 0) continue;
    const decls: string[] = [];
    for (let i = 0; i < st.length; i++) decls.push(`${st[i]}: ${st.getPropertyValue(st[i])} !important`);
    el.removeAttribute("style");
    el.setAttribute("data-static-style", String(n));
    css += `[data-static-style="${n}"] { ${decls.join("; ")} }\n`;
    n++;
  }
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = cssHref;
  root.querySelector("head")?.append(link);
  return { html: `<!doctype html>\n${root.outerHTML}\n`, css };
}

/**
 * Writes the static baseline into `distDir`: opens `#/login` signed out at Lighthouse's mobile screen size, waits for
 * the Login screen, and saves its rendered DOM as {@link STATIC_HTML} (no JavaScript; the app's own stylesheets) with
 * {@link STATIC_CSS}. Returns the page's URL.
 * @throws Error when the Login screen does not render.
 */
export async function writeStaticFirstScreen(baseUrl: string, distDir: string): Promise<string> {
  const snap = await withChromium(async (page) => {
    await page.setViewport({ width: 412, height: 823, deviceScaleFactor: 1.75, isMobile: true, hasTouch: true });
    await page.goto(`${baseUrl}/#/login`, { waitUntil: "networkidle0" });
    await page.waitForSelector('[data-testid="login-screen"]', { timeout: 15_000 });
    // A transform that keeps function names (esbuild's keepNames, as tsx used) wraps them in `__name(…)`; harmless
    // otherwise.
    await page.evaluate("globalThis.__name = (fn) => fn");
    return page.evaluate(snapshotInPage, `/${STATIC_CSS}`);
  });
  if (/<script\b/i.test(snap.html)) throw new Error("static page snapshot still holds a script");
  fs.writeFileSync(path.join(distDir, STATIC_HTML), snap.html);
  fs.writeFileSync(path.join(distDir, STATIC_CSS), snap.css);
  return `${baseUrl}/${STATIC_HTML}`;
}

/** Signs the demo owner in through `/connect/token` and returns the login info the app keeps in localStorage. */
async function demoSession(baseUrl: string): Promise<Record<string, string>> {
  const body = await signInDemo(baseUrl);
  // The keys and shapes of apps/web/src/shared/storage (spec §3): the token pair and login info, as JSON.
  return {
    token: JSON.stringify({
      accessToken: body.access_token,
      refreshToken: body.refresh_token,
      expiresAt: Date.now() + body.expires_in * 1000,
    }),
    loginInfo: JSON.stringify({ userName: DEMO_ACCOUNT.email, grantedPolicies: [], token: body.access_token }),
  };
}

/**
 * Signs the demo owner in ({@link demoSession}) and writes the session into the origin's localStorage from
 * `/version.json` (same origin, no app code, nothing cached for the app); the page is left there.
 */
async function storeDemoSession(page: Page, baseUrl: string): Promise<void> {
  const session = await demoSession(baseUrl);
  await page.goto(`${baseUrl}/version.json`);
  await page.evaluate((items: Record<string, string>) => {
    for (const [k, v] of Object.entries(items)) localStorage.setItem(k, v);
  }, session);
}

/**
 * The owner's earlier visit: Home opened once and shown with its devices until the app has kept its snapshot, then,
 * with `deviceUrl`, that Device screen shown with its device, then left (a page that loads no app code). What the app
 * keeps of it is what an owner reopening the app has (spec §3 local storage: the chosen household in userFamilyCache,
 * the language; the last Home's snapshot); Lighthouse's storage reset then clears the HTTP cache and the service worker
 * it installed, so the measured load still fetches every file.
 * @throws Error when Home (or the Device screen) does not show a device within 15 s.
 */
async function earlierVisit(page: Page, baseUrl: string, deviceUrl: string | null): Promise<void> {
  await page.goto(`${baseUrl}/#/index/home`);
  await page.waitForSelector('[data-testid="device-card"]', { timeout: 15_000 });
  // Seen long enough for the app to keep it (apps/web/src/first-paint/use-kept-snapshot.ts: 2 s after its data; leaving
  // keeps it too).
  await page.waitForFunction(() => localStorage.getItem("homeSnapshot") !== null, { timeout: 15_000 });
  if (deviceUrl) {
    await page.goto(deviceUrl);
    await page.waitForSelector(DEVICE_SHOWN, { timeout: 15_000 });
  }
  await page.goto(`${baseUrl}/version.json`);
}

/** The Device screen showing its device (the app's test id and class). */
const DEVICE_SHOWN = '[data-testid="device-screen"] .device-page';

/** Which screen a page shows (by the app's test ids) and where it is. */
async function shownScreen(page: Page): Promise<{ href: string; home: boolean; login: boolean; device: boolean }> {
  return page.evaluate(
    (shown: string) => ({
      href: location.href,
      home: document.querySelector('[data-testid="home-screen"]') !== null,
      login: document.querySelector('[data-testid="login-screen"]') !== null,
      device: document.querySelector(shown) !== null,
    }),
    DEVICE_SHOWN,
  );
}

/**
 * One Lighthouse run on `target` in a fresh Chromium. For "home" and the Device targets the demo owner's session is
 * put into the origin's localStorage first (from a same-origin page that loads no app code) and Home is visited once,
 * for "device" then that device too ({@link earlierVisit}); Lighthouse's storage reset clears the HTTP cache and
 * service workers but, by default, not localStorage. Afterwards the page must show the expected screen.
 * @throws Error when the run failed, or the page shows Login instead of Home (or not the Login screen on #/login).
 */
async function lighthouseRun(
  baseUrl: string,
  target: WebTarget,
  url: string,
  reportFile: string | null,
): Promise<{ metrics: WebMetrics; lhr: Result }> {
  return withChromium(async (page) => {
    const onDevice = target === "device" || target === "device-first";
    if (target === "home" || onDevice) {
      await storeDemoSession(page, baseUrl);
      await earlierVisit(page, baseUrl, target === "device" ? url : null);
    }
    const result = await lighthouse(
      url,
      { logLevel: "error", output: "json", onlyCategories: ["performance"] },
      undefined,
      page,
    );
    if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
    const lhr = result.lhr;
    if (reportFile) fs.writeFileSync(reportFile, generateReport(lhr, "html"));
    const metrics = metricsOf(lhr);
    const shown = await shownScreen(page);
    if (target === "home" && (!lhr.finalDisplayedUrl.includes("#/index/home") || !shown.home || shown.login)) {
      throw new Error(
        `the signed-in run did not show Home: Lighthouse ended on ${lhr.finalDisplayedUrl}, the page is ${shown.href} ` +
          `(home screen ${shown.home}, login screen ${shown.login})`,
      );
    }
    if (onDevice && (!shown.device || shown.login)) {
      throw new Error(`the device run did not show the Device screen (${shown.href})`);
    }
    if ((target === "login" || target === "static") && !shown.login) {
      throw new Error(`the ${target} run did not show the Login screen (${shown.href})`);
    }
    return { metrics, lhr };
  });
}

/** The first device card on Home: the repeat visit's screen is ready when it shows. */
const HOME_READY = '[data-testid="device-card"]';

/**
 * The Device screen's controls in the shown #root: the live screen, drawn with the device's answered figures, has
 * replaced the prerendered frame (the frame has none; a screen drawn out of sight is not yet #root).
 */
const DEVICE_LIVE = '#root [data-testid="device-controls"]';

/**
 * One round of the repeat visit (web-repeat-visit.ts) in a fresh Chromium: the demo owner's session is stored, Home
 * is opened and shown with its devices, and the bench waits until the app's service worker is installed and controls
 * the page; then, throttled, Home again (the repeat visit), Home with the worker and the HTTP cache bypassed (a first
 * visit), the static page, and the first device's screen with and without the worker (until its live figures show).
 * @throws Error when Home shows no device, the worker never takes control, or a visit reports no paint.
 */
async function repeatVisitRun(
  baseUrl: string,
  homeUrl: string,
  staticUrl: string,
  deviceUrl: string,
): Promise<RepeatVisitRun> {
  return withChromium(async (page) => {
    const blankUrl = `${baseUrl}/version.json`;
    await storeDemoSession(page, baseUrl);
    await page.goto(homeUrl);
    await page.waitForSelector(HOME_READY, { timeout: 15_000 });
    await waitForInstalledShell(page);
    const repeat = await throttledVisit(page, homeUrl, { blankUrl, readySelector: HOME_READY });
    const firstVisit = await throttledVisit(page, homeUrl, { blankUrl, readySelector: HOME_READY, bypassWorker: true });
    const staticPage = await throttledVisit(page, staticUrl, { blankUrl });
    const device = await throttledVisit(page, deviceUrl, { blankUrl, readySelector: DEVICE_LIVE });
    const deviceFirst = await throttledVisit(page, deviceUrl, {
      blankUrl,
      readySelector: DEVICE_LIVE,
      bypassWorker: true,
    });
    return { repeat, firstVisit, staticPage, device, deviceFirst };
  });
}

/** Lighthouse runtime errors whose own message says "Please run Lighthouse again" (a trace it failed to record). */
export const RETRYABLE_LIGHTHOUSE_ERRORS = ["NO_NAVSTART", "NO_TRACING_STARTED"] as const;

/** How many times one run is tried when Lighthouse reports one of {@link RETRYABLE_LIGHTHOUSE_ERRORS}. */
export const LIGHTHOUSE_ATTEMPTS = 3;

/**
 * Runs `run` again, in a fresh Chromium each time, when Lighthouse itself failed to record the trace (one of
 * {@link RETRYABLE_LIGHTHOUSE_ERRORS}), up to {@link LIGHTHOUSE_ATTEMPTS} tries; a retry is printed. Any other error,
 * or the same one on the last try, is thrown: a wrong screen or a missing metric never turns into a retry.
 */
export async function withRetry<T>(run: () => Promise<T>, label: string, attempts = LIGHTHOUSE_ATTEMPTS): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const retryable = RETRYABLE_LIGHTHOUSE_ERRORS.some((code) => message.includes(`Lighthouse: ${code} `));
      if (!retryable || attempt >= attempts) throw error;
      console.log(`  ${label}: ${message.split(" Something")[0]} — run again (try ${attempt + 1} of ${attempts})`);
    }
  }
}

/**
 * Runs the web benchmark (see the file comment). Lighthouse and Chromium run one at a time, never beside other load.
 * @param opts.built skip the build and use apps/web/dist as it is; opts.reportsDir: write every run's HTML report there.
 * @throws Error when the build, the system, the static snapshot or any run fails, or a route shows the wrong screen.
 */
export async function runWebBench(opts: { built: boolean; reportsDir?: string | null }): Promise<WebBenchResult> {
  if (!opts.built) buildWebApp();
  if (!fs.existsSync(path.join(WEB_DIST, "index.html"))) {
    throw new Error(`${WEB_DIST}/index.html missing: build the app (npm run build -w apps/web) or drop --built`);
  }
  const budget = measureDist(WEB_DIST);
  console.log("  first-screen JavaScript (apps/web/scripts/size-budget.ts):\n");
  console.log(formatBudgetTable(budget).replace(/^/gm, "  "));

  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "aquapilot-webbench-"));
  const dataDir = path.join(tmp, "data");
  const distDir = path.join(tmp, "dist");
  fs.mkdirSync(dataDir);
  fs.cpSync(WEB_DIST, distDir, { recursive: true });
  if (opts.reportsDir) fs.mkdirSync(opts.reportsDir, { recursive: true });
  const config = loadConfig({ DATA_DIR: dataDir, PORT: "0", MQTT_PORT: "0", LOG_LEVEL: "warn", SIM_DEVICES: "3" });
  let system: DevSystem | null = null;
  try {
    system = await startDevSystem(config, { webDistDir: distDir });
    const base = system.url;
    const deviceUrl = await demoDeviceUrl(base, (await signInDemo(base)).access_token);
    const urls: Record<WebTarget, string> = {
      static: await writeStaticFirstScreen(base, distDir),
      login: `${base}/#/login`,
      home: `${base}/#/index/home`,
      device: deviceUrl,
      "device-first": deviceUrl,
    };
    const runs: Record<WebTarget, WebMetrics[]> = { static: [], login: [], home: [], device: [], "device-first": [] };
    const afterLive: Array<boolean | null> = [];
    let lighthouseVersion = "";
    for (let i = 0; i < RUNS; i++) {
      for (const target of TARGETS) {
        const report = opts.reportsDir ? path.join(opts.reportsDir, `${target}-${i + 1}.html`) : null;
        const { metrics, lhr } = await withRetry(() => lighthouseRun(base, target, urls[target], report), target);
        lighthouseVersion = lhr.lighthouseVersion;
        runs[target].push(metrics);
        if (target === "device") afterLive.push(statisticsAfterLive(lhr));
        console.log(
          `  run ${i + 1} ${target.padEnd(6)} score ${metrics.score}, LCP ${fmt(metrics.lcpMs, 0)} ms, ` +
            `TBT ${fmt(metrics.tbtMs, 0)} ms, TTI ${fmt(metrics.ttiMs, 0)} ms`,
        );
      }
    }
    const repeatVisit: RepeatVisitRun[] = [];
    for (let i = 0; i < RUNS; i++) {
      const run = await repeatVisitRun(base, urls.home, urls.static, urls["device-first"]);
      repeatVisit.push(run);
      console.log(
        `  run ${i + 1} repeat visit: code from the network ${run.repeat.codeFromNetwork.length} of ` +
          `${run.repeat.codeUrls.length}, first device card at ${fmt(run.repeat.readyMs, 0)} ms ` +
          `(without the worker ${fmt(run.firstVisit.readyMs, 0)} ms), Device live figures at ` +
          `${fmt(run.device.readyMs, 0)} ms (without the worker ${fmt(run.deviceFirst.readyMs, 0)} ms)`,
      );
    }
    const pages = Object.fromEntries(
      TARGETS.map((t) => [t, { url: urls[t], runs: runs[t], median: medianMetrics(runs[t]) }]),
    ) as WebBenchResult["pages"];
    return { pages, budget, statisticsAfterLive: afterLive, repeatVisit, lighthouseVersion, chromiumVersion };
  } finally {
    await system?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/** Kilobytes (1000 bytes) with one decimal and thousands separators. */
const kbs = (bytes: number): string => fmt(bytes / 1000, 1);

/** One line of medians for the printout. */
function printLine(label: string, m: WebMetrics): void {
  console.log(
    `  ${label.padEnd(14)} score ${String(m.score).padStart(3)}   LCP ${fmt(m.lcpMs, 0).padStart(6)} ms   ` +
      `TBT ${fmt(m.tbtMs, 0).padStart(5)} ms   FCP ${fmt(m.fcpMs, 0).padStart(6)} ms   ` +
      `TTI ${fmt(m.ttiMs, 0).padStart(6)} ms   ` +
      `transferred ${kbs(m.totalBytes).padStart(6)} KB   JS ${kbs(m.jsBytes).padStart(6)} KB`,
  );
}

/** Prints the medians and the ratios to the static page; returns the rows for the results table and its note. */
export function reportWebBench(r: WebBenchResult): { rows: string[]; note: string } {
  const s = r.pages.static.median;
  console.log(`\n  median of ${RUNS} (Lighthouse ${r.lighthouseVersion}, mobile, simulated throttling):`);
  printLine("static page", s);
  const rows: string[] = [];
  for (const [target, route] of [
    ["login", "#/login"],
    ["home", "#/index/home"],
  ] as const) {
    const m = r.pages[target].median;
    printLine(route, m);
    const b = r.budget.find((x) => x.path === route);
    console.log(
      `  ${"".padEnd(14)} LCP ÷ static ${ratio(m.lcpMs, s.lcpMs)} (goal ≤ ×1.30), score goal ≥ 97` +
        (b ? `, first-screen JS ${kb(b.gzipBytes)} KB gzip (goal ${kb(BUDGET_GZIP_BYTES)} KB)` : ""),
    );
    const signedIn = target === "home" ? " signed in" : "";
    rows.push(
      `| Web first screen ${route}${signedIn}, Lighthouse mobile, median of ${RUNS} | Performance score | ${m.score} | ${s.score} | ${ratio(m.score, s.score)} |`,
      `| | LCP (ms) | ${fmt(m.lcpMs, 0)} | ${fmt(s.lcpMs, 0)} | ${ratio(m.lcpMs, s.lcpMs)} |`,
      `| | TBT (ms) | ${fmt(m.tbtMs, 0)} | ${fmt(s.tbtMs, 0)} | ${ratio(m.tbtMs, s.tbtMs)} |`,
      `| | FCP (ms) | ${fmt(m.fcpMs, 0)} | ${fmt(s.fcpMs, 0)} | ${ratio(m.fcpMs, s.fcpMs)} |`,
      `| | Transferred, all (KB) | ${kbs(m.totalBytes)} | ${kbs(s.totalBytes)} | ${ratio(m.totalBytes, s.totalBytes)} |`,
      `| | Transferred, JavaScript (KB) | ${kbs(m.jsBytes)} | ${kbs(s.jsBytes)} | ${ratio(m.jsBytes, s.jsBytes)} |`,
    );
    if (b)
      rows.push(
        `| | First-screen JavaScript, gzip -9 (KB; goal ${kb(BUDGET_GZIP_BYTES)}) | ${kb(b.gzipBytes)} | 0.0 | n/a |`,
      );
  }
  const d = r.pages.device.median;
  const f = r.pages["device-first"].median;
  printLine("#/Device", d);
  printLine("#/Device first", f);
  const seen = r.statisticsAfterLive.filter((x) => x !== null).length;
  const after = r.statisticsAfterLive.filter((x) => x === true).length;
  console.log(
    `  ${"".padEnd(14)} TTI goal ≤ ${fmt(DEVICE_TTI_GOAL_MS, 0)} ms; statistics asked after the live figures ` +
      `answered in ${after} of ${seen} runs that asked for both`,
  );
  rows.push(
    `| Web #/Device (first device) signed in, reopened (seen earlier today), Lighthouse mobile, median of ${RUNS} | Performance score | ${d.score} | ${s.score} | ${ratio(d.score, s.score)} |`,
    `| | Time to interactive (ms; goal ${fmt(DEVICE_TTI_GOAL_MS, 0)}) | ${fmt(d.ttiMs, 0)} | ${fmt(s.ttiMs, 0)} | ${ratio(d.ttiMs, s.ttiMs)} |`,
    `| | LCP (ms) | ${fmt(d.lcpMs, 0)} | ${fmt(s.lcpMs, 0)} | ${ratio(d.lcpMs, s.lcpMs)} |`,
    `| | TBT (ms) | ${fmt(d.tbtMs, 0)} | ${fmt(s.tbtMs, 0)} | ${ratio(d.tbtMs, s.tbtMs)} |`,
    `| | Statistics asked after the live figures answered (runs) | ${after} of ${seen} | n/a | n/a |`,
    `| Web #/Device opened the first time on this phone, median of ${RUNS} | Performance score | ${f.score} | ${s.score} | ${ratio(f.score, s.score)} |`,
    `| | Time to interactive (ms; goal ${fmt(DEVICE_TTI_GOAL_MS, 0)}) | ${fmt(f.ttiMs, 0)} | ${fmt(s.ttiMs, 0)} | ${ratio(f.ttiMs, s.ttiMs)} |`,
    `| | LCP (ms) | ${fmt(f.lcpMs, 0)} | ${fmt(s.lcpMs, 0)} | ${ratio(f.lcpMs, s.lcpMs)} |`,
  );
  const repeat = visitMedians(r.repeatVisit.map((x) => x.repeat));
  const first = visitMedians(r.repeatVisit.map((x) => x.firstVisit));
  console.log(
    `  repeat visit   code from the network ${repeat.fromNetwork} of ${repeat.codeRequests} (worst run; without ` +
      `the worker ${first.fromNetwork} of ${first.codeRequests}), first device card ${fmt(repeat.readyMs, 0)} ms ` +
      `(without the worker ${fmt(first.readyMs, 0)} ms), FCP ${fmt(repeat.fcpMs, 0)} ms, LCP ${fmt(repeat.lcpMs, 0)} ms`,
  );
  const device = visitMedians(r.repeatVisit.map((x) => x.device));
  const deviceFirst = visitMedians(r.repeatVisit.map((x) => x.deviceFirst));
  console.log(
    `  #/Device live  figures shown ${fmt(device.readyMs, 0)} ms (without the worker ${fmt(deviceFirst.readyMs, 0)} ms)`,
  );
  rows.push(...repeatVisitRows(r.repeatVisit));
  const cpus = os.cpus();
  const note =
    `Web first screen: measured ${new Date().toISOString().slice(0, 10)} with Lighthouse ${r.lighthouseVersion} ` +
    `(default config: mobile, simulated throttling, performance only) driving Chromium ${r.chromiumVersion} headless, ` +
    `a fresh profile per run, ${RUNS} runs per page round-robin, per-metric median; server, browser and Lighthouse on ` +
    `the same ${cpus.length} cores. Bare baseline: a static HTML page of the Login screen (its rendered DOM, no ` +
    "JavaScript, with only the CSS rules that apply to it) served by the same server; #/index/home and #/Device are " +
    "set against the same page. " +
    "Repeat visit: Chromium driven directly (Lighthouse clears service workers), the app's worker installed by an " +
    "earlier visit, Lighthouse's devtools throttling applied, 3 rounds. " +
    "First-screen JavaScript: entry + static imports + route modules and texts, from Vite's manifest and the build's module map, gzip -9 (npm run size -w apps/web).";
  return { rows, note };
}
