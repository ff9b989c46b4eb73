import { endpoints } from "@aquapilot/contract";
import { DEMO_ACCOUNT, type DevSystem } from "@aquapilot/dev";
import { provisionDevice } from "@aquapilot/server/modules/devices/provision.ts";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accessToken, apiCall, openRoute, registerByEmail, signInOnPage } from "../support/api.ts";
import { launchPhone, newPageIn, type Phone, snap } from "../support/browser.ts";
import { expectStayed, joinFamily, markPage } from "../support/family.ts";
import { familyIdOf, startTestSystem } from "../support/system.ts";

/**
 * Two members of one household on two phones (docs/messages-push.md "Domain events"): what the administrator changes
 * on theirs — vacation on and off from the Device screen, the device's name, the salt level entered, a forced
 * regeneration, a device added, the household's name — shows on the member's open screen within 2 s of the change,
 * without the member navigating or reloading.
 */
describe("two phones of one household: the other's changes reach the open screen", () => {
  let system: DevSystem;
  let memberPhone: Phone;
  let adminPhone: Phone;
  let member: Page;
  let admin: Page;
  let adminToken: string;
  let familyId: string;
  let deviceId: string;
  const joiner = { email: "second-phone@example.com", password: "member-pass-1" };
  /** The 2 s promise. */
  const PROMISE_MS = 2_000;

  beforeAll(async () => {
    system = await startTestSystem({ SIM_DEVICES: "1" });
    await registerByEmail(system.url, joiner.email, joiner.password);
    familyId = await familyIdOf(system, DEMO_ACCOUNT.email);
    adminToken = await accessToken(system.url, DEMO_ACCOUNT.email, DEMO_ACCOUNT.password);
    await joinFamily(system.url, familyId, adminToken, joiner);
    const row = await system.db
      .selectFrom("devices")
      .select("id")
      .where("family_id", "=", familyId)
      .executeTakeFirstOrThrow();
    deviceId = row.id;
    memberPhone = await launchPhone("en-US");
    adminPhone = await launchPhone("en-US");
    member = await newPageIn(memberPhone.context, "en");
    admin = await newPageIn(adminPhone.context, "en");
    await signInOnPage(member, system.url, joiner.email, joiner.password, "home-screen");
    await signInOnPage(admin, system.url, DEMO_ACCOUNT.email, DEMO_ACCOUNT.password, "home-screen");
  });
  afterAll(async () => {
    await memberPhone?.close();
    await adminPhone?.close();
    await system?.close();
  });

  it("the Device screen follows vacation on and off, a rename and the salt level entered on the other phone", async () => {
    const target = { deviceId, familyId };
    await openRoute(member, system.url, "/Device", target, "device-screen");
    await openRoute(admin, system.url, "/Device", target, "device-screen");
    await member.getByTestId("device-salt").waitFor({ timeout: 15_000 });
    const url = await markPage(member);
    expect(await member.getByTestId("device-vacation").count()).toBe(0);

    // Vacation on, from the administrator's Device screen: once their command is done, the member's screen shows it.
    await admin.getByTestId("control-vacation-enter").click();
    await admin.locator(".adm-dialog-footer button").last().click();
    await expect
      .poll(() => admin.getByTestId("device-command-status").getAttribute("data-status"), { timeout: 15_000 })
      .toBe("done");
    await member.getByTestId("device-vacation").waitFor({ timeout: PROMISE_MS });
    await snap(member, "live-family-device-vacation");

    // And off again.
    await admin.getByTestId("control-vacation-exit").click();
    await admin.locator(".adm-dialog-footer button").last().click();
    await admin.getByTestId("device-vacation").waitFor({ state: "detached", timeout: 15_000 });
    await member.getByTestId("device-vacation").waitFor({ state: "detached", timeout: PROMISE_MS });

    // The device renamed on the other phone (the call DeviceNetworkNameUpdate makes).
    const renamed = await apiCall(
      system.url,
      `${endpoints.updateDeviceName.path}?deviceId=${deviceId}&name=${encodeURIComponent("Basement softener")}`,
      { method: "POST", token: adminToken },
    );
    expect(renamed.status).toBe(200);
    await expect
      .poll(() => member.getByTestId("device-name").textContent(), { timeout: PROMISE_MS })
      .toBe("Basement softener");

    // A setting saved on the other phone: the salt level entered after a refill.
    const refilled = await apiCall(system.url, `${endpoints.resetSaltLevel.path}?deviceId=${deviceId}&levelKg=20`, {
      method: "POST",
      token: adminToken,
    });
    expect(refilled.status).toBe(200);
    await expect
      .poll(() => member.getByTestId("device-salt").getAttribute("data-level"), { timeout: PROMISE_MS })
      .toBe("20");
    await snap(member, "live-family-device-renamed");
    await expectStayed(member, url);
  });

  it("a forced regeneration started on the other phone shows its progress on the open Device screen", async () => {
    const target = { deviceId, familyId };
    await openRoute(member, system.url, "/Device", target, "device-screen");
    await openRoute(admin, system.url, "/Device", target, "device-screen");
    await expect
      .poll(() => member.getByTestId("device-station").getAttribute("data-station"), { timeout: 15_000 })
      .toBe("0");
    const url = await markPage(member);
    await admin.getByTestId("control-forced-regeneration").click();
    await admin.locator(".adm-dialog-footer button").last().click();
    await expect
      .poll(() => admin.getByTestId("device-command-status").getAttribute("data-status"), { timeout: 15_000 })
      .toBe("done");
    await expect
      .poll(() => member.getByTestId("device-station").getAttribute("data-station"), { timeout: PROMISE_MS })
      .not.toBe("0");
    await snap(member, "live-family-regeneration");
    await expectStayed(member, url);
  });

  it("an advanced setting saved on the other phone shows on the open DeviceSetting screen once the device applied it", async () => {
    await openRoute(member, system.url, "/DeviceSetting", { deviceId, familyId }, "device-setting-screen");
    const hardness = member.getByTestId("device-setting-input-rawWaterHardness");
    await hardness.waitFor({ timeout: 15_000 });
    const url = await markPage(member);
    const before = Number(await hardness.inputValue());
    const next = before === 300 ? 310 : 300;
    // The administrator's save (the call DeviceSetting makes): a set-config command the device applies and reports.
    const commandId = crypto.randomUUID();
    const saved = await apiCall(
      system.url,
      `${endpoints.controlDevice.path}?deviceId=${deviceId}&commandId=${commandId}`,
      {
        method: "POST",
        token: adminToken,
        body: { command: "set-config", params: { settings: { rawWaterHardness: next } } },
      },
    );
    expect(saved.status).toBe(200);
    // Done only once a state report shows it; from then on the member's screen has it within the 2 s promise.
    await expect
      .poll(
        async () =>
          (
            await apiCall<{ status: string }>(system.url, `${endpoints.getCommandStatus.path}?commandId=${commandId}`, {
              token: adminToken,
            })
          ).result?.status,
        { timeout: 15_000, interval: 100 },
      )
      .toBe("done");
    // Shown in the member's hardness unit: a different figure than before, the one the device reports.
    await expect.poll(async () => Number(await hardness.inputValue()), { timeout: PROMISE_MS }).not.toBe(before);
    await snap(member, "live-family-device-setting");
    await expectStayed(member, url);
  });

  it("Home follows a device added and the household renamed on the other phone", async () => {
    await openRoute(member, system.url, "/index/home", undefined, "home-screen");
    await expect.poll(() => member.getByTestId("device-card").count(), { timeout: 15_000 }).toBe(1);
    const url = await markPage(member);

    // A device bound on the other phone (the call network setup ends with).
    const mac = "0A1B2C3D4E5F";
    await provisionDevice(system.db, { mac, secret: "second-softener-secret", name: "Garage softener" });
    const bound = await apiCall(system.url, endpoints.bindDevice.path, {
      method: "POST",
      token: adminToken,
      body: { familyId, mac, secret: "second-softener-secret", name: "Garage softener" },
    });
    expect(bound.status).toBe(200);
    await expect.poll(() => member.getByTestId("device-card").count(), { timeout: PROMISE_MS }).toBe(2);

    // The household renamed on the other phone.
    const renamed = await apiCall(
      system.url,
      `${endpoints.updateFamilyName.path}?familyId=${familyId}&name=${encodeURIComponent("Lake house")}`,
      { method: "PUT", token: adminToken },
    );
    expect(renamed.status).toBe(200);
    await expect
      .poll(() => member.getByTestId("home-family").textContent(), { timeout: PROMISE_MS })
      .toContain("Lake house");
    await snap(member, "live-family-home");
    await expectStayed(member, url);
  });
});
