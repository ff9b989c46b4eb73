import { LANGUAGES, type Language } from "@aquapilot/contract";
import type { DevSystem } from "@aquapilot/dev";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import deviceEn from "../../apps/web/src/features/device/locales/en.json" with { type: "json" };
import deviceEs from "../../apps/web/src/features/device/locales/es.json" with { type: "json" };
import deviceFr from "../../apps/web/src/features/device/locales/fr.json" with { type: "json" };
import deviceRu from "../../apps/web/src/features/device/locales/ru.json" with { type: "json" };
import deviceZhHans from "../../apps/web/src/features/device/locales/zh-Hans.json" with { type: "json" };
import { launchPhone, newPageIn, type Phone, signInAsDemo, snap } from "../support/browser.ts";
import { startTestSystem } from "../support/system.ts";

const DEVICE = { en: deviceEn, "zh-Hans": deviceZhHans, es: deviceEs, ru: deviceRu, fr: deviceFr } as const;
const DAY_MS = 86_400_000;

/** The plural form i18next picks for `count` in `lang` (CLDR rules), e.g. ru 3 → "few". */
function pluralKey(lang: Language, count: number): string {
  return new Intl.PluralRules(lang).select(count);
}

/**
 * The device's age on DeviceAttribute (spec §9 "Age computed with 365-day years"), in Chromium against the whole
 * system in all five languages: a softener registered 1 460 days ago (four 365-day years, although only three
 * calendar years and 364 days when a leap day lies between) reads "4 years"; one registered today reads "Less than a
 * year".
 */
describe("the device's age in 365-day years", () => {
  let system: DevSystem;
  let phone: Phone;
  const devices: Array<{ id: string; familyId: string }> = [];

  beforeAll(async () => {
    system = await startTestSystem({ SIM_DEVICES: "2" });
    const rows = await system.db.selectFrom("devices").select(["id", "family_id"]).orderBy("sort").execute();
    for (const r of rows) devices.push({ id: r.id, familyId: r.family_id! });
    // The first softener left the factory 1 460 days (and one hour) ago.
    const registered = new Date(Date.now() - 1460 * DAY_MS - 3_600_000).toISOString();
    await system.db.updateTable("devices").set({ creation_time: registered }).where("id", "=", devices[0].id).execute();
    phone = await launchPhone("en-US");
  });
  afterAll(async () => {
    await phone?.close();
    await system?.close();
  });

  it("DeviceAttribute shows the age in each language", async () => {
    for (const lang of LANGUAGES) {
      const page = await newPageIn(phone.context, lang);
      await signInAsDemo(page, system.url);
      const texts = DEVICE[lang].deviceAttribute as Record<string, string>;
      for (const [i, expected] of [
        [0, texts[`ageYears_${pluralKey(lang, 4)}`].replace("{{count}}", "4")],
        [1, texts.ageUnderOne],
      ] as const) {
        const q = new URLSearchParams({
          target: "/DeviceAttribute",
          params: JSON.stringify({ deviceId: devices[i].id, familyId: devices[i].familyId }),
        });
        await page.goto(`${system.url}/#/App?${q}`);
        await page.getByTestId("device-attribute-screen").waitFor({ timeout: 15_000 });
        await expect.poll(() => page.getByTestId("attr-age").textContent(), { timeout: 15_000 }).toBe(expected);
        const row = page.locator(".adm-list-item", { has: page.getByTestId("attr-age") });
        expect(await row.textContent(), lang).toContain(texts.age);
        if (i === 0) {
          await expect.poll(() => page.locator(".adm-toast-main").count(), { timeout: 10_000 }).toBe(0);
          await snap(page, `device-age-${lang}`);
        }
      }
      await page.close();
    }
  });
});
