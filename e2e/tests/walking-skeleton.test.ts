import { STATION_TEXT } from "@aquapilot/contract";
import { DEMO_ACCOUNT, type DevSystem } from "@aquapilot/dev";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchPhone, type Phone, snap, storeLanguage } from "../support/browser.ts";
import { codeFromOutbox } from "../support/outbox.ts";
import { startTestSystem } from "../support/system.ts";

/**
 * The walking skeleton in Chromium against the whole system: registration with the code from the
 * outbox, the demo owner's live device list, a regeneration and a drop-off seen without a reload.
 */
describe("walking skeleton in Chromium", () => {
  let system: DevSystem;
  let phone: Phone;

  beforeAll(async () => {
    system = await startTestSystem();
    phone = await launchPhone("en-US");
  });
  afterAll(async () => {
    await phone?.close();
    await system?.close();
  });

  async function newPage(lang = "en"): Promise<Page> {
    const page = await phone.context.newPage();
    // The app keeps its language under `lang` (spec §3); set it before the first script runs.
    await storeLanguage(page, lang, { keep: true });
    return page;
  }

  async function signIn(page: Page, account: string, password: string) {
    await page.goto(`${system.url}/#/login`);
    await page.getByTestId("login-account").fill(account);
    await page.getByTestId("login-password").fill(password);
    await page.getByTestId("login-submit").click();
  }

  it("a new user registers by e-mail with the code from the outbox and signs in", async () => {
    const page = await newPage();
    const email = `owner-${Date.now()}@example.com`;
    await page.goto(`${system.url}/#/Register`);
    await page.getByTestId("register-screen").waitFor();
    await page.getByTestId("register-account").fill(email);
    await page.getByTestId("register-password").fill("water123");
    await page.getByTestId("register-confirm-password").fill("water123");
    await page.getByTestId("register-send-code").click();
    const code = await codeFromOutbox(system.url, email);
    await page.getByTestId("register-code").fill(code!);
    await page.getByTestId("register-privacy").click();
    await page.getByTestId("register-submit").click();
    // Signed in: a new owner has no family yet, so the app shows NoFamily (or Login when it asks to sign in).
    const landed = await Promise.race([
      page
        .getByTestId("no-family-screen")
        .waitFor({ timeout: 15_000 })
        .then(() => "no-family"),
      page
        .getByTestId("login-screen")
        .waitFor({ timeout: 15_000 })
        .then(() => "login"),
    ]);
    if (landed === "login") {
      await signIn(page, email, "water123");
      await page.getByTestId("no-family-screen").waitFor({ timeout: 15_000 });
    }
    await expect(page.getByTestId("no-family-screen").isVisible()).resolves.toBe(true);
    await page.close();
  });

  it("the demo owner signs in, sees the devices live: a regeneration and a drop-off show without a reload", async () => {
    const page = await newPage();
    await signIn(page, DEMO_ACCOUNT.email, DEMO_ACCOUNT.password);
    await page.getByTestId("home-screen").waitFor({ timeout: 15_000 });
    const cards = page.getByTestId("device-card");
    await expect.poll(() => cards.count(), { timeout: 15_000 }).toBe(3);
    await page.locator('[data-testid="realtime-state"][data-state="2"]').waitFor({ timeout: 15_000 });
    await snap(page, "home-en");

    const list = await page.evaluate(() =>
      Array.from(document.querySelectorAll('[data-testid="device-card"]')).map((el) => ({
        id: el.getAttribute("data-device-id"),
        text: el.textContent ?? "",
      })),
    );
    expect(list).toHaveLength(3);

    // Every card shows a station text of spec §3, all "in service" while no cycle runs.
    const station = page.locator('[data-testid="device-station"]').first();
    await expect.poll(() => station.getAttribute("data-station")).toBe("0");
    await expect.poll(async () => (await station.textContent())?.toLowerCase() ?? "").toContain(STATION_TEXT[0]);

    // Regeneration on the first device in sort order: its station text changes without a reload.
    const navigations: string[] = [];
    page.on("framenavigated", (f) => {
      if (f === page.mainFrame()) navigations.push(f.url());
    });
    const firstId = list[0].id!;
    const macOfFirst = await deviceMac(firstId);
    const sim = system.fleet.get(macOfFirst)!;
    sim.startRegeneration();
    const card = page.locator(`[data-testid="device-card"][data-device-id="${firstId}"]`);
    await expect.poll(() => card.getAttribute("data-station"), { timeout: 15_000 }).not.toBe("0");
    const now = Number(await card.getAttribute("data-station"));
    await expect
      .poll(async () => (await card.getByTestId("device-station").textContent())?.toLowerCase() ?? "")
      .toContain(STATION_TEXT[now as keyof typeof STATION_TEXT]);
    await snap(page, "home-en-regenerating");

    // A device drops off: its card shows offline.
    const secondId = list[1].id!;
    const dropped = system.fleet.get(await deviceMac(secondId))!;
    dropped.goOffline();
    const secondCard = page.locator(`[data-testid="device-card"][data-device-id="${secondId}"]`);
    await expect.poll(() => secondCard.getAttribute("data-online"), { timeout: 15_000 }).toBe("false");
    expect(navigations.filter((u) => !u.includes("#/index/home"))).toEqual([]);
    await page.close();
  });

  async function deviceMac(deviceId: string): Promise<string> {
    const row = await system.db
      .selectFrom("devices")
      .select("mac")
      .where("id", "=", deviceId)
      .executeTakeFirstOrThrow();
    return row.mac;
  }
});
