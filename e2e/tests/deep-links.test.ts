import fs from "node:fs";
import path from "node:path";
import { DEMO_ACCOUNT, type DevSystem } from "@aquapilot/dev";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchPhone, type Phone, signInAsDemo, snap, storeLanguage } from "../support/browser.ts";
import { hashOf, ROUTES, type RouteCase, type RouteIds } from "../support/routes.ts";
import { demoRouteIds, startTestSystem } from "../support/system.ts";

/**
 * Navigation never strands the owner (spec §2 routes, §4 routing): every route of spec §2 renders when the hash is set
 * to it in an open app; reloaded without the query values it needs it goes to its parent screen with a short toast;
 * opened signed out it goes to Login and, after sign-in, on to the route with its query.
 */

/** The toast of a route opened without the query values it needs, in English (src/locales/en.json). */
const MISSING_QUERY: string = JSON.parse(
  fs.readFileSync(path.join(import.meta.dirname, "../../apps/web/src/locales/en.json"), "utf8"),
).routing.missingQuery;

/** Where a route leads once it is opened (signed in): its own screen or where it redirects, and with or without a toast. */
function outcome(route: RouteCase, withParams: boolean): { screen: string; toast: boolean } {
  if (!withParams && route.parent) return { screen: route.parent, toast: true };
  return { screen: route.shows ?? route.name, toast: false };
}

describe("every route of spec §2 opens, in Chromium", () => {
  let system: DevSystem;
  let phone: Phone;
  let page: Page;
  let ids: RouteIds;
  /** The loads of the app (not about:blank) in `page` so far. */
  let appLoads = 0;

  beforeAll(async () => {
    system = await startTestSystem({ SIM_DEVICES: "1" });
    phone = await launchPhone("en-US");
    await storeLanguage(phone.context, "en");
    // Where the stored session went, should a screen land on Login unasked: each removal of the token, with its stack,
    // kept in the session's storage (it outlives the reloads) and named in expectScreen's failure.
    await phone.context.addInitScript(() => {
      const remove = Storage.prototype.removeItem;
      Storage.prototype.removeItem = function (this: Storage, key: string) {
        if (key === "token" && this === localStorage) {
          const seen = JSON.parse(sessionStorage.getItem("tokenRemovals") ?? "[]") as string[];
          seen.push(`${location.hash} ${new Error().stack?.split("\n").slice(1, 6).join(" < ")}`);
          sessionStorage.setItem("tokenRemovals", JSON.stringify(seen.slice(-5)));
        }
        return remove.call(this, key);
      };
    });
    page = await phone.context.newPage();
    page.on("load", (p) => {
      if (p.url().startsWith(system.url)) appLoads++;
    });
    await signInAsDemo(page, system.url);
    ids = await demoRouteIds(system);
  });
  afterAll(async () => {
    await phone?.close();
    await system?.close();
  });

  /** The routes whose frames are shown (the /index layout's frame holds the tab's). */
  const framesShown = () =>
    page.evaluate(() =>
      [...document.querySelectorAll("[data-route]")]
        // A screen still drawn out of sight beneath Login's prerendered copy (first-paint/snapshot.ts, staging) is
        // inert and not shown: typing into it before the swap would be lost.
        .filter((el) => !el.closest("[inert]"))
        .map((el) => el.getAttribute("data-route")),
    );

  /**
   * Waits (up to 15 s) until `name`'s screen is the one shown: its frame alone on the page (beside /index's for a tab),
   * past the guard's wait and the chunk's loading fallback. On failure says what shows instead.
   */
  async function expectScreen(name: string) {
    const expected = name === "Home" || name === "My" ? ["Index", name] : [name];
    try {
      await expect
        .poll(
          async () => {
            const frames = await framesShown();
            const waiting = await page.locator(`[data-route="${name}"] .guard-wait`).count();
            return waiting === 0 ? frames : [...frames, "waiting"];
          },
          { timeout: 15_000 },
        )
        .toEqual(expected);
    } catch (err) {
      const removals = await page.evaluate(() => sessionStorage.getItem("tokenRemovals"));
      throw new Error(
        `${name}: ${(err as Error).message}\nhash: ${await page.evaluate(() => location.hash)}\ntoken removed: ${removals}`,
      );
    }
  }

  it("setting the hash to each route in turn shows that route's screen", async () => {
    await page.getByTestId("home-screen").waitFor();
    for (const route of ROUTES) {
      await page.evaluate(
        (hash) => {
          window.location.hash = hash;
        },
        hashOf(route, ids),
      );
      await expectScreen(route.shows ?? route.name);
      // Back and forth between two screens too: the one before must give way each time.
      await page.evaluate(() => {
        window.location.hash = "#/Setting";
      });
      await expectScreen("Setting");
    }
  });

  /** Loads the app afresh at `hash` (a reload of that URL, not a hash change inside the running app). */
  async function reloadAt(hash: string) {
    await page.goto("about:blank");
    await page.goto(`${system.url}/${hash}`);
  }

  /** Waits for the missing-query toast (it shows for 2 s). */
  const expectToast = (name: string) =>
    expect.poll(() => page.locator(".adm-toast-main").allTextContents(), { message: name }).toContain(MISSING_QUERY);

  /** Signs the demo owner in on the Login screen showing now (without going to /login first). */
  async function signInHere() {
    await page.getByTestId("login-account").fill(DEMO_ACCOUNT.email);
    await page.getByTestId("login-password").fill(DEMO_ACCOUNT.password);
    await page.getByTestId("login-submit").click();
  }

  /** Signs out by dropping the stored session (what the guard reads), as after it expired. */
  const dropSession = () =>
    page.evaluate(() => {
      localStorage.removeItem("token");
      localStorage.removeItem("loginInfo");
    });

  it("signed in, each route reloaded with its query values shows its screen, and without them goes to its parent with a toast", async () => {
    for (const route of ROUTES) {
      for (const withParams of route.params ? [true, false] : [true]) {
        const expected = outcome(route, withParams);
        await reloadAt(hashOf(route, ids, withParams));
        await expectScreen(expected.screen);
        if (expected.toast) await expectToast(`${route.name} without its query`);
        if (route.name === "FamilyQrcode" && !withParams) await snap(page, "deep-link-missing-query");
      }
    }
  }, 300_000);

  it("signed out, a route reloaded goes to Login and, after sign-in, opens with its query (or its parent without it)", async () => {
    phone.expectErrors(
      /^Failed to load resource: the server responded with a status of 401 \(Unauthorized\) \(at [^ ]+\/api\//,
      "the test removes the stored sign-in under the open app, whose next calls then go without it",
    );
    for (const route of ROUTES) {
      if (route.open && !route.shows) {
        // Open routes (spec §2) need no sign-in.
        await dropSession();
        await reloadAt(hashOf(route, ids));
        await expectScreen(route.name);
        continue;
      }
      for (const withParams of route.params ? [true, false] : [true]) {
        const expected = outcome(route, withParams);
        await dropSession();
        // The guard reloads the page 1 s after it sent the visit to Login (spec §4): that reload (the app's second
        // load after the one reloadAt made) must keep Login with the route asked for.
        const loadsBefore = appLoads;
        await reloadAt(hashOf(route, ids, withParams));
        await expectScreen("Login");
        await expect.poll(() => appLoads - loadsBefore, { message: `${route.name}: the guard's reload` }).toBe(2);
        await expectScreen("Login");
        await signInHere();
        await expectScreen(expected.screen);
        if (expected.toast) await expectToast(`${route.name} without its query, after sign-in`);
        if (withParams && route.params) {
          const shown = await page.evaluate(() => new URLSearchParams(location.hash.split("?")[1] ?? "").get("params"));
          expect(JSON.parse(shown ?? "{}"), route.name).toEqual(route.params(ids));
        }
      }
    }
  }, 600_000);

  it("Login follows only a route of the app after sign-in, never another site", async () => {
    phone.expectErrors(
      /^Failed to load resource: the server responded with a status of 401 \(Unauthorized\) \(at [^ ]+\/api\//,
      "the test removes the stored sign-in under the open Home, whose calls in flight then go without it",
    );
    for (const returnTo of [
      "https://example.com/",
      "//example.com/Device",
      "/\\example.com",
      "javascript:alert(1)",
      "/Nowhere",
    ]) {
      await dropSession();
      await reloadAt(`#/login?${new URLSearchParams({ params: JSON.stringify({ returnTo }) })}`);
      await expectScreen("Login");
      await signInHere();
      await expectScreen("Home");
      expect(await page.evaluate(() => location.origin), returnTo).toBe(system.url);
    }
  });
});
