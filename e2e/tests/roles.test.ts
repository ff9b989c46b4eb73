import { DEMO_ACCOUNT, type DevSystem } from "@aquapilot/dev";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accessToken, apiCall, openRoute, registerByEmail, signInOnPage } from "../support/api.ts";
import { launchPhone, newPageIn, type Phone, snap } from "../support/browser.ts";
import { familyIdOf, startTestSystem } from "../support/system.ts";

/**
 * Roles (admin-only actions hidden from members, spec §6): a member of the demo household sees no
 * "Invite members" and no "add device" on Home, in every language, while the administrator sees both.
 */
describe("what a member is offered", () => {
  let system: DevSystem;
  let phone: Phone;
  const member = { email: "member-roles@example.com", password: "member-pass-1" };
  let familyId: string;
  /** The demo household's region (上海市 黄浦区) as each language's reader sees it. */
  const REGION_LINE: Record<string, string> = {
    en: "Shanghai Huangpu District",
    "zh-Hans": "上海市 黄浦区",
    ru: "Шанхай район Хуанпу",
    es: "Shanghái Distrito de Huangpu",
    fr: "Shanghai District de Huangpu",
  };

  beforeAll(async () => {
    system = await startTestSystem({ SIM_DEVICES: "1" });
    await registerByEmail(system.url, member.email, member.password);
    familyId = await familyIdOf(system, DEMO_ACCOUNT.email);
    const admin = await accessToken(system.url, DEMO_ACCOUNT.email, DEMO_ACCOUNT.password);
    const share = await apiCall<{ code: string }>(
      system.url,
      `/api/run-lucky/device/app/family-user/trans-to-other-member-qr-code?familyId=${familyId}`,
      { token: admin },
    );
    const joiner = await accessToken(system.url, member.email, member.password);
    const joined = await apiCall(
      system.url,
      `/api/run-lucky/device/app/family-user/analysis-code?code=${encodeURIComponent(share.result.code)}`,
      { method: "POST", token: joiner },
    );
    expect(joined.status).toBe(200);
    phone = await launchPhone("en-US");
  });
  afterAll(async () => {
    await phone?.close();
    await system?.close();
  });

  it("the administrator is offered inviting and adding devices; a member is not, in every language", async () => {
    const adminPhone = await launchPhone("en-US");
    try {
      const adminPage = await newPageIn(adminPhone.context, "en");
      await signInOnPage(adminPage, system.url, DEMO_ACCOUNT.email, DEMO_ACCOUNT.password);
      await adminPage.getByTestId("device-card").first().waitFor({ timeout: 15_000 });
      expect(await adminPage.getByTestId("home-invite").count()).toBe(1);
      expect(await adminPage.getByTestId("home-add-device").count()).toBe(1);
    } finally {
      await adminPhone.close();
    }
    const first = await newPageIn(phone.context, "en");
    await signInOnPage(first, system.url, member.email, member.password);
    await first.close();
    for (const lang of ["en", "zh-Hans", "ru", "es", "fr"]) {
      const page = await newPageIn(phone.context, lang);
      await openRoute(page, system.url, "/index/home", undefined, "home-screen");
      await page.getByTestId("device-card").first().waitFor({ timeout: 15_000 });
      expect(await page.getByTestId("home-invite").count()).toBe(0);
      expect(await page.getByTestId("home-add-device").count()).toBe(0);
      // What a member may do stays: push management and the device order.
      expect(await page.getByTestId("home-push").count()).toBe(1);
      await snap(page, `home-member-${lang}`);
      // The household's region reads in the interface language (the region data's names).
      await openRoute(page, system.url, "/FamilyDetails", { familyId }, "family-details-screen");
      await expect
        .poll(() => page.getByTestId("family-details-location").textContent(), { timeout: 10_000 })
        .toContain(REGION_LINE[lang]);
      await page.close();
    }
  });
});
