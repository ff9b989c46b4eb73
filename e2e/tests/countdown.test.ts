import type { DevSystem } from "@aquapilot/dev";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchPhone, newPageIn, type Phone, signInAsDemo, snap } from "../support/browser.ts";
import { startTestSystem } from "../support/system.ts";

/**
 * One clock: the station countdown on the Device screen, at the demo's own 60× clock, sampled twice a
 * second for a minute through a regeneration — with the screen remounted (a refetch) and a query report in between —
 * never increases within one station, ends no later than "back in service at HH:mm" (both on the phone's clock: at
 * 60× a one-hour station counts down one real minute), which is the phone's local time of the cycle's end.
 */
describe("the station countdown in Chromium", () => {
  let system: DevSystem;
  let phone: Phone;
  let page: Page;
  let deviceUrl: string;

  beforeAll(async () => {
    system = await startTestSystem({ SIM_DEVICES: "1", SIM_TIME_SCALE: "60" });
    phone = await launchPhone("en-US");
    page = await newPageIn(phone.context, "en");
    await signInAsDemo(page, system.url);
    const row = await system.db.selectFrom("devices").select(["id", "family_id"]).executeTakeFirstOrThrow();
    const q = new URLSearchParams({
      target: "/Device",
      params: JSON.stringify({ deviceId: row.id, familyId: row.family_id }),
    });
    deviceUrl = `${system.url}/#/App?${q}`;
    await page.goto(deviceUrl);
    await page.getByTestId("device-screen").waitFor({ timeout: 15_000 });
  });
  afterAll(async () => {
    await phone?.close();
    await system?.close();
  });

  /** One sample: the station shown and the countdown's seconds (null when none is shown). */
  async function sample(): Promise<{ station: string; seconds: number | null; serviceAt: number | null }> {
    return page.evaluate(() => {
      const station = document.querySelector('[data-testid="device-station"]')?.getAttribute("data-station") ?? "";
      const remaining = document.querySelector('[data-testid="device-remaining"]')?.getAttribute("data-seconds");
      const at = document.querySelector('[data-testid="device-back-in-service"]')?.getAttribute("data-at");
      return { station, seconds: remaining ? Number(remaining) : null, serviceAt: at ? Number(at) : null };
    });
  }

  it("sampled for a minute, never increases within one station", async () => {
    await expect
      .poll(() => page.getByTestId("device-station").getAttribute("data-station"), { timeout: 15_000 })
      .toBe("0");
    const sim = system.fleet.devices[0];
    await page.getByTestId("control-forced-regeneration").click();
    await page.locator(".adm-dialog-footer button").last().click();
    await expect.poll(async () => (await sample()).seconds, { timeout: 15_000 }).not.toBeNull();

    const samples: Array<{ station: string; seconds: number | null; serviceAt: number | null; t: number }> = [];
    const start = Date.now();
    let remounted = false;
    let queried = false;
    while (Date.now() - start < 60_000) {
      samples.push({ ...(await sample()), t: Date.now() });
      const elapsed = Date.now() - start;
      if (!remounted && elapsed > 20_000) {
        // Leave the screen and come back: the device info is fetched again while the last answer shows.
        remounted = true;
        await page.evaluate(() => {
          location.hash = "#/index/home";
        });
        await page.getByTestId("home-screen").waitFor();
        await page.goBack();
        await page.getByTestId("device-screen").waitFor();
      }
      if (!queried && elapsed > 35_000) {
        queried = true; // a fresh report from the valve, as a pull-to-refresh asks for
        await sim.publishState();
      }
      await page.waitForTimeout(500); // pacing: the countdown is sampled twice a second
    }
    const counted = samples.filter((s) => s.seconds !== null && s.station !== "0" && s.station !== "5");
    expect(counted.length).toBeGreaterThan(60);
    const stations = new Set(counted.map((s) => s.station));
    expect(stations.size).toBeGreaterThanOrEqual(1);
    for (let i = 1; i < counted.length; i++) {
      const [a, b] = [counted[i - 1], counted[i]];
      if (a.station !== b.station) continue;
      // Within one station the countdown only goes down (the demo's clock runs 60 valve seconds per real second).
      expect(b.seconds, `station ${b.station} at sample ${i}: ${a.seconds} → ${b.seconds}`).toBeLessThanOrEqual(
        a.seconds ?? Number.POSITIVE_INFINITY,
      );
      if (a.serviceAt !== null && b.serviceAt !== null) expect(b.serviceAt).toBeLessThanOrEqual(a.serviceAt + 1000);
    }
    // One clock: the time left in the station (real seconds) ends no later than "back in service at".
    for (const s of counted) {
      if (s.serviceAt !== null && (s.seconds ?? 0) > 0) {
        expect(s.t + (s.seconds ?? 0) * 1000, `station ${s.station}`).toBeLessThanOrEqual(s.serviceAt + 2000);
      }
    }
    // "Back in service at" is a phone-local time in the future of a sample taken now, within the cycle's length. The
    // regeneration may have ended during the minute, or be about to: one that ends within 20 real seconds is waited
    // out, and a new one started.
    await expect
      .poll(() => sim.state().station === 0 || (sim.state().serviceRemainingSeconds ?? 0) > 20 * 60, {
        timeout: 60_000,
      })
      .toBe(true);
    if (sim.state().station === 0) sim.startRegeneration();
    let serviceAt: number | null = null;
    await expect
      .poll(
        async () => {
          serviceAt = (await sample()).serviceAt;
          return serviceAt;
        },
        { timeout: 15_000 },
      )
      .not.toBeNull();
    const now = Date.now();
    const at = serviceAt ?? Number.NaN;
    expect(at).toBeGreaterThan(now - 2000);
    expect(at - now).toBeLessThan(3 * 3600_000);
    const hhmm = new Intl.DateTimeFormat("en", { hour: "2-digit", minute: "2-digit" }).format(new Date(at));
    expect(await page.getByTestId("device-back-in-service").textContent()).toContain(hhmm);
  }, 240_000);

  it("shows the countdown and the time back in service in all five languages", async () => {
    // A regeneration runs while each language's page loads: one that would end within 20 real seconds (20 valve
    // minutes at 60×) is waited out, and a new one started once the valve is back in service.
    const sim = system.fleet.devices[0];
    for (const lang of ["en", "zh-Hans", "ru", "es", "fr"]) {
      await expect
        .poll(() => sim.state().station === 0 || (sim.state().serviceRemainingSeconds ?? 0) > 20 * 60, {
          timeout: 60_000,
        })
        .toBe(true);
      if (sim.state().station === 0) sim.startRegeneration();
      const p = await newPageIn(phone.context, lang);
      await p.goto(deviceUrl);
      await p.getByTestId("device-screen").waitFor({ timeout: 15_000 });
      await p.getByTestId("device-remaining").waitFor({ timeout: 15_000 });
      await expect.poll(() => p.getByTestId("device-back-in-service").textContent()).toMatch(/\d/);
      await snap(p, `device-countdown-${lang}`);
      await p.close();
    }
  }, 240_000);
});
