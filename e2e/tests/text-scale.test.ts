import { LANGUAGES } from "@aquapilot/contract";
import type { DevSystem } from "@aquapilot/dev";
import type { BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openRoute } from "../support/api.ts";
import { launchPhone, newPageIn, signInAsDemo } from "../support/browser.ts";
import { goToRoute, ROUTES } from "../support/routes.ts";
import { demoRouteIds, demoSoftener, startTestSystem } from "../support/system.ts";
import { enlargeText, textScaleProblems } from "../support/text-scale.ts";

/**
 * Text at 200 % at 375 px (WCAG 1.4.4): with the phone's text size doubled (CSS `text-size-adjust`, as a mobile engine
 * applies the system's font size), every route of spec §2 in each of the five languages shows all its text — none
 * cut by an ellipsis or a line clamp, clipped, pushed off the screen's sides or below a bar — and no two texts drawn
 * over each other, at the page's top and at its end. The app measures the enlarged text and switches to its
 * large-text layout (`html[data-large-text]`); at the usual size it keeps its design, and there too cuts nothing but
 * what it means to (the help list's two-line previews).
 */
describe("text at 200 % on every route at 375 px", () => {
  let system: DevSystem;
  let phone: { context: BrowserContext; close: () => Promise<void> };

  beforeAll(async () => {
    system = await startTestSystem({ SIM_DEVICES: "1" }, { models: ["AQ-S35"] });
    phone = await launchPhone("en-US");
    await demoSoftener(system);
    const page = await phone.context.newPage();
    await signInAsDemo(page, system.url);
    await page.close();
  });
  afterAll(async () => {
    await phone?.close();
    await system?.close();
  });

  it("at the usual text size the app keeps its design (no large-text layout)", async () => {
    const page = await newPageIn(phone.context, "en");
    await openRoute(page, system.url, "/index/home", null, "home-screen");
    const root = await page.evaluate(() => ({
      large: document.documentElement.hasAttribute("data-large-text"),
      scale: document.documentElement.style.getPropertyValue("--text-scale"),
    }));
    expect(root).toEqual({ large: false, scale: "1" });
    await page.close();
  });

  it("Login, signed out, in every language", async () => {
    const signedOut = await launchPhone("en-US");
    try {
      const failures: string[] = [];
      for (const lang of LANGUAGES) {
        const page = await newPageIn(signedOut.context, lang);
        await enlargeText(page, 200);
        await page.goto(`${system.url}/#/login`);
        await page.locator('[data-route="Login"]:not([inert] *)').first().waitFor();
        await page.waitForTimeout(500);
        for (const problem of await textScaleProblems(page)) failures.push(`Login ${lang}: ${problem}`);
        await page.close();
      }
      expect(failures).toEqual([]);
    } finally {
      await signedOut.close();
    }
  });

  /**
   * What the usual text size may cut, each on purpose: a help article's summary in the list is a preview of two lines
   * (the article shows it whole).
   */
  const CUT_AT_USUAL_SIZE = [/^Article: cut: .* \(span\.help-row__summary in help-row\) is clamped to 2 lines$/];

  /** Walks every route (Login apart) at `percent` text size in `lang`; answers the problems, one line each. */
  async function walk(lang: string, percent: number): Promise<string[]> {
    const ids = await demoRouteIds(system);
    const page = await newPageIn(phone.context, lang);
    await page.emulateMedia({ reducedMotion: "reduce" });
    if (percent !== 100) await enlargeText(page, percent);
    await openRoute(page, system.url, "/index/home", null, "home-screen");
    expect(
      await page.evaluate(() => ({
        large: document.documentElement.hasAttribute("data-large-text"),
        scale: document.documentElement.style.getPropertyValue("--text-scale"),
      })),
      "the app measured the text size",
    ).toEqual({ large: percent >= 130, scale: String(percent / 100) });
    const failures: string[] = [];
    for (const route of ROUTES) {
      if (route.shows) continue;
      await goToRoute(page, route, ids);
      // Screens drawn part by part add their last rows within a few tasks.
      await page.waitForTimeout(300);
      for (const problem of await textScaleProblems(page)) failures.push(`${route.name}: ${problem}`);
    }
    await page.close();
    return failures;
  }

  it.each(LANGUAGES)("every other route in %s at the usual size cuts only what it means to", async (lang) => {
    const failures = await walk(lang, 100);
    expect(failures.filter((f) => !CUT_AT_USUAL_SIZE.some((allowed) => allowed.test(f)))).toEqual([]);
  });

  it.each(LANGUAGES)("every other route in %s at twice the text size", async (lang) => {
    expect(await walk(lang, 200)).toEqual([]);
  });
});
