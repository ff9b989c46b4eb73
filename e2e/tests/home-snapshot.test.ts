import type { DevSystem } from "@aquapilot/dev";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  collectCspViolations,
  holdRoute,
  launchPhone,
  newPageIn,
  type Phone,
  signInAsDemo,
  snap,
  withoutWorker,
} from "../support/browser.ts";
import { startTestSystem } from "../support/system.ts";

/** The built entry module: holding it keeps the page as boot.js painted it. */
const ENTRY_SCRIPT = /\/assets\/index-[^/]*\.js$/;

/**
 * What the page shows of Home: the snapshot's mark, #root's state, the cards' names and whether the live chip shows
 * (the snapshot's would tell a connection state of the past).
 */
async function shown(page: Page) {
  return page.evaluate(() => {
    const root = document.getElementById("root");
    return {
      snapshot: document.documentElement.getAttribute("data-snapshot"),
      inert: root?.inert ?? null,
      busy: root?.getAttribute("aria-busy") ?? null,
      names: [...document.querySelectorAll(".device-card__name")].map((e) => e.textContent),
      chip: (() => {
        const chip = document.querySelector(".live-chip");
        return chip ? getComputedStyle(chip).visibility : null;
      })(),
    };
  });
}

/**
 * The last Home on the next start: an owner who saw Home reopens the app and sees that Home at once,
 * painted by boot.js from what the app kept, before any of the app's JavaScript has run — under the strict CSP,
 * taking no taps — and the app then replaces it with the live Home, which answers taps. Signing out removes it.
 */
describe("the last Home paints before the app's JavaScript has run", () => {
  let system: DevSystem;
  let phone: Phone;
  const violations: string[] = [];

  beforeAll(async () => {
    system = await startTestSystem({ SIM_DEVICES: "3" });
    phone = await launchPhone("en-US");
    await collectCspViolations(phone.context, violations);
  });
  afterAll(async () => {
    await phone?.close();
    await system?.close();
  });

  it("is kept while Home shows, painted on the next start, inert, and replaced by the live Home", async () => {
    const page = await newPageIn(phone.context, "en");
    await signInAsDemo(page, system.url);
    await page.locator('[data-testid="device-card"]').nth(2).waitFor({ timeout: 20_000 });
    const live = await page.locator(".device-card__name").allTextContents();
    await expect
      .poll(() => page.evaluate(() => localStorage.getItem("homeSnapshot") !== null), { timeout: 10_000 })
      .toBe(true);
    await withoutWorker(page);

    const release = await holdRoute(page, ENTRY_SCRIPT);
    // Between the snapshot and the live Home, no spinner and no skeleton: the first render is Home with its data. The
    // live Home is drawn beneath the snapshot (first-paint/snapshot.ts), so no moment shows fewer cards than the
    // snapshot.
    await page.addInitScript(() => {
      const w = window as unknown as { __between?: string[]; __seen?: number[]; __tops?: number[][] };
      w.__between = [];
      w.__seen = [];
      w.__tops = [];
      document.addEventListener("DOMContentLoaded", () => {
        new MutationObserver(() => {
          for (const what of [".guard-wait", ".device-card--skeleton", ".adm-spin-loading"]) {
            if (document.body.querySelector(what) && !w.__between?.includes(what)) w.__between?.push(what);
          }
          const seen = [...document.querySelectorAll("#root .device-card")].filter(
            (card) => getComputedStyle(card).visibility === "visible",
          ).length;
          if (w.__seen?.at(-1) !== seen) w.__seen?.push(seen);
          // Where the first card is drawn: in the snapshot, in the live Home drawn beneath it, and once shown.
          const tops = ["#root .device-card", ".root-staging .device-card"].map((what) => {
            const card = document.querySelector(what);
            return card ? Math.round(card.getBoundingClientRect().top) : -1;
          });
          if (w.__tops?.at(-1)?.join() !== tops.join()) w.__tops?.push(tops);
        }).observe(document.body, { childList: true, subtree: true, attributes: true });
      });
    });
    await page.goto(`${system.url}/version.json`);
    await page.goto(`${system.url}/#/index/home`);
    await expect.poll(() => shown(page).then((s) => s.snapshot)).toBe("home");
    expect(await shown(page)).toEqual({ snapshot: "home", inert: true, busy: "true", names: live, chip: "hidden" });
    await snap(page, "home-snapshot-before-app");
    // A tap on the snapshot goes nowhere (it has no handlers and is inert).
    await page.locator(".device-card").first().click({ force: true });
    expect(page.url()).toContain("#/index/home");

    release();
    await expect.poll(() => shown(page).then((s) => s.snapshot), { timeout: 15_000 }).toBeNull();
    const after = await shown(page);
    expect(after).toEqual({ snapshot: null, inert: false, busy: null, names: live, chip: "visible" });
    await page.getByTestId("realtime-state").waitFor();
    expect(await page.evaluate(() => (window as unknown as { __between: string[] }).__between)).toEqual([]);
    // How many cards the page showed, change by change: boot.js painted them all at once and they never left.
    const seen = await page.evaluate(() => (window as unknown as { __seen: number[] }).__seen);
    expect(seen.slice(seen.indexOf(live.length))).toEqual([live.length]);
    expect(seen.filter((n) => n !== 0 && n !== live.length)).toEqual([]);
    // The live Home is drawn exactly beneath the snapshot and stays where it was when shown (no layout in the swap).
    const tops = await page.evaluate(() => (window as unknown as { __tops: number[][] }).__tops);
    const staged = tops.filter(([, beneath]) => beneath !== -1);
    expect(staged.length).toBeGreaterThan(0);
    const snapshotTop = (staged.at(-1) as number[])[0];
    expect(staged.every(([over, beneath]) => over === snapshotTop && beneath === snapshotTop)).toBe(true);
    expect(tops.at(-1)).toEqual([snapshotTop, -1]);
    // The live Home answers taps.
    await page.locator(".device-card").first().click();
    await expect.poll(() => page.url()).toContain("#/Device");
    expect(violations).toEqual([]);
    await page.close();
  });

  it("is gone after sign-out: the next start on Home paints nothing before the app", async () => {
    const page = await newPageIn(phone.context, "en");
    await page.goto(`${system.url}/#/index/home`);
    await page.locator('[data-testid="device-card"]').first().waitFor({ timeout: 20_000 });
    await expect
      .poll(() => page.evaluate(() => localStorage.getItem("homeSnapshot") !== null), { timeout: 10_000 })
      .toBe(true);
    // Sign-out from My, confirmed (spec §4 Logout).
    await page.goto(`${system.url}/#/index/my`);
    await page.getByTestId("logout").click();
    await page.locator(".adm-dialog-footer button").last().click();
    await page.getByTestId("login-screen").waitFor({ timeout: 15_000 });
    expect(await page.evaluate(() => localStorage.getItem("homeSnapshot"))).toBeNull();
    await withoutWorker(page);
    phone.expectErrors(
      /^(request failed: GET \S+\/assets\/index-[^/ ]*\.js net::ERR_FAILED|Failed to load resource: net::ERR_FAILED \(at \S+\/assets\/index-[^/ ]*\.js\))$/,
      "the test blocks the app's entry script to see what paints before it",
    );
    await page.route(ENTRY_SCRIPT, (route) => route.abort());
    await page.goto(`${system.url}/version.json`);
    await page.goto(`${system.url}/#/index/home`);
    await page.waitForLoadState("load");
    expect((await shown(page)).snapshot).toBeNull();
    expect(await page.locator(".device-card").count()).toBe(0);
    await page.close();
  });
});
