import fs from "node:fs";
import { LANGUAGES, type Language } from "@aquapilot/contract";
import { DEMO_ACCOUNT, type DevSystem } from "@aquapilot/dev";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import deviceEn from "../../apps/web/src/features/device/locales/en.json" with { type: "json" };
import deviceEs from "../../apps/web/src/features/device/locales/es.json" with { type: "json" };
import deviceFr from "../../apps/web/src/features/device/locales/fr.json" with { type: "json" };
import deviceRu from "../../apps/web/src/features/device/locales/ru.json" with { type: "json" };
import deviceZhHans from "../../apps/web/src/features/device/locales/zh-Hans.json" with { type: "json" };
import baseRu from "../../apps/web/src/locales/ru.json" with { type: "json" };
import { accessToken } from "../support/api.ts";
import { launchPhone, newPageIn, type Phone, settled, signInAsDemo, snap } from "../support/browser.ts";
import { type SlowLink, startSlowLink } from "../support/slow-link.ts";
import { startTestSystem } from "../support/system.ts";

const DEVICE = { en: deviceEn, "zh-Hans": deviceZhHans, es: deviceEs, ru: deviceRu, fr: deviceFr } as const;
const CSV_PATH = "/api/run-lucky/device/app/device/device-flow-statistics/export.csv";
const HOUR_MS = 3_600_000;
/**
 * The slow link's rate while an export is watched, in bytes per second on the wire: the month's brotli-compressed
 * export (about 3 kB) then takes over ten seconds, so its progress can be seen before the test pauses the link.
 */
const SLOW_BYTES_PER_SECOND = 200;

/**
 * The CSV export with progress on the Device screen, in Chromium against the whole system: the
 * owner exports the month's hourly water through the UI, sees the progress panel while the file streams (the app is
 * opened through a slow link that trickles the server's bytes, and the link is paused mid-stream, so the progress is
 * checked and photographed however busy the machine is), gets the file as a browser download, and its header line
 * and rows match what the API answers for the same query. Cancel saves nothing; a lost connection is said in the
 * user's language; the panel is photographed in progress in all five languages.
 */
describe("CSV export with progress", () => {
  let system: DevSystem;
  let phone: Phone;
  let link: SlowLink;
  let deviceId: string;
  let familyId: string;
  let token: string;

  beforeAll(async () => {
    system = await startTestSystem({ SIM_DEVICES: "1" });
    const row = await system.db.selectFrom("devices").select(["id", "family_id"]).executeTakeFirstOrThrow();
    deviceId = row.id;
    familyId = row.family_id!;
    // Thirty days of hourly water before the last two hours (the simulator writes the current hour itself).
    const last = Math.floor(Date.now() / HOUR_MS) * HOUR_MS - 2 * HOUR_MS;
    const rows = Array.from({ length: 30 * 24 }, (_, i) => ({
      device_id: deviceId,
      hour_start: new Date(last - i * HOUR_MS).toISOString(),
      water_l: Math.round((5 + ((i * 37) % 23)) * 10) / 10,
      samples: 60,
      max_flow_lpm: 3.2,
      updated_at: new Date().toISOString(),
    }));
    for (let i = 0; i < rows.length; i += 200) {
      await system.db
        .insertInto("device_water_hourly")
        .values(rows.slice(i, i + 200))
        .onConflict((oc) => oc.doNothing())
        .execute();
    }
    token = await accessToken(system.url, DEMO_ACCOUNT.email, DEMO_ACCOUNT.password);
    phone = await launchPhone("en-US");
    link = await startSlowLink(system.url);
  });
  afterAll(async () => {
    await phone?.close();
    await link?.close();
    await system?.close();
  });

  /**
   * A page in `lang`, signed in through the slow link (not throttled until a test says so), on the Device screen with
   * the month's statistics shown.
   */
  async function deviceScreen(lang: Language): Promise<Page> {
    link.throttle(null);
    link.resume();
    const page = await newPageIn(phone.context, lang);
    await signInAsDemo(page, link.url);
    const q = new URLSearchParams({ target: "/Device", params: JSON.stringify({ deviceId, familyId }) });
    await page.goto(`${link.url}/#/App?${q}`);
    await page.getByTestId("device-screen").waitFor({ timeout: 15_000 });
    await page.getByTestId("device-stats").scrollIntoViewIfNeeded();
    // The month tab: the most rows (the tabs are month, week, day).
    await page.getByTestId("device-stats-tab-1").click();
    await expect.poll(() => page.getByTestId("device-stats").getAttribute("data-report-time-type")).toBe("1");
    await page.getByTestId("device-stats-csv").waitFor({ timeout: 15_000 });
    return page;
  }

  /** The export the app would ask for now, fetched over HTTP: its bytes, rows and announced total. */
  async function exportFromApi(search: string) {
    const res = await fetch(`${system.url}${CSV_PATH}${search}`, {
      headers: { authorization: `Bearer ${token}`, "accept-language": "en" },
    });
    expect(res.status).toBe(200);
    const text = await res.text();
    return { text, totalRows: res.headers.get("x-total-rows"), length: res.headers.get("content-length") };
  }

  /** The month export's query as the app sends it: read from a first, unthrottled request's URL. */
  async function exportQuery(page: Page): Promise<string> {
    const request = page.waitForRequest((r) => r.url().includes(CSV_PATH));
    const download = page.waitForEvent("download");
    await page.getByTestId("device-stats-csv").click();
    const url = new URL((await request).url());
    await download;
    await expect.poll(() => page.getByTestId("device-csv-progress").count()).toBe(0);
    // Its "saved" toast gone, so the next export's pictures show only that export.
    await expect.poll(() => page.locator(".adm-toast-main").count(), { timeout: 10_000 }).toBe(0);
    return url.search;
  }

  /** A screenshot with the statistics section at the top of the screen. */
  async function snapStats(page: Page, name: string): Promise<void> {
    await page.getByTestId("device-stats").evaluate((el) => el.scrollIntoView({ block: "start" }));
    await snap(page, name);
  }

  /** Every toast text shown from now on (a toast lasts 2 s). */
  async function recordToasts(page: Page): Promise<() => Promise<string[]>> {
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { __toasts: string[] }).__toasts = seen;
      new MutationObserver(() => {
        for (const el of document.querySelectorAll(".adm-toast-main")) {
          const text = el.textContent ?? "";
          if (text && seen.at(-1) !== text) seen.push(text);
        }
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    return () => page.evaluate(() => (window as unknown as { __toasts: string[] }).__toasts);
  }

  it("downloads the CSV through the UI with progress; its header and rows match the API", async () => {
    const page = await deviceScreen("en");
    const search = await exportQuery(page);
    const params = new URLSearchParams(search);
    expect(params.get("deviceId")).toBe(deviceId);
    expect(params.get("granularity")).toBe("hourly");
    const before = await exportFromApi(search);
    // Streamed: no length, the rows announced instead.
    expect(before.length).toBeNull();
    expect(Number(before.totalRows)).toBe(before.text.trim().split("\n").length - 1);
    expect(Number(before.totalRows)).toBeGreaterThan(0);

    const toasts = await recordToasts(page);
    link.throttle(SLOW_BYTES_PER_SECOND);
    const download = page.waitForEvent("download", { timeout: 60_000 });
    await page.getByTestId("device-stats-csv").click();
    const panel = page.getByTestId("device-csv-progress");
    await panel.waitFor({ timeout: 10_000 });
    expect(await page.getByTestId("device-stats-csv").isDisabled()).toBe(true);
    // Mid-stream (the link held as soon as rows show): some rows in, a percent with one decimal below 100, the total
    // announced by the server.
    await expect
      .poll(async () => Number(await panel.getAttribute("data-rows")), { timeout: 45_000, interval: 100 })
      .toBeGreaterThan(0);
    link.pause();
    const midPercent = Number(await panel.getAttribute("data-percent"));
    expect(midPercent).toBeGreaterThan(0);
    expect(midPercent).toBeLessThan(100);
    expect(await page.getByTestId("device-csv-percent").textContent()).toMatch(/^\d+\.\d%$/);
    expect(await panel.getAttribute("data-total-rows")).toBe(before.totalRows);
    expect(await page.getByTestId("device-csv-rows").textContent()).toMatch(
      new RegExp(`^\\d+ of ${Number(before.totalRows)} rows · \\d+(\\.\\d)? kB$`),
    );
    await snapStats(page, "csv-export-progress-en");
    // The progress moves on only with the bytes: held, it stays where it is. Nothing marks the moment a progress
    // without bytes would move (the test holds what would move it), so it is read again half a second later.
    await new Promise((r) => setTimeout(r, 500));
    expect(Number(await panel.getAttribute("data-percent"))).toBe(midPercent);

    link.throttle(null);
    link.resume();
    const file = await download;
    expect(file.suggestedFilename()).toBe("water-hourly.csv");
    const text = fs.readFileSync(await file.path(), "utf8");
    const lines = text.trim().split("\n");
    expect(lines[0]).toBe("hour_start,water_l,samples,max_flow_lpm");
    const after = await exportFromApi(search);
    // The simulator may open a new hour meanwhile: the file matches the API before or after the download.
    expect([before.text, after.text]).toContain(text);
    expect([Number(before.totalRows), Number(after.totalRows)]).toContain(lines.length - 1);
    await expect.poll(() => panel.count()).toBe(0);
    await expect.poll(toasts).toContain(`CSV saved: ${lines.length - 1} rows`);
    expect(await page.getByTestId("device-stats-csv").isDisabled()).toBe(false);
    await page.close();
  });

  it("Cancel stops the export and saves nothing", async () => {
    const page = await deviceScreen("en");
    await exportQuery(page);
    const toasts = await recordToasts(page);
    let downloads = 0;
    page.on("download", () => downloads++);
    link.throttle(SLOW_BYTES_PER_SECOND);
    await page.getByTestId("device-stats-csv").click();
    const panel = page.getByTestId("device-csv-progress");
    await expect
      .poll(async () => Number(await panel.getAttribute("data-rows")), { timeout: 20_000 })
      .toBeGreaterThan(0);
    await page.getByTestId("device-csv-cancel").click();
    await expect.poll(() => panel.count()).toBe(0);
    await expect.poll(toasts).toContain(deviceEn.deviceCsv.cancelled);
    // The rest of the answer may come at full speed now: nothing is saved all the same, once the export's call has
    // ended (answered or dropped) and the page has handled it.
    link.throttle(null);
    await settled(page, { timeoutMs: 60_000 });
    expect(downloads).toBe(0);
    await page.close();
  });

  it("a lost connection is said in the user's language", async () => {
    const page = await deviceScreen("ru");
    const toasts = await recordToasts(page);
    phone.expectErrors(
      /^(request failed: GET \S+\/export\.csv\?\S+ |Failed to load resource: )net::ERR_CONNECTION_RESET\b/,
      "the test resets the export's connection",
    );
    await page.route(`**${CSV_PATH}*`, (route) => route.abort("connectionreset"));
    await page.getByTestId("device-stats-csv").click();
    await expect.poll(toasts).toContain(baseRu.errors.serverError);
    await expect.poll(() => page.getByTestId("device-csv-progress").count()).toBe(0);
    await page.close();
  });

  it("the export in progress in all five languages (screenshots)", async () => {
    for (const lang of LANGUAGES) {
      const page = await deviceScreen(lang);
      const search = await exportQuery(page);
      const { totalRows } = await exportFromApi(search);
      link.throttle(SLOW_BYTES_PER_SECOND);
      await page.getByTestId("device-stats-csv").click();
      const panel = page.getByTestId("device-csv-progress");
      await expect
        .poll(async () => Number(await panel.getAttribute("data-rows")), { timeout: 20_000 })
        .toBeGreaterThan(0);
      link.pause();
      const shown = (await panel.textContent()) ?? "";
      expect(shown, lang).toContain(DEVICE[lang].deviceCsv.exporting);
      expect(shown, lang).toContain(DEVICE[lang].deviceCsv.cancel);
      expect(shown, lang).toContain(
        new Intl.NumberFormat(lang === "zh-Hans" ? "zh-CN" : lang).format(Number(totalRows)),
      );
      expect(shown, lang).not.toMatch(/deviceCsv\.|deviceStats\./);
      // Nothing in the panel runs out of the 375 px screen.
      const box = (await panel.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(375);
      const overflow = await panel.evaluate((el) =>
        [...el.querySelectorAll("*")].some((c) => c.scrollWidth > c.clientWidth + 1 && c.clientWidth > 0),
      );
      expect(overflow, `${lang} overflow`).toBe(false);
      await snapStats(page, `csv-export-progress-${lang}`);
      await page.getByTestId("device-csv-cancel").click();
      await expect.poll(() => panel.count()).toBe(0);
      await page.close();
    }
  });
});
