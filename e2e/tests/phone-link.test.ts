import { DEMO_ACCOUNT, type DevSystem } from "@aquapilot/dev";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accessToken, apiCall } from "../support/api.ts";
import { launchPhone, type Phone, snap, storeLanguage, UNREACHABLE_LOG } from "../support/browser.ts";
import { type SlowLink, startSlowLink } from "../support/slow-link.ts";
import { startTestSystem } from "../support/system.ts";

/**
 * The phone's link to the cloud as an owner meets it on the Device screen (docs/architecture.md "What the phone
 * shows"): the phone going offline and the server going away each bring, within 5 s, a banner saying so and since
 * when the figures date, greyed figures, "Live" gone and the controls off with the reason; when the link returns the
 * banner goes and what changed meanwhile shows without a pull to refresh. The app is opened through a TCP relay
 * (support/slow-link.ts) that the test cuts to play a server that went away.
 */
describe("the phone's link to the cloud", () => {
  let system: DevSystem;
  let link: SlowLink;
  let phone: Phone;
  let page: Page;
  let deviceId: string;
  let token: string;

  beforeAll(async () => {
    system = await startTestSystem({ SIM_DEVICES: "1" });
    link = await startSlowLink(system.url);
    phone = await launchPhone("en-US");
    await storeLanguage(phone.context, "en");
    page = await phone.context.newPage();
    await page.goto(`${link.url}/#/login`);
    await page.getByTestId("login-account").fill(DEMO_ACCOUNT.email);
    await page.getByTestId("login-password").fill(DEMO_ACCOUNT.password);
    await page.getByTestId("login-submit").click();
    await page.getByTestId("home-screen").waitFor({ timeout: 15_000 });
    const row = await system.db.selectFrom("devices").select(["id", "family_id"]).executeTakeFirstOrThrow();
    deviceId = row.id;
    const q = new URLSearchParams({
      target: "/Device",
      params: JSON.stringify({ deviceId, familyId: row.family_id }),
    });
    await page.goto(`${link.url}/#/App?${q}`);
    await page.getByTestId("device-screen").waitFor({ timeout: 15_000 });
    token = await accessToken(system.url, DEMO_ACCOUNT.email, DEMO_ACCOUNT.password);
  });
  afterAll(async () => {
    await phone?.close();
    await link?.close();
    await system?.close();
  });

  /** Waits until the Device screen says "Live" (phone link up, device online) and its controls are on. */
  async function live(): Promise<void> {
    await expect
      .poll(() => page.getByTestId("device-channel").getAttribute("data-live"), { timeout: 15_000 })
      .toBe("true");
    await expect(page.getByTestId("link-banner").count()).resolves.toBe(0);
    await expect(page.getByTestId("control-forced-regeneration").isDisabled()).resolves.toBe(false);
  }

  /** What the screen shows while the link is lost: the banner and its age, "Live" gone, controls off with why. */
  async function lost(state: "offline" | "reconnecting", lostAt: number): Promise<void> {
    const banner = page.getByTestId("link-banner");
    await banner.waitFor({ timeout: 5000 });
    expect(await banner.getAttribute("data-state")).toBe(state);
    // The figures date from when the link went (give or take the grace of a reconnecting hub).
    const since = Number(await banner.getAttribute("data-since"));
    expect(since).toBeGreaterThanOrEqual(lostAt - 1000);
    expect(since).toBeLessThanOrEqual(lostAt + 3000);
    const time = await page.evaluate(
      (ms) => new Date(ms).toLocaleTimeString("en-US", { hour: "2-digit", minute: "2-digit" }),
      since,
    );
    expect(await banner.textContent()).toContain(time);
    expect(await banner.textContent()).toMatch(state === "offline" ? /No connection/ : /Can't reach AquaPilot/);
    expect(await page.locator("html").getAttribute("data-link")).toBe("lost");
    expect(await page.getByTestId("device-channel").getAttribute("data-live")).toBe("false");
    expect(await page.getByTestId("control-forced-regeneration").isDisabled()).toBe(true);
    expect(await page.getByTestId("control-vacation-enter").isDisabled()).toBe(true);
    expect(await page.getByTestId("device-controls-off").textContent()).toBe(
      "Controls are off until the connection is back",
    );
  }

  it("the phone going offline: a banner within 5 s, controls off; back online, the change made meanwhile shows", async () => {
    await live();
    // The page's calls from here on, named in the failure should the change made meanwhile not show.
    const asked: string[] = [];
    const t0 = Date.now();
    const note = (what: string) => asked.push(`+${Date.now() - t0} ms ${what}`);
    const call = (url: string) => url.split("?")[0].split("/").pop();
    page.on("request", (r) => r.url().includes("/api/") && note(`ask ${call(r.url())}`));
    page.on(
      "requestfailed",
      (r) => r.url().includes("/api/") && note(`failed ${call(r.url())} ${r.failure()?.errorText}`),
    );
    page.on("response", (r) => r.url().includes("/api/") && note(`answer ${call(r.url())} ${r.status()}`));
    const lostAt = Date.now();
    await phone.context.setOffline(true);
    note("offline");
    await lost("offline", lostAt);
    await snap(page, "phone-link-offline");
    // Someone renames the device while this phone is offline.
    const renamed = `Softener ${Date.now() % 10_000}`;
    const answer = await apiCall(
      system.url,
      `/api/run-lucky/device/app/device/update-device-name?deviceId=${deviceId}&name=${encodeURIComponent(renamed)}`,
      { method: "POST", token },
    );
    expect(answer.status).toBe(200);
    note("renamed");
    await phone.context.setOffline(false);
    note("online");
    await live();
    note("live");
    await expect
      .poll(() => page.getByTestId("device-name").textContent())
      .toBe(renamed)
      .catch((err: Error) => {
        throw new Error(`${err.message}; the page's calls: ${asked.join("; ")}`);
      });
  });

  it("the server going away: 'Can't reach AquaPilot' within 5 s; back when it returns", async () => {
    await live();
    const lostAt = Date.now();
    phone.expectErrors(UNREACHABLE_LOG, "the test takes the server away");
    link.cut();
    await lost("reconnecting", lostAt);
    await snap(page, "phone-link-server-gone");
    link.restore();
    // The hub retries with backoff (0.5–1 s, then 1–2 s, …): back within a few seconds of the server's return.
    await live();
  });
});
