import fs from "node:fs";
import path from "node:path";
import { LANGUAGES } from "@aquapilot/contract/wire";
import type { DevSystem } from "@aquapilot/dev";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  collectCspViolations,
  holdRoute,
  launchPhone,
  type Phone,
  signInAsDemo,
  snap,
  withoutWorker,
} from "../support/browser.ts";
import { startTestSystem } from "../support/system.ts";

/** Login's title in `lang`, from the app's own texts. */
function welcome(lang: string): string {
  const file = path.join(import.meta.dirname, `../../apps/web/src/locales/${lang}.json`);
  return (JSON.parse(fs.readFileSync(file, "utf8")) as { login: { welcome: string } }).login.welcome;
}

/** The Device screen's texts in `lang` (apps/web/src/features/device/locales). */
function deviceTexts(lang: string): { saltGauge: { reminderHint: string }; deviceControl: { timeSync: string } } {
  const file = path.join(import.meta.dirname, "../../apps/web/src/features/device/locales", `${lang}.json`);
  return JSON.parse(fs.readFileSync(file, "utf8"));
}

/** The built entry module: blocking it leaves the page as the HTML and CSS alone paint it. */
const ENTRY_SCRIPT = /\/assets\/index-[^/]*\.js$/;

/**
 * The prerendered first screen (a phone opens the app fast): index.html carries the Login screen in the
 * five languages and boot.js shows the stored language's copy on #/login before any of the app's JavaScript has run;
 * the app's first render then puts the real Login in its place — the same elements, no loading spinner in between —
 * and the owner types into the real fields. Other routes paint nothing early.
 */
describe("the first screen paints before the app's JavaScript has run", () => {
  let system: DevSystem;
  let phone: Phone;

  beforeAll(async () => {
    system = await startTestSystem({ SIM_DEVICES: "0" });
    phone = await launchPhone("en-US");
  });
  afterAll(async () => {
    await phone?.close();
    await system?.close();
  });

  async function openPage(lang: string | null, blockApp: boolean): Promise<Page> {
    const page = await phone.context.newPage();
    await page.addInitScript((l) => {
      if (!location.protocol.startsWith("http")) return; // about:blank has no storage: it throws there
      localStorage.clear();
      if (l) localStorage.setItem("lang", JSON.stringify(l));
    }, lang);
    if (blockApp) {
      phone.expectErrors(
        /^(request failed: GET \S+\/assets\/index-[^/ ]*\.js net::ERR_FAILED|Failed to load resource: net::ERR_FAILED \(at \S+\/assets\/index-[^/ ]*\.js\))$/,
        "the test blocks the app's entry script to see what the HTML and CSS alone paint",
      );
      await page.route(ENTRY_SCRIPT, (r) => r.abort());
    }
    return page;
  }

  it("without the app, #/login shows Login in the stored language, and only that copy, which takes no input", async () => {
    for (const lang of LANGUAGES) {
      const page = await openPage(lang, true);
      await page.goto(`${system.url}/#/login`);
      const shown = page.locator(".prerender:visible");
      await expect.poll(() => shown.count()).toBe(1);
      expect(await shown.getAttribute("lang")).toBe(lang);
      expect(await shown.locator("h1").textContent()).toBe(welcome(lang));
      expect(await page.evaluate(() => document.documentElement.lang)).toBe(lang);
      // Inert: typing goes nowhere (nothing can be lost when the real page takes over).
      await page.mouse.click(187, 280);
      await page.keyboard.type("owner@example.com");
      expect(await shown.locator("input").first().inputValue()).toBe("");
      // Nothing for tests or the app to find: the real page has the ids.
      expect(await page.locator("[data-testid], [data-route]").count()).toBe(0);
      await page.close();
    }
  });

  it("the app replaces it by the same Login, with no spinner in between, and the fields take what is typed", async () => {
    for (const lang of ["ru", null] as const) {
      const page = await openPage(lang, false);
      await page.addInitScript(() => {
        const w = window as unknown as { __copy?: string; __spinner?: boolean; __tops?: number[][] };
        w.__tops = [];
        document.addEventListener("DOMContentLoaded", () => {
          const root = document.getElementById("root");
          if (!root) return;
          const copy = root.querySelector(`.prerender[lang="${document.documentElement.lang}"]`);
          w.__copy = copy?.innerHTML;
          new MutationObserver(() => {
            if (document.body.querySelector(".guard-wait")) w.__spinner = true;
            // Where the title and the submit button are drawn: in the copy, in the live Login drawn beneath it, and
            // in the live Login once shown.
            const lang = document.documentElement.getAttribute("data-prerender");
            const tops = [`.prerender[lang="${lang}"]`, ".root-staging", "#root:not(:has(.prerender))"].flatMap(
              (where) =>
                ["h1", "button[type=submit]"].map((what) => {
                  const at = document.querySelector(`${where} ${what}`);
                  return at && getComputedStyle(at).display !== "none"
                    ? Math.round(at.getBoundingClientRect().top)
                    : -1;
                }),
            );
            if (w.__tops?.at(-1)?.join() !== tops.join()) w.__tops?.push(tops);
          }).observe(document.body, { childList: true, subtree: true, attributes: true });
        });
      });
      await page.goto(`${system.url}/#/login`);
      await page.getByTestId("login-screen").waitFor();
      const shownLang = lang ?? "zh-Hans";
      expect(await page.evaluate(() => document.documentElement.getAttribute("data-prerender"))).toBe(shownLang);
      const { copy, real, spinner } = await page.evaluate(() => {
        const w = window as unknown as { __copy?: string; __spinner?: boolean };
        /**
         * The markup without what the copy leaves out (ids, test ids, route names, inline styles), with each element's
         * attributes in name order and without `value`: the copy is rendered by React and the app by Preact
         * (docs/adr/0026-preact-in-the-production-build.md), which writes `class` last and sets a controlled input's
         * value as a property only.
         */
        const normal = (html: string) => {
          const box = document.createElement("div");
          // inline styles are left out before parsing: the page's style-src policy refuses (and reports) parsed ones
          box.innerHTML = html.replace(/\sstyle="[^"]*"/g, "");
          for (const el of box.querySelectorAll("*")) {
            for (const a of ["id", "data-testid", "data-route", "style", "for", "aria-describedby", "value"])
              el.removeAttribute(a);
            el.classList.remove("prerender-icon");
            if (el.getAttribute("class") === "") el.removeAttribute("class");
            const attrs = [...el.attributes]
              .map((a) => [a.name, a.value] as const)
              .sort(([a], [b]) => a.localeCompare(b));
            for (const [name] of attrs) el.removeAttribute(name);
            for (const [name, value] of attrs) el.setAttribute(name, value);
          }
          return box.innerHTML;
        };
        return {
          copy: normal(w.__copy ?? ""),
          real: normal(document.getElementById("root")?.innerHTML ?? ""),
          spinner: w.__spinner === true,
        };
      });
      expect(copy.length).toBeGreaterThan(1000);
      expect(real).toBe(copy);
      expect(spinner).toBe(false);
      expect(await page.locator(".prerender").count()).toBe(0);
      // The live Login is drawn beneath the copy, part by part (first-paint/snapshot.ts), exactly where the copy shows
      // it, and shown in one step without moving.
      const tops = await page.evaluate(() => (window as unknown as { __tops: number[][] }).__tops);
      const copyTops = tops.find(([title, submit]) => title > 0 && submit > 0)?.slice(0, 2) ?? [];
      expect(copyTops).toHaveLength(2);
      const staged = tops.filter(([, , title, submit]) => title !== -1 && submit !== -1);
      expect(staged.length).toBeGreaterThan(0);
      expect(staged.every((t) => t.slice(0, 4).join() === [...copyTops, ...copyTops].join())).toBe(true);
      expect(tops.at(-1)).toEqual([-1, -1, -1, -1, ...copyTops]);
      expect(await page.locator("h1").textContent()).toBe(welcome(shownLang));
      await page.getByTestId("login-account").fill("owner@example.com");
      expect(await page.getByTestId("login-account").inputValue()).toBe("owner@example.com");
      await page.close();
    }
  });

  it("nothing is painted early on another route", async () => {
    for (const hash of ["#/index/home", "#/Register", ""]) {
      const page = await openPage("en", true);
      await page.goto(`${system.url}/${hash}`);
      await page.waitForLoadState("load");
      expect(await page.evaluate(() => document.documentElement.hasAttribute("data-prerender"))).toBe(false);
      expect(await page.locator(".prerender:visible").count()).toBe(0);
      await page.close();
    }
  });
});

/**
 * The Device screen's prerendered frame (the Device screen is interactive within 2 s): index.html holds the screen as
 * it shows while its device loads, in each language, and boot.js paints it on a signed-in start on a device's screen
 * (a reload there, a notification opening it) before any of the app's JavaScript has run — under the strict CSP,
 * within the phone's width, taking no taps — and the live screen then replaces it. The Device screen opened first,
 * with its early calls, is e2e/tests/device-screen.test.ts.
 */
describe("the Device screen's frame paints before the app's JavaScript has run", () => {
  let system: DevSystem;
  let phone: Phone;
  const violations: string[] = [];

  beforeAll(async () => {
    system = await startTestSystem({ SIM_DEVICES: "1" });
    phone = await launchPhone("en-US");
    await collectCspViolations(phone.context, violations);
  });
  afterAll(async () => {
    await phone?.close();
    await system?.close();
  });

  it("paints in each of the five languages, fits 375 px, takes no taps, and the live screen replaces it", async () => {
    const page = await phone.context.newPage();
    await signInAsDemo(page, system.url);
    await page.locator('[data-testid="device-card"]').first().click();
    await page.locator('[data-testid="device-screen"] .device-page').waitFor({ timeout: 20_000 });
    const deviceUrl = page.url();
    const name = await page.getByTestId("device-name").textContent();
    phone.expectErrors(
      /^Failed to load resource: the server responded with a status of 404 \(Not Found\) \(at \S+\/favicon\.ico\)$/,
      "a JSON document names no icon: Chromium asks for /favicon.ico, which the app does not serve",
    );
    await page.goto(`${system.url}/version.json`);
    await withoutWorker(page);
    for (const lang of LANGUAGES) {
      await page.evaluate((l) => localStorage.setItem("lang", JSON.stringify(l)), lang);
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
