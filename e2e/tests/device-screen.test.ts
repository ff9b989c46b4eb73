import { STATION_TEXT } from "@aquapilot/contract";
import type { DevSystem } from "@aquapilot/dev";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchPhone, type Phone, signInAsDemo, snap, storeLanguage } from "../support/browser.ts";
import { startTestSystem } from "../support/system.ts";

/**
 * The Device screen in Chromium against the whole system: a forced regeneration started from the app shows
 * every station live, in order, with its remaining time; vacation in and out; time sync; the statistics chart.
 * The simulated valve runs 600× faster than real time so a whole cycle passes in seconds.
 */
describe("the Device screen in Chromium", () => {
  let system: DevSystem;
  let phone: Phone;
  let page: Page;
  let deviceId: string;
  let familyId: string;

  beforeAll(async () => {
    system = await startTestSystem({ SIM_DEVICES: "1", SIM_TIME_SCALE: "600" });
    phone = await launchPhone("en-US");
    await storeLanguage(phone.context, "en");
    page = await phone.context.newPage();
    await signInAsDemo(page, system.url);
    const row = await system.db.selectFrom("devices").select(["id", "family_id"]).executeTakeFirstOrThrow();
    deviceId = row.id;
    familyId = row.family_id!;
    const q = new URLSearchParams({ target: "/Device", params: JSON.stringify({ deviceId, familyId }) });
    await page.goto(`${system.url}/#/App?${q}`);
    await page.getByTestId("device-screen").waitFor({ timeout: 15_000 });
  });
  afterAll(async () => {
    await phone?.close();
    await system?.close();
  });

  async function confirm() {
    await page.locator(".adm-dialog-footer button").last().click();
  }

  it("a forced regeneration from the app shows every station live, in order, with its remaining time", async () => {
    await expect
      .poll(() => page.getByTestId("device-station").getAttribute("data-station"), { timeout: 15_000 })
      .toBe("0");
    // Record every station the screen shows, and the remaining time shown with it.
    await page.evaluate(() => {
      const seen: Array<{ station: string | null; remaining: string }> = [];
      (window as unknown as { __stations: typeof seen }).__stations = seen;
      const record = () => {
        const el = document.querySelector('[data-testid="device-station"]');
        const station = el?.getAttribute("data-station") ?? null;
        const remaining = document.querySelector('[data-testid="device-remaining"]')?.textContent ?? "";
        if (seen.at(-1)?.station !== station) seen.push({ station, remaining });
      };
      new MutationObserver(record).observe(document.body, { subtree: true, attributes: true, childList: true });
    });
    await page.getByTestId("control-forced-regeneration").click();
    await confirm();
    await expect
      .poll(() => page.getByTestId("device-command-status").getAttribute("data-status"), { timeout: 15_000 })
      .toBe("done");
    const sim = system.fleet.devices[0];
    const expected = sim.valve.regenerationSteps().map((s) => String(s));
    // Back in service after the whole cycle.
    await expect
      .poll(
        async () =>
          (await page.evaluate(() => (window as unknown as { __stations: Array<{ station: string }> }).__stations)).map(
            (s) => s.station,
          ),
        { timeout: 60_000, interval: 250 },
      )
      .toEqual(["0", ...expected, "0"]);
    const seen = await page.evaluate(
      () => (window as unknown as { __stations: Array<{ station: string; remaining: string }> }).__stations,
    );
    for (const s of seen.filter((x) => x.station !== "0")) expect(s.remaining).toMatch(/\d+:\d\d/);
    await expect
      .poll(async () => (await page.getByTestId("device-station").textContent())?.toLowerCase())
      .toContain(STATION_TEXT[0]);
  });

  it("vacation mode enters and exits, each after a confirmation", async () => {
    await page.getByTestId("control-vacation-enter").click();
    await confirm();
    await page.getByTestId("device-vacation").waitFor({ timeout: 15_000 });
    await page.getByTestId("control-vacation-exit").click();
    await confirm();
    await expect.poll(() => page.getByTestId("device-vacation").count(), { timeout: 15_000 }).toBe(0);
  });

  it("salt refilled: the dialog sits in the viewport wherever the page is, and 25 kg entered shows 25 kg", async () => {
    // The valve has regenerated in this file already (its 600× clock runs far ahead of the cloud's): none of those
    // regenerations may be taken off the level entered now (the level entered is the level shown).
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.getByTestId("device-salt-refill").click();
    const dialog = page.getByTestId("device-salt-refill-dialog");
    await dialog.waitFor();
    const box = (await dialog.boundingBox())!;
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.y + box.height).toBeLessThanOrEqual(812);
    await snap(page, "device-salt-refill-en");
    await page.getByTestId("device-salt-refill-kg").fill("25");
    await page.getByTestId("device-salt-refill-save").click();
    await expect.poll(() => page.getByTestId("device-salt-refill-dialog").count()).toBe(0);
    expect(await page.getByTestId("device-salt").getAttribute("data-level")).toBe("25");
    expect(await page.getByTestId("device-salt-level").textContent()).toBe("Salt level 25 kg");
    // What the forecast rests on: the valve's salt per regeneration and the estimated days between regenerations.
    const basis = page.getByTestId("device-salt-basis");
    expect(await basis.textContent()).toMatch(/^3 kg per regeneration(, about every \d+ days?)?$/);
    await page.getByTestId("device-salt").scrollIntoViewIfNeeded();
    await snap(page, "device-salt-basis-en");
  });

  it("time synchronisation asks first, then sets the device's clock to the phone's", async () => {
    const sim = system.fleet.devices[0];
    // The time the device is told to take, and the wall clock when it arrives (the valve itself runs 600× fast).
    const synced: Array<{ time: unknown; at: number }> = [];
    const onCommand = (cmd: { name: string; params: Record<string, unknown> }) => {
      if (cmd.name === "sync-time") synced.push({ time: cmd.params.time, at: Date.now() });
    };
    sim.on("command", onCommand);
    await page.getByTestId("control-time-sync").click();
    await expect.poll(() => page.locator(".adm-dialog").textContent()).toContain("Confirm synchronization time?");
    await confirm();
    await expect
      .poll(() => page.getByTestId("device-command-status").getAttribute("data-status"), { timeout: 15_000 })
      .toBe("done");
    sim.off("command", onCommand);
    expect(synced).toHaveLength(1);
    expect(Math.abs(Date.parse(String(synced[0].time)) - synced[0].at)).toBeLessThan(60_000);
  });

  it("the statistics show the simulated days: the forced regeneration and its salt are counted and charted", async () => {
    // Statistics load when the screen opens: open it again to see what happened since.
    await page.reload();
    await page.getByTestId("device-screen").waitFor({ timeout: 15_000 });
    await page.getByTestId("device-stats").scrollIntoViewIfNeeded();
    // The regeneration forced above is in the shown period's totals (a bucket per day) and in the regenerations chart.
    await expect
      .poll(() => page.getByTestId("device-stats-total").textContent(), { timeout: 20_000 })
      .toMatch(/Regenerations\s+[1-9]/);
    expect(Number(await page.getByTestId("chart-regenerations").getAttribute("data-points"))).toBeGreaterThanOrEqual(7);
    expect(Number(await page.getByTestId("chart-water").getAttribute("data-points"))).toBeGreaterThanOrEqual(7);
  });
  it("opened first (a notification opening it), appears once with its data: no spinner or empty frame before it", async () => {
    // The Device screen as the first screen holds the app's first render until its chunk, texts, first calls
    // and permissions are in, so what #root shows first is the device itself.
    const fresh = await phone.context.newPage();
    await fresh.addInitScript(() => {
      const w = window as unknown as {
        __before?: string[];
        __calledBeforeRender?: string[];
        __wholeAtFirst?: boolean;
        __frameSeen?: string;
      };
      w.__before = [];
      document.addEventListener("DOMContentLoaded", () => {
        // What the page shows is #root's (the app draws the screen out of sight first and then makes it #root).
        const shown = (what: string) => document.querySelector(`#root ${what}`) !== null;
        const seen = new MutationObserver(() => {
          if (shown(".device-page")) {
            seen.disconnect();
            // Shown whole: its last section is there from the first frame (drawn out of sight section by section).
            w.__wholeAtFirst = shown('[data-testid="device-open-fault"]');
            // The requests answered by the first render (a hub connecting later may ask for the live figures again).
            w.__calledBeforeRender = performance.getEntriesByType("resource").map((e) => new URL(e.name).pathname);
            return;
          }
          // Before it, only the prerendered frame of the screen (index.html; apps/web/src/first-paint/boot.js) shows:
          // no spinner, no guard's wait, no loading frame or page bar drawn by the app.
          for (const frame of document.querySelectorAll('#root .prerender[data-screen="device"]')) {
            if (getComputedStyle(frame).display !== "none") w.__frameSeen = frame.getAttribute("lang") ?? "?";
          }
          for (const what of [
            ".guard-wait",
            ".adm-spin-loading",
            '[data-testid="device-frame"]',
            ".adm-nav-bar:not(.prerender .adm-nav-bar)",
          ]) {
            if (shown(what) && !w.__before?.includes(what)) w.__before?.push(what);
          }
        });
        seen.observe(document.documentElement, {
          childList: true,
          subtree: true,
          attributes: true,
          attributeFilter: ["id", "data-prerender-screen"],
        });
      });
    });
    const params = encodeURIComponent(JSON.stringify({ deviceId, familyId }));
    await fresh.goto(`${system.url}/#/Device?params=${params}`);
    await fresh.getByTestId("device-name").waitFor({ timeout: 15_000 });
    expect(await fresh.evaluate(() => (window as unknown as { __before: string[] }).__before)).toEqual([]);
    expect(await fresh.evaluate(() => (window as unknown as { __wholeAtFirst?: boolean }).__wholeAtFirst)).toBe(true);
    // The frame in the phone's language (this phone's is English).
    expect(await fresh.evaluate(() => (window as unknown as { __frameSeen?: string }).__frameSeen)).toBe("en");
    // Its first calls left from the page's boot script, before the app's code had loaded, and the app took every
    // answer instead of asking again (first-paint/early-answers.ts): each went on the wire once before the first
    // render, none is left over.
    const seen = await fresh.evaluate(() => {
      const w = window as unknown as { __aquapilotEarly?: unknown[]; __calledBeforeRender?: string[] };
      return { early: w.__aquapilotEarly, called: w.__calledBeforeRender ?? [] };
    });
    expect(seen.early).toEqual([]);
    for (const call of [
      "/api/abp/application-configuration",
      "/api/run-lucky/device/app/device-control/query-device-info",
      "/api/run-lucky/device/app/device-control/device-station-maxworktime-cache",
      "/api/run-lucky/device/app/device-control/get-salt-status",
      "/api/run-lucky/device/app/family-device/get-list-by-family-id",
      "/api/RunLuckyIot/appuser_setting/app/setting/units",
    ]) {
      expect(
        seen.called.filter((path) => path === call),
        call,
      ).toHaveLength(1);
    }
    await snap(fresh, "device-first-screen");
    await fresh.close();
  });

  it("a firmware update shows its progress to one decimal and blocks other commands until it finishes", async () => {
    const sim = system.fleet.devices[0];
    const before = sim.firmwareVersion;
    await page.getByTestId("control-ota").scrollIntoViewIfNeeded();
    await page.getByTestId("control-ota").click();
    await confirm();
    await page.getByTestId("device-ota").waitFor({ timeout: 15_000 });
    await expect.poll(() => page.getByTestId("device-ota-percent").textContent()).toMatch(/\d+\.\d\s*%/);
    expect(await page.getByTestId("control-forced-flushing").isDisabled()).toBe(true);
    await expect.poll(() => page.getByTestId("device-ota").count(), { timeout: 30_000 }).toBe(0);
    expect(sim.firmwareVersion).not.toBe(before);
    await expect.poll(() => page.getByTestId("control-forced-flushing").isDisabled()).toBe(false);
  });

  it("an excessive-flow close shows on the Device screen and on Fault with the spec's label", async () => {
    const sim = system.fleet.devices[0];
    sim.injectClose(1025);
    await expect
      .poll(() => page.getByTestId("device-close-reason").getAttribute("data-close-reason"), { timeout: 15_000 })
      .toBe("1025");
    const q = new URLSearchParams({ target: "/Fault", params: JSON.stringify({ deviceId, familyId }) });
    await page.goto(`${system.url}/#/App?${q}`);
    await page.getByTestId("fault-screen").waitFor();
    const current = page.locator('[data-testid="fault-current"][data-close-reason="1025"]');
    await current.waitFor({ timeout: 15_000 });
    expect(await current.getAttribute("data-label")).toBe("excessiveFlow");
    expect(await current.textContent()).toContain("Excessive flow");
  });
});
