import { readFileSync } from "node:fs";
import path from "node:path";
import type { DevSystem } from "@aquapilot/dev";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  collectCspViolations,
  holdRoute,
  launchPhone,
  newPageIn,
  signInAsDemo,
  snap,
  withoutWorker,
} from "../support/browser.ts";
import { startTestSystem } from "../support/system.ts";

/** The built entry module: holding it keeps the page as boot.js painted it. */
const ENTRY_SCRIPT = /\/assets\/index-[^/]*\.js$/;

/** The Device screen's texts in `lang` (apps/web/src/features/device/locales). */
function deviceTexts(lang: string): { saltGauge: { reminderHint: string }; deviceControl: { timeSync: string } } {
  const file = path.join(import.meta.dirname, "../../apps/web/src/features/device/locales", `${lang}.json`);
  return JSON.parse(readFileSync(file, "utf8"));
}

/** What the page shows of the Device screen: the snapshot's mark, #root's state, the name and the live chip. */
async function shown(page: Page) {
  return page.evaluate(() => {
    const root = document.getElementById("root");
    const chip = document.querySelector(".device-hero__live");
    return {
      snapshot: document.documentElement.getAttribute("data-snapshot"),
      inert: root?.inert ?? null,
      busy: root?.getAttribute("aria-busy") ?? null,
      name: document.querySelector(".device-hero__name")?.textContent ?? null,
      chip: chip ? getComputedStyle(chip).visibility : null,
    };
  });
}

/**
 * The last Device screen on the next start there: an owner who reloads the Device screen, or
 * reopens the app on it, sees that device's screen at once, painted by boot.js from what the app kept, before any of
 * the app's JavaScript has run — under the strict CSP, taking no taps, its live chip hidden — and the app then
 * replaces it with the live screen, which answers taps. Another device's screen paints nothing of it.
 */
describe("the last Device screen paints before the app's JavaScript has run", () => {
  let system: DevSystem;
  let phone: { context: BrowserContext; close: () => Promise<void> };
  const violations: string[] = [];

  beforeAll(async () => {
    system = await startTestSystem({ SIM_DEVICES: "2" });
    phone = await launchPhone("en-US");
    await collectCspViolations(phone.context, violations);
  });
  afterAll(async () => {
    await phone?.close();
    await system?.close();
  });

  it("is kept while the screen shows, painted on a reload there, inert, and replaced by the live screen", async () => {
    const page = await newPageIn(phone.context, "en");
    await signInAsDemo(page, system.url);
    await page.locator('[data-testid="device-card"]').first().click();
    await page.locator('[data-testid="device-screen"] .device-page').waitFor({ timeout: 20_000 });
    const deviceUrl = page.url();
    const name = await page.getByTestId("device-name").textContent();
    await expect
      .poll(() => page.evaluate(() => localStorage.getItem("deviceSnapshot") !== null), { timeout: 10_000 })
      .toBe(true);
    await withoutWorker(page);

    const release = await holdRoute(page, ENTRY_SCRIPT);
    // Between the snapshot and the live screen, no spinner: the first render is the screen with its data.
    await page.addInitScript(() => {
      const w = window as unknown as { __between?: string[] };
      w.__between = [];
      document.addEventListener("DOMContentLoaded", () => {
        new MutationObserver(() => {
          for (const what of [".guard-wait", '[data-testid="device-frame"]', ".adm-spin-loading"]) {
            if (document.body.querySelector(what) && !w.__between?.includes(what)) w.__between?.push(what);
          }
        }).observe(document.body, { childList: true, subtree: true });
      });
    });
    await page.reload();
    await expect.poll(() => shown(page).then((s) => s.snapshot)).toBe("device");
    expect(await shown(page)).toEqual({ snapshot: "device", inert: true, busy: "true", name, chip: "hidden" });
    await snap(page, "device-snapshot-before-app");
    // A tap on the snapshot goes nowhere (it has no handlers and is inert).
    await page.locator(".device-links__item").first().click({ force: true });
    expect(page.url()).toBe(deviceUrl);

    release();
    await expect.poll(() => shown(page).then((s) => s.snapshot), { timeout: 15_000 }).toBeNull();
    expect(await shown(page)).toEqual({ snapshot: null, inert: false, busy: null, name, chip: "visible" });
    expect(await page.evaluate(() => (window as unknown as { __between: string[] }).__between)).toEqual([]);
    // The live screen answers taps.
    await page.getByTestId("device-open-attribute").click();
    await expect.poll(() => page.url()).toContain("#/DeviceAttribute");
    expect(violations).toEqual([]);
    await page.close();
  });

  it("is not painted on another device's screen", async () => {
    const page = await newPageIn(phone.context, "en");
    await page.goto(`${system.url}/#/index/home`);
    await page.locator('[data-testid="device-card"]').nth(1).waitFor({ timeout: 20_000 });
    await page.locator('[data-testid="device-card"]').first().click();
    await page.locator('[data-testid="device-screen"] .device-page').waitFor({ timeout: 20_000 });
    const first = page.url();
    await expect
      .poll(() => page.evaluate(() => localStorage.getItem("deviceSnapshot") !== null), { timeout: 10_000 })
      .toBe(true);
    await page.goBack();
    await page.locator('[data-testid="device-card"]').nth(1).click();
    await page.locator('[data-testid="device-screen"] .device-page').waitFor({ timeout: 20_000 });
    const second = page.url();
    expect(second).not.toBe(first);
    await withoutWorker(page);
    // Left from a page without the app (leaving the screen keeps its own snapshot): then the first device's is kept.
    await page.goto(`${system.url}/version.json`);
    await page.goto(first);
    await page.locator('[data-testid="device-screen"] .device-page').waitFor({ timeout: 20_000 });
    await page.goto(`${system.url}/version.json`);
    await withoutWorker(page);
    await page.route(ENTRY_SCRIPT, (route) => route.abort());
    await page.goto(second);
    await page.waitForLoadState("load");
    expect((await shown(page)).snapshot).toBeNull();
    expect(await page.locator(".device-page").count()).toBe(0);
    // The first device's screen does paint it (the check above could have seen one).
    await page.goto(`${system.url}/version.json`);
    await page.goto(first);
    await expect.poll(() => shown(page).then((s) => s.snapshot)).toBe("device");
    await page.close();
  });

  it("opened on a device with no snapshot of it: its frame paints in each of the five languages, fits 375 px, takes no taps, and the live screen replaces it", async () => {
    // The Device screen is interactive within 2 s: index.html holds the screen as it shows while its device
    // loads, in each language, and boot.js paints it before the app's JavaScript has run.
    const page = await phone.context.newPage();
    await signInAsDemo(page, system.url);
    await page.locator('[data-testid="device-card"]').first().click();
    await page.locator('[data-testid="device-screen"] .device-page').waitFor({ timeout: 20_000 });
    const deviceUrl = page.url();
    const name = await page.getByTestId("device-name").textContent();
    await page.goto(`${system.url}/version.json`);
    await withoutWorker(page);
    for (const lang of ["zh-Hans", "en", "es", "ru", "fr"]) {
      await page.evaluate((l) => {
        localStorage.setItem("lang", JSON.stringify(l));
        localStorage.removeItem("deviceSnapshot");
      }, lang);
      const release = await holdRoute(page, ENTRY_SCRIPT);
      await page.goto(deviceUrl);
      await expect
        .poll(() => page.evaluate(() => document.documentElement.getAttribute("data-prerender-screen")))
        .toBe("device");
      const frame = page.locator('#root .prerender[data-screen="device"]:visible');
      expect(await frame.getAttribute("lang")).toBe(lang);
      expect(await page.evaluate(() => document.documentElement.lang)).toBe(lang);
      const texts = deviceTexts(lang);
      await frame.getByText(texts.saltGauge.reminderHint).waitFor();
      // Laid out within the phone's width: nothing sticks out or makes the page scroll sideways.
      const outside = await page.evaluate(() => {
        const width = document.documentElement.clientWidth;
        const shown = [...document.querySelectorAll<HTMLElement>('#root .prerender[data-screen="device"] *')].filter(
          (e) => e.getClientRects().length > 0,
        );
        return {
          scroll: document.documentElement.scrollWidth - width,
          out: shown
            .filter((e) => e.getBoundingClientRect().right > width + 0.5)
            .map((e) => `${e.className || e.localName} ${e.getBoundingClientRect().right}`),
        };
      });
      await snap(page, `device-frame-${lang}`);
      expect(outside, lang).toEqual({ scroll: 0, out: [] });
      // It takes no taps: the page stays where it is.
      await frame.getByText(texts.deviceControl.timeSync).click({ force: true });
      expect(page.url()).toBe(deviceUrl);
      release();
      await page.locator('[data-testid="device-screen"] .device-page').waitFor({ timeout: 20_000 });
      expect(await page.locator("#root .prerender").count()).toBe(0);
      expect(await page.getByTestId("device-name").textContent()).toBe(name);
      await page.unroute(ENTRY_SCRIPT);
      await page.goto(`${system.url}/version.json`);
      await withoutWorker(page);
    }
    expect(violations).toEqual([]);
    await page.close();
  });
});
