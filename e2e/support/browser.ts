import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DEMO_ACCOUNT } from "@aquapilot/dev";
import { type BrowserContext, chromium, type Page } from "playwright-core";

/** Debian's Chromium (apt-get install chromium); CHROMIUM_PATH overrides. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Flags that keep headless Chromium off the network beyond loopback (see the node machine notes). */
const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/**
 * Starts Chromium with a fresh profile at a phone-sized viewport (375×812, the design width).
 * @param locale Accept-Language / navigator.language of the browser, e.g. "en" or "zh-CN".
 * @param opts `bluetooth`: turn Web Bluetooth on (`--enable-features=WebBluetooth`), for the network-setup tests
 *   whose peripheral Chromium's BluetoothEmulation plays (support/bluetooth.ts).
 * @returns the context and a close function that also removes the profile folder.
 */
export async function launchPhone(
  locale = "en",
  opts: { bluetooth?: boolean } = {},
): Promise<{ context: BrowserContext; close: () => Promise<void> }> {
  if (!fs.existsSync(CHROMIUM_PATH))
    throw new Error(`Chromium not found at ${CHROMIUM_PATH}: apt-get install -y chromium`);
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), "aq-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: opts.bluetooth ? [...FLAGS, "--enable-features=WebBluetooth"] : FLAGS,
    viewport: { width: 375, height: 812 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    locale,
  });
  return {
    context,
    close: async () => {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Saves a screenshot under e2e/screenshots/<name>.png (kept for a person to look at; git-ignored). */
export async function snap(page: Page, name: string): Promise<string> {
  const dir = path.join(import.meta.dirname, "..", "screenshots");
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}.png`);
  await page.screenshot({ path: file });
  return file;
}

/** A new page of `context` with the app in `lang` (stored under `lang` before the app starts, spec §1/§4). */
export async function newPageIn(context: BrowserContext, lang: string): Promise<Page> {
  const page = await context.newPage();
  await page.addInitScript((l) => localStorage.setItem("lang", JSON.stringify(l)), lang);
  return page;
}

/**
 * The harshest double tap: two clicks on the element with `data-testid=testId` in one task, so the app cannot
 * re-render (and disable the button) in between — what a fast finger on a slow phone does.
 */
export async function doubleTap(page: Page, testId: string): Promise<void> {
  await page.getByTestId(testId).waitFor();
  await page.evaluate((id) => {
    const el = document.querySelector<HTMLElement>(`[data-testid="${id}"]`);
    if (!el) throw new Error(`no element ${id}`);
    el.click();
    el.click();
  }, testId);
}

/**
 * Signs the demo owner in through the Login screen (the embedded demo account) and waits for Home.
 * @param baseUrl the running system's URL.
 */
export async function signInAsDemo(page: Page, baseUrl: string): Promise<void> {
  await page.goto(`${baseUrl}/#/login`);
  await page.getByTestId("login-account").fill(DEMO_ACCOUNT.email);
  await page.getByTestId("login-password").fill(DEMO_ACCOUNT.password);
  await page.getByTestId("login-submit").click();
  await page.getByTestId("home-screen").waitFor({ timeout: 15_000 });
}

/**
 * Holds every request of `page` whose URL matches `url` until the returned function is called, then lets them through
 * (a slow network for that file or call, under the test's control).
 */
export async function holdRoute(page: Page, url: RegExp): Promise<() => void> {
  let release = () => {};
  const held = new Promise<void>((r) => {
    release = r;
  });
  await page.route(url, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

/** Removes the page's service workers, so the next load's files come from the network, where a test can hold them. */
export async function withoutWorker(page: Page): Promise<void> {
  await page.evaluate(async () => {
    for (const r of await navigator.serviceWorker.getRegistrations()) await r.unregister();
  });
}

/**
 * Collects every Content-Security-Policy violation of `context`'s pages into `into`, as "directive blocked-URI or
 * sample" (the page's `securitypolicyviolation` events, reported through a binding).
 */
export async function collectCspViolations(context: BrowserContext, into: string[]): Promise<void> {
  await context.exposeBinding("__reportCsp", (_s, v: string) => {
    into.push(v);
  });
  await context.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) => {
      const report = (window as unknown as { __reportCsp: (v: string) => void }).__reportCsp;
      void report(`${e.effectiveDirective} ${e.blockedURI || e.sample}`);
    });
  });
}
