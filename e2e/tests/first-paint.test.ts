import fs from "node:fs";
import path from "node:path";
import { LANGUAGES } from "@aquapilot/contract/wire";
import type { DevSystem } from "@aquapilot/dev";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchPhone } from "../support/browser.ts";
import { startTestSystem } from "../support/system.ts";

/** Login's title in `lang`, from the app's own texts. */
function welcome(lang: string): string {
  const file = path.join(import.meta.dirname, `../../apps/web/src/locales/${lang}.json`);
  return (JSON.parse(fs.readFileSync(file, "utf8")) as { login: { welcome: string } }).login.welcome;
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
  let phone: { context: BrowserContext; close: () => Promise<void> };

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
      localStorage.clear();
      if (l) localStorage.setItem("lang", JSON.stringify(l));
    }, lang);
    if (blockApp) await page.route(ENTRY_SCRIPT, (r) => r.abort());
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
         * attributes in name order and without `value`: the copy is rendered by React and the app by Preact (decision
         * 37), which writes `class` last and sets a controlled input's value as a property only.
         */
        const normal = (html: string) => {
          const box = document.createElement("div");
          box.innerHTML = html;
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
