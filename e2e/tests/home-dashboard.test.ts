import { LANGUAGES, type TFamilyDashboard, TIME_ZONE_HEADER } from "@aquapilot/contract";
import { DEMO_ACCOUNT, type DevSystem } from "@aquapilot/dev";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatKg, formatMoment } from "../../apps/web/src/shared/format/index.ts";
import { volumeText } from "../../apps/web/src/shared/units/volume.ts";
import { accessToken, apiCall } from "../support/api.ts";
import { launchPhone, newPageIn, type Phone, settled, signInAsDemo, snap } from "../support/browser.ts";
import { familyIdOf, startTestSystem } from "../support/system.ts";

/** The phone's time zone in this file: "today" on Home must be Shanghai's day, as the API cuts it for that zone. */
const ZONE = "Asia/Shanghai";
const DASHBOARD = "/api/run-lucky/device/app/family-device/dashboard";
const CONTROL = "/api/run-lucky/device/app/device-control";

/** Intl writes narrow or no-break spaces in some languages and versions; compare texts with plain ones. */
const plain = (s: string | null | undefined) => (s ?? "").replace(/[\s\u00a0\u202f]+/g, " ").trim();

/** Polls `probe` until `ok` holds (hooks cannot use expect.poll); throws with the last value after `timeoutMs`. */
async function waitUntil<T>(probe: () => Promise<T>, ok: (v: T) => boolean, what: string, timeoutMs = 30_000) {
  const end = Date.now() + timeoutMs;
  let last: T | undefined;
  while (Date.now() < end) {
    last = await probe();
    if (ok(last)) return last;
    await new Promise((r) => setTimeout(r, 250)); // the interval between two probes
  }
  throw new Error(`${what}: still ${JSON.stringify(last)} after ${timeoutMs} ms`);
}

/** What one device card shows: its data attributes (raw values) and its visible texts. */
interface ShownCard {
  id: string;
  badges: string[];
  waterToday: string;
  waterTodayText: string;
  waterLeft: string;
  waterLeftText: string;
  saltDays: string;
  saltLevel: string;
  saltText: string;
  next: string;
  nextText: string;
}

/**
 * Home's dashboard in Chromium against the whole system, as the demo owner whose
 * phone is in Shanghai: the household total and every card's figures and badges equal what the dashboard API answers
 * for the same household and zone — one softener drawing water with a salt level entered, one regenerating, one in
 * vacation mode with its water closed; Home follows a vacation change live without a reload; Device shows the salt
 * gauge, and the low-salt reminder chosen there persists across a reload. Screenshots of Home and Device in the five
 * languages at 375×812 (e2e/screenshots/home-dashboard-*.png, device-salt-*.png).
 */
/** A volume as the English Home writes it in litres (the owner's default unit). */
const litres = (l: number) => volumeText(l, "L", "en", (k) => ({ L: "L", Lmin: "L/min" })[k] ?? k);

describe("the Home dashboard in Chromium", () => {
  let system: DevSystem;
  let phone: Phone;
  let page: Page;
  let token: string;
  let familyId: string;
  const ids: string[] = [];

  async function dashboard(): Promise<TFamilyDashboard> {
    const res = await fetch(`${system.url}${DASHBOARD}?familyId=${familyId}`, {
      headers: { authorization: `Bearer ${token}`, "accept-language": "en", [TIME_ZONE_HEADER]: ZONE },
    });
    if (res.status !== 200) throw new Error(`dashboard: HTTP ${res.status} ${await res.text()}`);
    return ((await res.json()) as { result: TFamilyDashboard }).result;
  }

  async function shownCards(): Promise<{ total: string; totalText: string; cards: ShownCard[] }> {
    return page.evaluate(() => {
      const text = (el: Element | null | undefined) => el?.textContent ?? "";
      const attr = (el: Element | null | undefined, name: string) => el?.getAttribute(name) ?? "";
      const total = document.querySelector('[data-testid="home-water-today"]');
      const cards = [...document.querySelectorAll('[data-testid="device-card"]')].map((card) => {
        const q = (id: string) => card.querySelector(`[data-testid="${id}"]`);
        return {
          id: attr(card, "data-device-id"),
          badges: attr(card, "data-badges").split(" ").filter(Boolean).sort(),
          waterToday: attr(q("device-water-today"), "data-value"),
          waterTodayText: text(q("device-water-today")?.querySelector(".device-card__figure-value")),
          waterLeft: attr(q("device-water-left"), "data-value"),
          waterLeftText: text(q("device-water-left")?.querySelector(".device-card__figure-value")),
          saltDays: attr(q("device-salt-figure"), "data-days"),
          saltLevel: attr(q("device-salt-figure"), "data-level"),
          saltText: text(q("device-salt-figure")?.querySelector(".device-card__figure-value")),
          next: attr(q("device-next-regeneration"), "data-value"),
          nextText: text(q("device-next-regeneration")?.querySelector(".device-card__next-value")),
        };
      });
      return {
        total: attr(total, "data-value"),
        totalText: text(total?.querySelector(".home__total-value")),
        cards,
      };
    });
  }

  /** What Home must show for the API's answer `d`, in English; [] when the page shows exactly that. */
  function mismatches(d: TFamilyDashboard, shown: Awaited<ReturnType<typeof shownCards>>): string[] {
    const out: string[] = [];
    const same = (what: string, want: string, got: string) => {
      if (plain(want) !== plain(got)) out.push(`${what}: want "${want}", shown "${got}"`);
    };
    same("total", String(d.waterTodayL), shown.total);
    same("total text", litres(d.waterTodayL), shown.totalText);
    same("cards", d.devices.map((x) => x.deviceId).join(","), shown.cards.map((c) => c.id).join(","));
    for (const [i, x] of d.devices.entries()) {
      const c = shown.cards[i];
      if (!c) continue;
      const badges = [
        ...(x.badges.alarm ? [`alarm-${x.badges.alarm}`] : []),
        ...(x.badges.regenerating ? ["regenerating"] : []),
        ...(x.badges.vacation ? ["vacation"] : []),
        ...(x.badges.firmwareUpdate ? [`firmware-${x.badges.firmwareUpdate}`] : []),
      ].sort();
      same(`${i} badges`, badges.join(" "), c.badges.join(" "));
      same(`${i} water today`, String(x.waterTodayL), c.waterToday);
      same(`${i} water today text`, litres(x.waterTodayL), c.waterTodayText);
      same(`${i} water left`, String(x.remainingWaterL ?? ""), c.waterLeft);
      if (x.remainingWaterL !== null) {
        same(`${i} water left text`, litres(x.remainingWaterL), c.waterLeftText);
      }
      same(`${i} salt days`, String(x.saltDaysLeft ?? ""), c.saltDays);
      same(`${i} salt level`, String(x.saltLevelKg ?? ""), c.saltLevel);
      const salt =
        x.saltDaysLeft !== null
          ? `${x.saltDaysLeft} ${x.saltDaysLeft === 1 ? "day" : "days"}`
          : x.saltLevelKg !== null
            ? `${formatKg(x.saltLevelKg, "en")} kg`
            : "Not set";
      same(`${i} salt text`, salt, c.saltText);
      if (x.badges.regenerating) {
        same(`${i} next`, "regenerating", c.next);
        same(`${i} next text`, "Regenerating now", c.nextText);
      } else {
        same(`${i} next`, x.nextRegenerationAt ?? "", c.next);
        const want = x.nextRegenerationAt
          ? (formatMoment(x.nextRegenerationAt, "en", { timeZone: ZONE }) ?? "")
          : x.badges.vacation
            ? "Paused during vacation"
            : "Not planned";
        same(`${i} next text`, want, c.nextText);
      }
    }
    return out;
  }

  /**
   * Waits until the live Home is in and its hub-1 channel is connected: not the snapshot of the last Home that boot.js
   * paints on a reload, which carries the same test ids and a "live" chip of its own.
   */
  async function liveHome() {
    await page.locator('html:not([data-snapshot]) [data-testid="realtime-state"][data-state="2"]').waitFor({
      timeout: 15_000,
    });
  }

  /**
   * Waits until Home shows exactly what the API answers now; between tries it pulls the page's dashboard again (a
   * reload), since water keeps arriving while the test reads both.
   */
  async function expectHomeMatchesApi() {
    let last: string[] = [];
    for (let attempt = 0; attempt < 12; attempt++) {
      const api = await dashboard();
      last = mismatches(api, await shownCards());
      if (last.length === 0) return api;
      await page.reload();
      await liveHome();
      await expect.poll(() => page.getByTestId("home-water-today").getAttribute("data-value")).not.toBe("");
    }
    throw new Error(`Home does not show the API's figures:\n${last.join("\n")}`);
  }

  beforeAll(async () => {
    system = await startTestSystem({ SIM_DEVICES: "3" });
    familyId = await familyIdOf(system, DEMO_ACCOUNT.email);
    token = await accessToken(system.url, DEMO_ACCOUNT.email, DEMO_ACCOUNT.password);
    const rows = await system.db
      .selectFrom("devices")
      .select(["id", "mac"])
      .where("family_id", "=", familyId)
      .orderBy("sort")
      .execute();
    ids.push(...rows.map((r) => r.id));
    const sim = (i: number) => {
      const found = system.fleet.devices.find((d) => d.mac === rows[i].mac);
      if (!found) throw new Error(`no simulated device ${rows[i].mac}`);
      return found;
    };
    // Wait for the fleet to report (the dashboard reads the reported state).
    await waitUntil(
      async () => (await dashboard()).devices.filter((d) => d.remainingWaterL !== null).length,
      (n) => n === 3,
      "devices that reported",
    );
    // The first softener: 25 kg of salt entered, and a tap of 8 L/min for 90 s on top of the household.
    const refill = await apiCall(system.url, `${CONTROL}/reset-salt-level?deviceId=${ids[0]}&levelKg=25`, {
      method: "POST",
      token,
    });
    if (refill.status !== 200) throw new Error(`reset-salt-level: ${refill.status}`);
    sim(0).valve.injectDraw(8, 90);
    // The second regenerates (a cycle runs for more than an hour at this time scale).
    sim(1).startRegeneration();
    // The third: vacation mode, then its leak sensor closes the water.
    const vacation = await apiCall(system.url, `${CONTROL}/change-vacation?deviceId=${ids[2]}`, {
      method: "POST",
      token,
    });
    if (vacation.status !== 200) throw new Error(`change-vacation: ${vacation.status}`);
    sim(2).injectClose(513);
    await waitUntil(
      async () => (await dashboard()).devices[2].badges.alarm,
      (a) => a === "closed",
      "third alarm",
    );
    await waitUntil(
      async () => (await dashboard()).devices[0].waterTodayL,
      (w) => w > 0,
      "water today",
    );

    phone = await launchPhone("en-US");
    page = await newPageIn(phone.context, "en");
    const cdp = await phone.context.newCDPSession(page);
    await cdp.send("Emulation.setTimezoneOverride", { timezoneId: ZONE });
    await signInAsDemo(page, system.url);
  });
  afterAll(async () => {
    await phone?.close();
    await system?.close();
  });

  it("the figures on Home match the API's answer for the household, in the phone's time zone", async () => {
    expect(await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone)).toBe(ZONE);
    const api = await expectHomeMatchesApi();
    // The answer itself is the household's, for the phone's day: what the checks above compared is not empty.
    expect(api.timeZone).toBe(ZONE);
    expect(api.devices.map((d) => d.deviceId)).toEqual(ids);
    expect(api.devices[0]).toMatchObject({ saltLevelKg: 25, badges: { regenerating: false, alarm: null } });
    expect(api.devices[0].waterTodayL).toBeGreaterThan(0);
    expect(api.devices[0].nextRegenerationAt).not.toBeNull();
    expect(api.devices[1].badges.regenerating).toBe(true);
    expect(api.devices[2].badges).toMatchObject({ vacation: true, alarm: "closed" });
    expect(api.waterTodayL).toBeCloseTo(
      api.devices.reduce((s, d) => s + d.waterTodayL, 0),
      3,
    );
  });

  it("follows a vacation change live, without a reload", async () => {
    await liveHome();
    const card = page.locator(`[data-testid="device-card"][data-device-id="${ids[2]}"]`);
    expect(await card.getAttribute("data-badges")).toContain("vacation");
    const marker = await page.evaluate(() => {
      (window as unknown as { __noReload: boolean }).__noReload = true;
      return true;
    });
    expect(marker).toBe(true);
    const exit = await apiCall(system.url, `${CONTROL}/exit-vacation?deviceId=${ids[2]}`, { method: "POST", token });
    expect(exit.status).toBe(200);
    await expect.poll(() => card.getAttribute("data-badges"), { timeout: 20_000 }).not.toContain("vacation");
    expect(await page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(true);
    await expectHomeMatchesApi();
  });

  it("a change made while the app starts, before its live channel connects, shows once it connects", async () => {
    // The owner reopens the app; its hub-1 connection is held (a slow network) while the first calls answer.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route("**/signalr-hubs/device-chang-content-type-message/negotiate**", async (route) => {
      await held;
      await route.continue();
    });
    try {
      await page.reload();
      const card = page.locator(`html:not([data-snapshot]) [data-testid="device-card"][data-device-id="${ids[2]}"]`);
      await card.waitFor({ timeout: 15_000 });
      await page.locator('[data-testid="realtime-state"][data-state="1"]').waitFor();
      expect(await card.getAttribute("data-badges")).not.toContain("vacation");
      // Meanwhile another phone of the household turns vacation on: nothing can push it to this one yet.
      const on = await apiCall(system.url, `${CONTROL}/change-vacation?deviceId=${ids[2]}`, { method: "POST", token });
      expect(on.status).toBe(200);
      // Once the server holds the valve's report of it (when it pushes the change to connected phones) and this page's
      // calls so far have answered, the page still shows the old state.
      await expect
        .poll(async () => (await dashboard()).devices.find((d) => d.deviceId === ids[2])?.badges.vacation)
        .toBe(true);
      await settled(page, { except: /\/negotiate/ });
      expect(await card.getAttribute("data-badges")).not.toContain("vacation");
      release();
      await liveHome();
      // Connected: what was read before the connection is read again (the dashboard refreshes only every minute).
      await expect.poll(() => card.getAttribute("data-badges"), { timeout: 10_000 }).toContain("vacation");
    } finally {
      release();
      await page.unroute("**/signalr-hubs/device-chang-content-type-message/negotiate**");
    }
  });

  it("Device shows the salt gauge: 25 kg of 25 kg entered, the refill time and the reminder", async () => {
    await page.locator(`[data-testid="device-card"][data-device-id="${ids[0]}"]`).click();
    await page.getByTestId("device-screen").waitFor();
    const gauge = page.getByTestId("device-salt");
    await gauge.waitFor({ timeout: 15_000 });
    await gauge.scrollIntoViewIfNeeded();
    expect(await gauge.getAttribute("data-level")).toBe("25");
    expect(await gauge.getAttribute("data-percent")).toBe("100");
    expect(await page.getByTestId("device-salt-level").textContent()).toBe("Salt level 25 kg");
    await page.getByTestId("device-salt-gauge").waitFor();
    const refilledAt = await page.getByTestId("device-salt-refilled-at").getAttribute("data-time");
    const expected = new Intl.DateTimeFormat("en", { dateStyle: "medium", timeStyle: "short", timeZone: ZONE }).format(
      new Date(refilledAt ?? ""),
    );
    expect(plain(await page.getByTestId("device-salt-refilled-at").textContent())).toBe(
      plain(`Last refill ${expected}`),
    );
    expect(await page.getByTestId("device-salt-reminder").getAttribute("data-days")).toBe("7");
    expect(await page.getByTestId("device-salt-reminder-value").textContent()).toBe("7 days");
  });

  it("the low-salt reminder chosen on Device persists across a reload", async () => {
    await page.getByTestId("device-salt-reminder").click();
    await page.getByTestId("salt-reminder-picker-option-14").click();
    await expect.poll(() => page.getByTestId("device-salt-reminder").getAttribute("data-days")).toBe("14");
    expect(await page.getByTestId("device-salt-reminder-value").textContent()).toBe("14 days");
    await page.reload();
    await page.getByTestId("device-salt").waitFor({ timeout: 15_000 });
    expect(await page.getByTestId("device-salt-reminder").getAttribute("data-days")).toBe("14");
    const status = await apiCall<{ reminderDays: number }>(
      system.url,
      `${CONTROL}/get-salt-status?deviceId=${ids[0]}`,
      {
        token,
      },
    );
    expect(status.result.reminderDays).toBe(14);
  });

  it("Home and Device in the five languages at 375×812 (screenshots)", async () => {
    for (const lang of LANGUAGES) {
      const p = await newPageIn(phone.context, lang);
      const cdp = await phone.context.newCDPSession(p);
      await cdp.send("Emulation.setTimezoneOverride", { timezoneId: ZONE });
      await p.goto(`${system.url}/#/index/home`);
      await p.getByTestId("home-screen").waitFor({ timeout: 15_000 });
      await expect.poll(() => p.getByTestId("device-card").count(), { timeout: 15_000 }).toBe(3);
      await expect.poll(() => p.getByTestId("home-water-today").getAttribute("data-value")).not.toBe("");
      // No key may show untranslated.
      expect(await p.locator(".home").textContent()).not.toMatch(/dashboard\.|saltGauge\./);
      await snap(p, `home-dashboard-${lang}`);
      await p
        .locator(`[data-testid="device-card"][data-device-id="${ids[2]}"]`)
        .evaluate((el) => el.scrollIntoView({ block: "center" }));
      await p.waitForTimeout(300); // the scroll's paint settles before the picture
      await snap(p, `home-dashboard-${lang}-cards`);
      await p.locator(`[data-testid="device-card"][data-device-id="${ids[0]}"]`).click();
      await p.getByTestId("device-salt").waitFor({ timeout: 15_000 });
      await p.getByTestId("device-salt").evaluate((el) => el.scrollIntoView({ block: "start" }));
      await p.waitForTimeout(300); // the scroll's paint settles before the picture
      expect(await p.getByTestId("device-salt").textContent()).not.toMatch(/saltGauge\.|deviceSalt\./);
      await snap(p, `device-salt-${lang}`);
      await p.close();
    }
  });
});
