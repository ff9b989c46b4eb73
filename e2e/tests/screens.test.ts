import fs from "node:fs";
import path from "node:path";
import type { DevSystem } from "@aquapilot/dev";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchPhone, type Phone, signInAsDemo, snap, storeLanguage } from "../support/browser.ts";
import { startTestSystem } from "../support/system.ts";

type Locale = {
  login: { welcome: string; submit: string };
  register: { title: string };
  home: { devices: string };
  station: Record<string, string>;
};
const locale = (lang: string): Locale =>
  JSON.parse(fs.readFileSync(path.join(import.meta.dirname, `../../apps/web/src/locales/${lang}.json`), "utf8"));

/**
 * Login, Register and Home at 375×812 in zh-Hans and en: each screen shows its texts in the
 * chosen language, and a screenshot is kept in e2e/screenshots/ for a person to look at.
 */
describe.each(["zh-Hans", "en"])("screens in %s", (lang) => {
  let system: DevSystem;
  let phone: Phone;
  const texts = locale(lang);

  beforeAll(async () => {
    system = await startTestSystem({ SIM_DEVICES: "3" });
    phone = await launchPhone(lang === "en" ? "en-US" : "zh-CN");
  });
  afterAll(async () => {
    await phone?.close();
    await system?.close();
  });

  it("Login, Register and Home speak the language", async () => {
    const page = await phone.context.newPage();
    await storeLanguage(page, lang);
    await page.goto(`${system.url}/#/login`);
    await page.getByTestId("login-screen").waitFor();
    await expect.poll(() => page.getByTestId("login-screen").textContent()).toContain(texts.login.welcome);
    expect(await page.getByTestId("login-submit").textContent()).toContain(texts.login.submit);
    await snap(page, `login-${lang}`);

    await page.getByTestId("login-register").click();
    await page.getByTestId("register-screen").waitFor();
    expect(await page.getByTestId("register-screen").textContent()).toContain(texts.register.title);
    await page.waitForTimeout(800); // let the page transition finish before the picture
    await snap(page, `register-${lang}`);

    await signInAsDemo(page, system.url);
    await expect.poll(() => page.getByTestId("device-card").count(), { timeout: 15_000 }).toBe(3);
    await expect.poll(() => page.getByTestId("device-station").first().textContent()).toBe(texts.station["0"]);
    await page.waitForTimeout(2500); // let the sign-in toast fade before the picture
    await snap(page, `home-${lang}`);
    await page.close();
  });
});
