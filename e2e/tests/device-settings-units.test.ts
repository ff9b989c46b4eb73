import fs from "node:fs";
import path from "node:path";
import type { DevSystem } from "@aquapilot/dev";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchPhone, signInAsDemo, snap, storeLanguage } from "../support/browser.ts";
import { familyIdOf, startTestSystem } from "../support/system.ts";

/** The model table the server enforces (docs/device-protocol.md §9): bounds in the device's units. */
const MODEL_TABLE = JSON.parse(
  fs.readFileSync(path.join(import.meta.dirname, "../../apps/server/data/device-model-settings.json"), "utf8"),
) as { fields: Record<string, { min: number; max: number; step: number }> };
const HARDNESS = MODEL_TABLE.fields.rawWaterHardness;
const RESIN = MODEL_TABLE.fields.resinVolume;

/** Conversions written out here, independently of the app's module: 1 US gal = 3.785411784 L, 1 °dH = 17.848 mg/L. */
const GAL = 3.785411784;
const DH = 17.848;
/** One decimal, trailing zero dropped (en), as the screen writes converted numbers. */
const oneDecimal = (n: number) => String(Math.round(n * 10) / 10);
/** Text with Intl's non-breaking spaces as plain spaces. */
const plain = (text: string | null) => (text ?? "").replace(/[\u00a0\u202f]/g, " ").trim();

/**
 * DeviceSetting in the owner's units, in Chromium against the whole system: US gallons and °dH
 * chosen on Setting show converted values and ranges on DeviceSetting; an out-of-range value shows its error with the
 * range beside it; a save made with the page scrolled to the top shows its result in the sticky bar, and the device
 * receives its own units; the choice survives a reload and a second sign-in. Screenshots in all five languages.
 */
describe("DeviceSetting in the owner's units", () => {
  let system: DevSystem;
  let phone: Awaited<ReturnType<typeof launchPhone>>;
  let page: Page;
  let deviceId: string;

  const sim = () => system.fleet.devices[0];

  async function open(p: Page, target: string, params?: unknown) {
    const q = new URLSearchParams({ target });
    if (params) q.set("params", JSON.stringify(params));
    await p.goto(`${system.url}/#/App?${q}`);
  }

  async function openDeviceSetting(p: Page) {
    await open(p, "/DeviceSetting", { deviceId });
    await p.getByTestId("device-setting-input-rawWaterHardness").waitFor({ timeout: 15_000 });
  }

  async function storedUnits() {
    return system.db
      .selectFrom("user_preferences")
      .innerJoin("users", "users.id", "user_preferences.user_id")
      .select(["volume_unit", "hardness_unit"])
      .where("users.user_name", "=", "demo")
      .executeTakeFirst();
  }

  beforeAll(async () => {
    system = await startTestSystem({ SIM_DEVICES: "1" });
    phone = await launchPhone("en-US");
    await storeLanguage(phone.context, "en", { keep: true });
    page = await phone.context.newPage();
    await signInAsDemo(page, system.url);
    deviceId = (await system.db.selectFrom("devices").select("id").executeTakeFirstOrThrow()).id;
  });
  afterAll(async () => {
    await phone?.close();
    await system?.close();
  });

  it("Setting: choosing US gallons and °dH is stored for the user", async () => {
    await open(page, "/Setting");
    await page.getByTestId("setting-units-volume").waitFor();
    expect(await page.getByTestId("setting-units-volume").getAttribute("data-value")).toBe("L");
    expect(await page.getByTestId("setting-units-hardness").getAttribute("data-value")).toBe("mgL");
    await page.getByTestId("setting-units-volume-gal").click();
    await expect.poll(async () => (await storedUnits())?.volume_unit, { timeout: 10_000 }).toBe("gal");
    await page.getByTestId("setting-units-hardness-dH").click();
    await expect.poll(async () => (await storedUnits())?.hardness_unit, { timeout: 10_000 }).toBe("dH");
    expect(await page.getByTestId("setting-units-volume").getAttribute("data-value")).toBe("gal");
    expect(plain(await page.getByTestId("setting-units-hardness").textContent())).toContain("German degrees (°dH)");
  });

  it("shows the device's values and allowed ranges converted, and durations in one format", async () => {
    await openDeviceSetting(page);
    const settings = sim().valve.snapshot().settings;
    const hardness = page.getByTestId("device-setting-input-rawWaterHardness");
    const resin = page.getByTestId("device-setting-input-resinVolume");
    await expect.poll(() => hardness.inputValue()).toBe(oneDecimal(settings.rawWaterHardness / DH));
    expect(await resin.inputValue()).toBe(oneDecimal(settings.resinVolume / GAL));
    expect(await page.getByTestId("device-setting-unit-rawWaterHardness").textContent()).toBe("°dH");
    expect(await page.getByTestId("device-setting-unit-resinVolume").textContent()).toBe("gal");
    expect(await page.getByTestId("device-setting-unit-flowRateOff").textContent()).toBe("gal/min");
    expect(plain(await page.getByTestId("device-setting-range-rawWaterHardness").textContent())).toBe(
      `Allowed ${oneDecimal(HARDNESS.min / DH)}–${oneDecimal(HARDNESS.max / DH)} °dH`,
    );
    expect(plain(await page.getByTestId("device-setting-range-resinVolume").textContent())).toBe(
      `Allowed ${oneDecimal(RESIN.min / GAL)}–${oneDecimal(RESIN.max / GAL)} gal`,
    );
    // Salt stays in kg (not a volume), durations read in the §9 format everywhere: values and ranges.
    expect(await page.getByTestId("device-setting-unit-saltAddition").textContent()).toBe("kg");
    expect(plain(await page.getByTestId("device-setting-value-backWashTime").textContent())).toMatch(
      /^(\d+ h )?\d+ min( \d+ s)?$/,
    );
    for (const name of ["backWashTime", "washTime", "saltTankRefillTime", "continuousWaterTime"]) {
      const value = plain(await page.getByTestId(`device-setting-value-${name}`).textContent());
      expect(value, name).not.toMatch(/\d\d:\d\d/);
      expect(value, name).toMatch(/\d+ (min|h|s)\b/);
      expect(plain(await page.getByTestId(`device-setting-range-${name}`).textContent()), name).toMatch(
        /^Allowed 0 min – \d+ h( \d+ min)?$/,
      );
    }
    // The device's own clock, with the phone's beside it and Sync time.
    expect(await page.getByTestId("device-setting-device-time").textContent()).toMatch(
      /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/,
    );
    expect(plain(await page.getByTestId("device-setting-phone-time").textContent())).toMatch(
      /^This phone \d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/,
    );
    await page.getByTestId("device-setting-sync-time").click();
    await page.locator(".adm-dialog-footer button").last().click();
    await expect
      .poll(() => page.getByTestId("device-setting-sync-status").getAttribute("data-status"), { timeout: 20_000 })
      .toBe("done");
    await expect
      .poll(async () => plain(await page.getByTestId("device-setting-clock-offset").textContent()), {
        timeout: 15_000,
      })
      .toBe("In step with this phone");
    // Nothing changed yet: Save is disabled.
    expect(await page.getByTestId("device-setting-save").isDisabled()).toBe(true);
  });

  it("an out-of-range value shows its error with the allowed range beside it, and nothing is sent", async () => {
    const before = sim().valve.snapshot().settings.rawWaterHardness;
    const hardness = page.getByTestId("device-setting-input-rawWaterHardness");
    await hardness.fill("200");
    await hardness.blur();
    const error = page.getByTestId("device-setting-error-rawWaterHardness");
    const range = page.getByTestId("device-setting-range-rawWaterHardness");
    await error.waitFor();
    expect(await error.textContent()).toBe("Out of range");
    expect(await range.isVisible()).toBe(true);
    const e = await error.boundingBox();
    const r = await range.boundingBox();
    // Beside it: on the same line, to its right.
    expect(e && r && Math.abs(e.y - r.y) < 4 && r.x > e.x + e.width - 1).toBe(true);
    expect(await page.getByTestId("device-setting-rawWaterHardness").getAttribute("data-invalid")).toBe("true");
    expect(await page.getByTestId("device-setting-save").isDisabled()).toBe(false);
    await snap(page, "device-setting-units-error-en");
    await page.getByTestId("device-setting-save").click();
    await expect.poll(() => page.getByTestId("device-setting-status").getAttribute("data-status")).toBe("invalid");
    expect(plain(await page.getByTestId("device-setting-status").textContent())).toContain(
      "Please enter the correct configuration",
    );
    expect(await range.isVisible()).toBe(true);
    expect(sim().valve.snapshot().settings.rawWaterHardness).toBe(before);
  });

  it("a save made with the page scrolled to the top shows its result in the sticky bar; the device gets its own units", async () => {
    // 20 °dH, or 22 when the valve (its hardness is drawn at random) already holds what 20 °dH rounds to.
    const hardnessDh = Math.round(20 * DH) === sim().valve.snapshot().settings.rawWaterHardness ? 22 : 20;
    await page.getByTestId("device-setting-input-rawWaterHardness").fill(String(hardnessDh));
    // 7 gal, or 9 when the valve (its resin volume is drawn at random) already holds what 7 gal rounds to.
    const toResinL = (gal: number) => Math.round((gal * GAL) / RESIN.step) * RESIN.step;
    const resinGal = toResinL(7) === sim().valve.snapshot().settings.resinVolume ? 9 : 7;
    await page.getByTestId("device-setting-input-resinVolume").fill(String(resinGal));
    await expect
      .poll(async () => plain(await page.getByTestId("device-setting-status").textContent()))
      .toBe("2 unsaved changes");
    expect(await page.getByTestId("device-setting-error-rawWaterHardness").count()).toBe(0);
    await page.evaluate(() => window.scrollTo(0, 0));
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    // The page is longer than the screen, and the bar sits at the bottom of the screen all the same.
    expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeGreaterThan(812 * 1.5);
    const bar = await page.getByTestId("device-setting-bar").boundingBox();
    expect(bar && bar.y + bar.height <= 812 && bar.y > 600).toBe(true);
    await page.getByTestId("device-setting-save").click();
    await expect
      .poll(() => page.getByTestId("device-setting-status").getAttribute("data-status"), { timeout: 25_000 })
      .toBe("done");
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    expect(await page.getByTestId("device-setting-status").isVisible()).toBe(true);
    const status = await page.getByTestId("device-setting-status").boundingBox();
    expect(status && status.y >= 0 && status.y + status.height <= 812).toBe(true);
    expect(plain(await page.getByTestId("device-setting-status").textContent())).toBe("Applied by the device");
    await snap(page, "device-setting-units-saved-en");
    // 20 °dH = 356.96 mg/L → 357; 7 gal = 26.5 L (steps of 0.5 L).
    expect(sim().valve.snapshot().settings.rawWaterHardness).toBe(Math.round(hardnessDh * DH));
    expect(sim().valve.snapshot().settings.resinVolume).toBe(toResinL(resinGal));
    expect(await page.getByTestId("device-setting-input-rawWaterHardness").inputValue()).toBe(
      oneDecimal(Math.round(hardnessDh * DH) / DH),
    );
    expect(await page.getByTestId("device-setting-save").isDisabled()).toBe(true);
  });

  it("the choice survives a reload and a second sign-in", async () => {
    await page.reload();
    await page.getByTestId("device-setting-input-rawWaterHardness").waitFor({ timeout: 15_000 });
    expect(await page.getByTestId("device-setting-unit-rawWaterHardness").textContent()).toBe("°dH");
    expect(await page.getByTestId("device-setting-unit-resinVolume").textContent()).toBe("gal");

    const second = await launchPhone("en-US");
    try {
      await storeLanguage(second.context, "en");
      const other = await second.context.newPage();
      await signInAsDemo(other, system.url);
      await open(other, "/Setting");
      await other.getByTestId("setting-units-volume").waitFor();
      await expect.poll(() => other.getByTestId("setting-units-volume").getAttribute("data-value")).toBe("gal");
      expect(await other.getByTestId("setting-units-hardness").getAttribute("data-value")).toBe("dH");
      await openDeviceSetting(other);
      await expect
        .poll(() => other.getByTestId("device-setting-input-rawWaterHardness").inputValue())
        .toBe(oneDecimal(sim().valve.snapshot().settings.rawWaterHardness / DH));
      expect(await other.getByTestId("device-setting-unit-resinVolume").textContent()).toBe("gal");
    } finally {
      await second.close();
    }
  });

  it("the Device screen and Home show water in the owner's unit too", async () => {
    await open(page, "/Device", { deviceId, familyId: await familyIdOf(system, "demo@aquapilot.local") });
    await page.getByTestId("device-water-left").waitFor({ timeout: 15_000 });
    await expect.poll(() => page.getByTestId("device-water-left").textContent(), { timeout: 10_000 }).toMatch(/ gal$/);
    const litres = (await system.db.selectFrom("device_state").select("remaining_water_l").executeTakeFirstOrThrow())
      .remaining_water_l as number;
    const shown = Number((await page.getByTestId("device-water-left").textContent())?.replace(/[^\d.]/g, ""));
    // The valve keeps metering meanwhile: within 5 % of the stored litres in gallons.
    expect(Math.abs(shown - litres / GAL)).toBeLessThanOrEqual(Math.max(1, (0.05 * litres) / GAL));
    expect(await page.getByTestId("device-flow").textContent()).toMatch(/ gal\/min$/);
    await page.getByTestId("device-stats").scrollIntoViewIfNeeded();
    await expect
      .poll(() => page.getByTestId("device-stats-total").textContent(), { timeout: 15_000 })
      .toMatch(/gal in total/);
    await open(page, "/index/home");
    await page.getByTestId("home-screen").waitFor({ timeout: 15_000 });
    await expect.poll(() => page.locator(".home__total-value").textContent(), { timeout: 10_000 }).toMatch(/ gal$/);
  });

  it("screenshots of DeviceSetting and Setting in all five languages", async () => {
    for (const lang of ["en", "zh-Hans", "es", "ru", "fr"]) {
      await page.evaluate((l) => localStorage.setItem("lang", JSON.stringify(l)), lang);
      await openDeviceSetting(page);
      await page.reload();
      await page.getByTestId("device-setting-input-rawWaterHardness").waitFor({ timeout: 15_000 });
      await page.waitForTimeout(300); // pacing: the page's slide-in ends before the picture
      await snap(page, `device-setting-units-${lang}`);
      await page.getByTestId("device-setting-input-rawWaterHardness").fill("99999"); // out of range in every unit
      await page.getByTestId("device-setting-input-rawWaterHardness").blur();
      await page.getByTestId("device-setting-save").click();
      await page.evaluate(
        (id) => document.querySelector(`[data-testid="${id}"]`)?.scrollIntoView({ block: "center" }),
        "device-setting-rawWaterHardness",
      );
      await page.waitForTimeout(400); // pacing: the scroll and the field errors paint before the picture
      await snap(page, `device-setting-units-invalid-${lang}`);
      await page.evaluate(
        (id) => document.querySelector(`[data-testid="${id}"]`)?.scrollIntoView({ block: "center" }),
        "device-setting-currentTime",
      );
      await page.waitForTimeout(200); // pacing: the scroll paints before the picture
      await snap(page, `device-setting-units-clock-${lang}`);
      await open(page, "/Setting");
      await page.getByTestId("setting-units-volume").waitFor();
      await page.waitForTimeout(300); // pacing: the page's slide-in ends before the picture
      await snap(page, `setting-units-${lang}`);
      expect(await page.locator("body").textContent(), lang).not.toMatch(/(units|deviceSetting)\.[a-zA-Z]/);
    }
    await page.evaluate(() => localStorage.setItem("lang", JSON.stringify("en")));
  });
});
