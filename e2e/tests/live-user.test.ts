import { endpoints } from "@aquapilot/contract";
import { DEMO_ACCOUNT, type DevSystem } from "@aquapilot/dev";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accessToken, apiCall, openRoute, registerByEmail, signInOnPage } from "../support/api.ts";
import { launchPhone, newPageIn, type Phone, snap } from "../support/browser.ts";
import { expectStayed, joinFamily, markPage } from "../support/family.ts";
import { familyIdOf, startTestSystem } from "../support/system.ts";

/**
 * The domain events that are not about a device, on open screens (docs/messages-push.md "Domain events"): a member
 * joining shows on the administrator's open member list; messages read on one phone of a user clear the unread badge
 * on their other phone; units changed on one phone of a user redraw the figures on the other; an after-sales request
 * sent from one phone shows on the other's open request list; all within 2 s, without navigating or reloading.
 */
describe("the other phone's changes to members, messages, settings and after-sales reach the open screen", () => {
  let system: DevSystem;
  let phones: Array<Phone> = [];
  let admin: Page;
  let adminToken: string;
  let familyId: string;
  /** The 2 s promise. */
  const PROMISE_MS = 2_000;

  beforeAll(async () => {
    system = await startTestSystem({ SIM_DEVICES: "1" });
    familyId = await familyIdOf(system, DEMO_ACCOUNT.email);
    adminToken = await accessToken(system.url, DEMO_ACCOUNT.email, DEMO_ACCOUNT.password);
    const phone = await launchPhone("en-US");
    phones.push(phone);
    admin = await newPageIn(phone.context, "en");
    await signInOnPage(admin, system.url, DEMO_ACCOUNT.email, DEMO_ACCOUNT.password, "home-screen");
  });
  afterAll(async () => {
    for (const p of phones) await p.close();
    phones = [];
    await system?.close();
  });

  it("a member joining shows on the administrator's open member list", async () => {
    await openRoute(admin, system.url, "/FamilyUserList", { familyId }, "family-user-list");
    await expect.poll(() => admin.getByTestId("family-user-item").count(), { timeout: 15_000 }).toBe(1);
    const url = await markPage(admin);
    const joiner = { email: "joins-later@example.com", password: "joiner-pass-1" };
    await registerByEmail(system.url, joiner.email, joiner.password);
    await joinFamily(system.url, familyId, adminToken, joiner);
    await expect.poll(() => admin.getByTestId("family-user-item").count(), { timeout: PROMISE_MS }).toBe(2);
    await snap(admin, "live-user-member-joined");
    await expectStayed(admin, url);
  });

  it("messages read on one phone clear the unread badge on the user's other phone", async () => {
    await openRoute(admin, system.url, "/index/home", undefined, "home-screen");
    // A message for the user (the call that sends the caller a test message).
    const sent = await apiCall(system.url, endpoints.testSendMessage.path, { method: "POST", token: adminToken });
    expect(sent.status).toBe(200);
    await expect
      .poll(async () => Number(await admin.getByTestId("home-messages").getAttribute("data-unread")), {
        timeout: 15_000,
      })
      .toBeGreaterThan(0);
    const url = await markPage(admin);
    // The other phone of the same user reads them all.
    const read = await apiCall(system.url, endpoints.setMessageAllRead.path, { method: "POST", token: adminToken });
    expect(read.status).toBe(200);
    await expect
      .poll(async () => Number(await admin.getByTestId("home-messages").getAttribute("data-unread")), {
        timeout: PROMISE_MS,
      })
      .toBe(0);
    await expectStayed(admin, url);
  });

  it("units changed on one phone redraw the open Device screen's figures on the other", async () => {
    const row = await system.db
      .selectFrom("devices")
      .select("id")
      .where("family_id", "=", familyId)
      .executeTakeFirstOrThrow();
    await openRoute(admin, system.url, "/Device", { deviceId: row.id, familyId }, "device-screen");
    const waterLeft = admin.getByTestId("device-water-left");
    await expect.poll(() => waterLeft.textContent(), { timeout: 15_000 }).toMatch(/\bL\b/);
    const url = await markPage(admin);
    const set = await apiCall(system.url, endpoints.setUnitPreferences.path, {
      method: "POST",
      token: adminToken,
      body: { volumeUnit: "gal", hardnessUnit: "mgL" },
    });
    expect(set.status).toBe(200);
    await expect.poll(() => waterLeft.textContent(), { timeout: PROMISE_MS }).toMatch(/gal/);
    await snap(admin, "live-user-units");
    await expectStayed(admin, url);
  });

  it("an after-sales request sent from one phone shows on the user's open request list on the other", async () => {
    await openRoute(admin, system.url, "/AfterSaleList", undefined, "after-sale-list-screen");
    // Loaded: its rows, or the empty list's notice.
    await admin
      .locator('[data-testid="after-sale-row"], [data-testid="after-sale-list-empty"]')
      .first()
      .waitFor({ timeout: 15_000 });
    const rows = () => admin.getByTestId("after-sale-row").count();
    const before = await rows();
    const url = await markPage(admin);
    const row = await system.db
      .selectFrom("devices")
      .select("id")
      .where("family_id", "=", familyId)
      .executeTakeFirstOrThrow();
    const created = await apiCall(system.url, endpoints.createAfterSale.path, {
      method: "POST",
      token: adminToken,
      body: { deviceId: row.id, description: "The softener hums at night.", photos: [], attachDiagnostics: false },
    });
    expect(created.status).toBe(200);
    await expect.poll(rows, { timeout: PROMISE_MS }).toBe(before + 1);
    expect(await admin.getByTestId("after-sale-row-description").first().textContent()).toContain("hums at night");
    await expectStayed(admin, url);
  });
});
