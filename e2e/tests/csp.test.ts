import { DEMO_ACCOUNT, type DevSystem } from "@aquapilot/dev";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PATHS } from "../../apps/web/src/shared/navigation/paths.ts";
import { accessToken, apiCall } from "../support/api.ts";
import { launchPhone, type Phone, settled, signInAsDemo, storeLanguage } from "../support/browser.ts";
import { startTestSystem } from "../support/system.ts";

/** One Content-Security-Policy violation seen by a page (its `securitypolicyviolation` event), with where it happened. */
interface Violation {
  route: string;
  directive: string;
  blocked: string;
  /** Script and line that caused it. */
  at: string;
}

/**
 * Collects CSP violations of every page of `context`: the `securitypolicyviolation` events, through a binding
 * installed before any script of the app runs; `route` tells which screen was open. Chromium's console errors about
 * the policy are the phone's error guard's (support/browser.ts): they fail the test that caused them.
 */
async function collectViolations(context: BrowserContext, where: () => string): Promise<Violation[]> {
  const seen: Violation[] = [];
  await context.exposeBinding("__reportCsp", (_source, v: { directive: string; blocked: string; at: string }) => {
    seen.push({ route: where(), ...v });
  });
  await context.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) => {
      const report = (window as unknown as { __reportCsp: (v: unknown) => void }).__reportCsp;
      void report({
        directive: e.effectiveDirective,
        blocked: e.blockedURI || e.sample || "inline",
        at: `${e.sourceFile}:${e.lineNumber}:${e.columnNumber}`,
      });
    });
  });
  return seen;
}

/**
 * The map's vendors (tiles, place search, reverse geocoding) live on the internet, which the test machine does not
 * reach: their requests fail on the name lookup (what the policy allows or blocks is decided before that).
 */
function expectVendorsOffline(phone: Phone): void {
  phone.expectErrors(
    /^(request failed: GET https:\/\/[^ ]+ |Failed to load resource: )net::ERR_NAME_NOT_RESOLVED/,
    "the map vendors' hosts are not reachable from the test machine",
  );
}

/**
 * Types "Bund" into the map's place search and waits for the search's call to the vendor (its URL carries the words)
 * to end, and for what it caused on the page.
 */
async function searchBund(page: Page): Promise<void> {
  const searched = page.waitForRequest((r) => r.url().includes("Bund"), { timeout: 15_000 });
  await page.getByTestId("address-select-search").fill("Bund");
  await searched;
  await settled(page);
}

/** Waits until a screen of the app is shown (its root `…-screen` element, or the page shell) and settles. */
async function settle(page: Page): Promise<void> {
  await page
    .locator('[data-testid$="-screen"], .page, [data-testid="address-select"]')
    .first()
    .waitFor({ timeout: 15_000 });
  await page.waitForLoadState("networkidle", { timeout: 5_000 }).catch(() => undefined);
  await settled(page);
}

/**
 * The strict Content-Security-Policy in Chromium: the built app, signed in as the demo owner, visits every
 * route of spec §2 (the list comes from apps/web's PATHS, so a new route is visited without a change here) with the
 * parameters a real visit carries, and opens the map with its tiles and place search; no CSP violation may be
 * reported, neither as a `securitypolicyviolation` event nor as a console error. The same map walk runs for each of
 * the four map providers (their tile, web-service and JSONP hosts differ). A deliberate inline script at the end
 * proves the collector sees violations.
 */
describe("the app under its Content-Security-Policy", () => {
  let system: DevSystem;
  let phone: Phone;
  let page: Page;
  let route = "(start)";
  let violations: Violation[];
  const visited = new Set<string>();

  beforeAll(async () => {
    system = await startTestSystem({ SIM_DEVICES: "1", MAP_TYPE: "4", MAP_KEY_TIANDITU: "csp-test-key" });
    phone = await launchPhone("en-US");
    await phone.context.grantPermissions(["notifications", "geolocation"], { origin: system.url });
    await storeLanguage(phone.context, "en");
    violations = await collectViolations(phone.context, () => route);
    page = await phone.context.newPage();
    route = "Login";
    await signInAsDemo(page, system.url);
  });
  afterAll(async () => {
    await phone?.close();
    await system?.close();
  });

  it("shows every screen without a CSP violation", async () => {
    expectVendorsOffline(phone);
    const device = await system.db.selectFrom("devices").select(["id", "family_id"]).executeTakeFirstOrThrow();
    const familyId = device.family_id ?? "";
    const owner = await system.db
      .selectFrom("users")
      .select("id")
      .where("email", "=", DEMO_ACCOUNT.email)
      .executeTakeFirstOrThrow();
    const familyUser = await system.db
      .selectFrom("family_members")
      .select("id")
      .where("user_id", "=", owner.id)
      .executeTakeFirstOrThrow();
    const token = await accessToken(system.url, DEMO_ACCOUNT.email, DEMO_ACCOUNT.password);
    const message = await apiCall<{ id: string }>(system.url, "/api/push-service/app/message/test-send-message", {
      method: "POST",
      token,
    });
    expect(message.status).toBe(200);
    const deviceParams = { deviceId: device.id, familyId };
    // What each route is opened with in the app (spec §2 params); a route missing here opens without params.
    const params: Partial<Record<keyof typeof PATHS, object>> = {
      DeviceSort: { familyId },
      MessageDetails: { id: message.result.id },
      FamilyDetails: { familyId },
      FamilyUpdate: { familyId },
      FamilyQrcode: { familyId },
      FamilyUserList: { familyId },
      FamilyUserDetails: { familyId, familyUserId: familyUser.id },
      FamilyShareList: { familyId },
      Device: deviceParams,
      DeviceAttribute: deviceParams,
      DeviceNameUpdate: deviceParams,
      DeviceInfo: deviceParams,
      DeviceSetting: deviceParams,
      DeviceNetwork: { familyId },
      DeviceNetworkNameUpdate: deviceParams,
      DeviceImage: deviceParams,
      Fault: { deviceId: device.id },
      Article: { id: "privacy-policy" },
      UpdateUserName: { field: "name" },
      UpdatePhoneEmail: { type: "email" },
      AfterSaleCreate: { deviceId: device.id },
      AddressSelect: { longitude: 121.491, latitude: 31.233 },
    };
    // Signing out, the start-up screens and Reload end the session or leave the page: visited last.
    const last = new Set(["App", "Splash", "Reload", "Login", "Register", "CountrySelect", "FindPassword"]);
    const names = (Object.keys(PATHS) as Array<keyof typeof PATHS>).sort(
      (a, b) => Number(last.has(a)) - Number(last.has(b)),
    );
    for (const name of names) {
      route = name;
      const p = params[name];
      const query = p ? `?${new URLSearchParams({ params: JSON.stringify(p) })}` : "";
      // The start-up screens and Reload navigate on their own, possibly before the page's load event: wait only for
      // the navigation to commit, then for the page to settle.
      await page.goto(`${system.url}/#${PATHS[name]}${query}`, last.has(name) ? { waitUntil: "commit" } : {});
      if (name === "Index") await page.getByTestId("home-screen").waitFor({ timeout: 15_000 });
      else await settle(page);
      if (name === "AddressSelect") {
        // The map with its tiles, the map-type switch (satellite tiles) and a place search (the vendor's service).
        await page.getByTestId("address-select-map").waitFor();
        await page.getByTestId("address-select-tool-maptype").click();
        await searchBund(page);
      }
      // Signed in: a guarded screen shows itself, not the sign-in screen.
      if (!last.has(name)) expect(await page.getByTestId("login-screen").count(), name).toBe(0);
      visited.add(name);
    }
    console.log(
      `csp: ${visited.size} screens visited of ${Object.keys(PATHS).length} routes, ${violations.length} CSP violations`,
    );
    expect(violations).toEqual([]);
    expect([...visited].sort()).toEqual(Object.keys(PATHS).sort());
  });

  it("reports a violation when something breaks the policy (the collector works)", async () => {
    route = "probe";
    // A page of its own: the last route visited (Reload) may still be navigating the other one, and its next
    // navigation would interrupt this one. The collector watches every page of the context.
    const probe = await phone.context.newPage();
    await probe.goto(`${system.url}/#/login`);
    await probe.getByTestId("login-screen").waitFor({ timeout: 15_000 });
    const before = violations.length;
    phone.expectErrors(
      /^Executing inline script violates the following Content Security Policy directive 'script-src /,
      "the probe adds an inline script on purpose",
    );
    await probe.evaluate(() => {
      const s = document.createElement("script");
      s.textContent = "window.__inlineRan = true";
      document.head.append(s);
    });
    await expect.poll(() => violations.length - before).toBeGreaterThan(0);
    expect(await probe.evaluate(() => (window as unknown as { __inlineRan?: boolean }).__inlineRan)).toBeUndefined();
    expect(violations.slice(before).some((v) => v.directive.startsWith("script-src"))).toBe(true);
  });
});

describe.each([
  ["1", "amap"],
  ["2", "baidu"],
  ["3", "tencent"],
])("the map of provider MAP_TYPE=%s (%s) under the CSP", (mapType, vendor) => {
  let system: DevSystem;
  let phone: Phone;
  let violations: Violation[];

  beforeAll(async () => {
    system = await startTestSystem({
      SIM_DEVICES: "0",
      MAP_TYPE: mapType,
      [`MAP_KEY_${vendor.toUpperCase()}`]: "csp-test-key",
    });
    phone = await launchPhone("en-US");
    await phone.context.grantPermissions(["geolocation"], { origin: system.url });
    await storeLanguage(phone.context, "en");
    violations = await collectViolations(phone.context, () => `AddressSelect (${vendor})`);
  });
  afterAll(async () => {
    await phone?.close();
    await system?.close();
  });

  it("loads tiles, switches to satellite and searches without a CSP violation", async () => {
    expectVendorsOffline(phone);
    const page = await phone.context.newPage();
    const hosts = new Set<string>();
    page.on("request", (r) => hosts.add(new URL(r.url()).host));
    await signInAsDemo(page, system.url);
    const q = new URLSearchParams({ params: JSON.stringify({ longitude: 121.491, latitude: 31.233 }) });
    await page.goto(`${system.url}/#${PATHS.AddressSelect}?${q}`);
    await page.getByTestId("address-select-map").waitFor({ timeout: 15_000 });
    // The map has asked its vendor for something (tiles) before the map type changes.
    await expect.poll(() => [...hosts].some((h) => h !== new URL(system.url).host)).toBe(true);
    await page.getByTestId("address-select-tool-maptype").click();
    await searchBund(page);
    console.log(`csp (${vendor}): map screen visited, ${violations.length} CSP violations`);
    // The map asked its vendor for something (tiles or the search), so the policy was really exercised.
    hosts.delete(new URL(system.url).host);
    expect(hosts.size).toBeGreaterThan(0);
    expect(violations).toEqual([]);
  });
});
