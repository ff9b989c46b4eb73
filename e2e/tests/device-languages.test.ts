import { LANGUAGES, type Language } from "@aquapilot/contract";
import type { DevSystem } from "@aquapilot/dev";
import { MESSAGES } from "@aquapilot/server/http/messages.ts";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import deviceEn from "../../apps/web/src/features/device/locales/en.json" with { type: "json" };
import deviceEs from "../../apps/web/src/features/device/locales/es.json" with { type: "json" };
import deviceFr from "../../apps/web/src/features/device/locales/fr.json" with { type: "json" };
import deviceRu from "../../apps/web/src/features/device/locales/ru.json" with { type: "json" };
import deviceZhHans from "../../apps/web/src/features/device/locales/zh-Hans.json" with { type: "json" };
import settingsEn from "../../apps/web/src/features/device-settings/locales/en.json" with { type: "json" };
import settingsEs from "../../apps/web/src/features/device-settings/locales/es.json" with { type: "json" };
import settingsFr from "../../apps/web/src/features/device-settings/locales/fr.json" with { type: "json" };
import settingsRu from "../../apps/web/src/features/device-settings/locales/ru.json" with { type: "json" };
import settingsZhHans from "../../apps/web/src/features/device-settings/locales/zh-Hans.json" with { type: "json" };
import baseEn from "../../apps/web/src/locales/en.json" with { type: "json" };
import baseEs from "../../apps/web/src/locales/es.json" with { type: "json" };
import baseFr from "../../apps/web/src/locales/fr.json" with { type: "json" };
import baseRu from "../../apps/web/src/locales/ru.json" with { type: "json" };
import baseZhHans from "../../apps/web/src/locales/zh-Hans.json" with { type: "json" };
import { launchPhone, newPageIn, type Phone, signInAsDemo } from "../support/browser.ts";
import { startTestSystem } from "../support/system.ts";

const BASE = { en: baseEn, "zh-Hans": baseZhHans, es: baseEs, ru: baseRu, fr: baseFr } as const;
const DEVICE = { en: deviceEn, "zh-Hans": deviceZhHans, es: deviceEs, ru: deviceRu, fr: deviceFr } as const;
const SETTINGS = { en: settingsEn, "zh-Hans": settingsZhHans, es: settingsEs, ru: settingsRu, fr: settingsFr } as const;

/**
 * The device screens in Chromium in each of the five languages: one
 * simulated softener per language (600× time) so the languages do not disturb each other. For each language: the
 * live station text and a forced regeneration's stations, DeviceInfo's four §3 labels, a wrong advanced setting
 * refused with the §5 text in that language, a leak close on Fault with its label, and an offline device's controls
 * off with "Device offline" in that language. The expected texts come from the app's and the server's
 * own catalogues, so a missing or English-only translation fails here.
 */
describe("the device screens in all five languages", () => {
  let system: DevSystem;
  let phone: Phone;
  let token: string | null = null;

  beforeAll(async () => {
    system = await startTestSystem({ SIM_DEVICES: String(LANGUAGES.length), SIM_TIME_SCALE: "600" });
    phone = await launchPhone("en-US");
  });
  afterAll(async () => {
    await phone?.close();
    await system?.close();
  });

  /** A page signed in as the demo owner with the app in `lang`. */
  async function pageIn(lang: Language): Promise<Page> {
    const page = await newPageIn(phone.context, lang);
    if (!token) {
      await signInAsDemo(page, system.url);
      token = await page.evaluate(() => localStorage.getItem("token"));
    }
    return page;
  }

  async function open(page: Page, target: string, params: unknown) {
    const q = new URLSearchParams({ target, params: JSON.stringify(params) });
    await page.goto(`${system.url}/#/App?${q}`);
  }

  async function confirm(page: Page) {
    await page.locator(".adm-dialog-footer button").last().click();
  }

  for (const [index, lang] of LANGUAGES.entries()) {
    it(`${lang}: stations, device information, a refused setting, a fault and an offline device's controls`, async () => {
      const sim = system.fleet.devices[index];
      const row = await system.db
        .selectFrom("devices")
        .select(["id", "family_id"])
        .where("mac", "=", sim.mac)
        .executeTakeFirstOrThrow();
      const ids = { deviceId: row.id, familyId: row.family_id };
      const page = await pageIn(lang);
      const station = (n: number) => (BASE[lang].station as Record<string, string>)[String(n)];

      // Device: the live station in this language, then a forced regeneration's stations as they come.
      await open(page, "/Device", ids);
      await page.getByTestId("device-screen").waitFor({ timeout: 15_000 });
      await expect.poll(() => page.getByTestId("device-station").textContent(), { timeout: 15_000 }).toBe(station(0));
      await page.getByTestId("control-forced-regeneration").click();
      await confirm(page);
      await expect
        .poll(() => page.getByTestId("device-station").getAttribute("data-station"), { timeout: 15_000 })
        .not.toBe("0");
      const shown = await page.getByTestId("device-station").getAttribute("data-station");
      expect(await page.getByTestId("device-station").textContent()).toBe(station(Number(shown)));
      await expect
        .poll(() => page.getByTestId("device-station").getAttribute("data-station"), { timeout: 60_000 })
        .toBe("0");

      // DeviceInfo: the four labels of spec §3 in this language.
      await open(page, "/DeviceInfo", ids);
      await page.getByTestId("device-info-screen").waitFor({ timeout: 15_000 });
      const info = SETTINGS[lang].deviceInfo;
      await expect
        .poll(() => page.getByTestId("device-info-screen").textContent(), { timeout: 15_000 })
        .toContain(info.mac);
      const text = (await page.getByTestId("device-info-screen").textContent()) ?? "";
      for (const label of [info.model, info.deviceSerialNumber, info.serialNumber]) expect(text).toContain(label);

      // DeviceSetting: a wrong value is refused with the §5 text in this language, nothing sent.
      await open(page, "/DeviceSetting", ids);
      await page.getByTestId("device-setting-screen").waitFor();
      await page.getByTestId("device-setting-input-resinVolume").waitFor({ timeout: 15_000 });
      const before = sim.valve.snapshot().settings.resinVolume;
      await page.getByTestId("device-setting-input-resinVolume").fill("99999");
      await page.getByTestId("device-setting-save").click();
      await expect
        .poll(() => page.getByTestId("device-setting-status").textContent(), { timeout: 15_000 })
        .toContain(MESSAGES[lang]["device.wrongConfiguration"]);
      expect(sim.valve.snapshot().settings.resinVolume).toBe(before);

      // Fault: a leak-point close (513) with its reason in this language.
      sim.injectClose(513);
      await expect
        .poll(
          async () =>
            (
              await system.db
                .selectFrom("device_state")
                .select("close_reason")
                .where("device_id", "=", row.id)
                .executeTakeFirst()
            )?.close_reason,
          { timeout: 15_000 },
        )
        .toBe(513);
      await open(page, "/Fault", ids);
      await page.getByTestId("fault-screen").waitFor();
      const current = page.locator('[data-testid="fault-current"][data-close-reason="513"]');
      await current.waitFor({ timeout: 15_000 });
      expect(await current.textContent()).toContain(DEVICE[lang].fault.reason["513"]);

      // An offline device: a command fails with "Device offline" in this language.
      sim.goOffline();
      await expect
        .poll(
          async () =>
            (
              await system.db
                .selectFrom("device_state")
                .select("online")
                .where("device_id", "=", row.id)
                .executeTakeFirst()
            )?.online,
          { timeout: 10_000 },
        )
        .toBe(0);
      await open(page, "/Device", ids);
      await page.getByTestId("device-screen").waitFor({ timeout: 15_000 });
      // Its controls are off, saying why in this language, and its screen says when it was last heard.
      await page.getByTestId("device-controls-off").waitFor({ timeout: 15_000 });
      expect(await page.getByTestId("control-forced-flushing").isDisabled()).toBe(true);
      expect(await page.getByTestId("device-controls-off").textContent()).toBe(BASE[lang].errors.deviceOffline);
      expect(await page.getByTestId("device-last-heard").textContent()).toContain(
        DEVICE[lang].device.lastHeard.split("{{")[0].trim(),
      );
      await sim.goOnline();
      await page.close();
    });
  }
});
