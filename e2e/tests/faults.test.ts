import { LANGUAGES, type Language, type TFault } from "@aquapilot/contract";
import { DEMO_ACCOUNT, type DevSystem } from "@aquapilot/dev";
import { MESSAGES } from "@aquapilot/server/http/messages.ts";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import deviceEn from "../../apps/web/src/features/device/locales/en.json" with { type: "json" };
import deviceEs from "../../apps/web/src/features/device/locales/es.json" with { type: "json" };
import deviceFr from "../../apps/web/src/features/device/locales/fr.json" with { type: "json" };
import deviceRu from "../../apps/web/src/features/device/locales/ru.json" with { type: "json" };
import deviceZhHans from "../../apps/web/src/features/device/locales/zh-Hans.json" with { type: "json" };
import faultEn from "../../apps/web/src/features/fault/locales/en.json" with { type: "json" };
import faultEs from "../../apps/web/src/features/fault/locales/es.json" with { type: "json" };
import faultFr from "../../apps/web/src/features/fault/locales/fr.json" with { type: "json" };
import faultRu from "../../apps/web/src/features/fault/locales/ru.json" with { type: "json" };
import faultZhHans from "../../apps/web/src/features/fault/locales/zh-Hans.json" with { type: "json" };
import { accessToken, apiCall, openRoute, registerByEmail, signInOnPage } from "../support/api.ts";
import { launchPhone, newPageIn, type Phone, signInAsDemo, snap } from "../support/browser.ts";
import { familyIdOf, startTestSystem } from "../support/system.ts";

const FAULT = { en: faultEn, "zh-Hans": faultZhHans, es: faultEs, ru: faultRu, fr: faultFr } as const;
const DEVICE = { en: deviceEn, "zh-Hans": deviceZhHans, es: deviceEs, ru: deviceRu, fr: deviceFr } as const;
const LIST = "/api/run-lucky/device/app/fault/get-fault-list";
const REOPEN = "/api/run-lucky/device/app/fault/reopen-water";
/** The phone's time zone in this test: not UTC, so a time shown in UTC or in the device's clock would not match. */
const ZONE = "Asia/Shanghai";

/** Waits until the page's finite CSS animations (the route's slide-in) have ended, so a screenshot shows it at rest. */
async function settled(p: Page): Promise<void> {
  await p.waitForFunction(() =>
    document
      .getAnimations()
      .every((a) => a.playState !== "running" || a.effect?.getComputedTiming().endTime === Number.POSITIVE_INFINITY),
  );
}

/** Waits until the open dialog has finished opening (antd-mobile's spring: opacity 1, taps accepted). */
async function dialogShown(p: Page): Promise<void> {
  await p.waitForFunction(() => {
    const box = document.querySelector<HTMLElement>(".adm-dialog .adm-center-popup-wrap > div");
    const mask = document.querySelector<HTMLElement>(".adm-dialog .adm-mask");
    return box?.style.opacity === "1" && box.style.pointerEvents === "unset" && mask?.style.opacity !== "0";
  });
  await p.waitForTimeout(100); // pacing: the spring's last frame has painted before a tap or a picture
}

/** yyyy-MM-dd HH:mm of an ISO time in {@link ZONE} (what the app must show for a real timestamp). */
function inZone(iso: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-CA", {
      timeZone: ZONE,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    })
      .formatToParts(new Date(iso))
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}`;
}

/**
 * Faults in Chromium against the whole system (faults are actionable): the demo owner keeps
 * My → Faults open while a simulated softener closes the water for a leak (513); the fault appears live, without a
 * reload, with the device, the local time, the cause in plain words, what to do, its help article and a service
 * request pre-filled with the device's diagnostics; "Reopen water" reopens the valve (forced-switch, once) and the
 * fault moves to the last 30 days. A device that is offline with its water closed shows the valve-button instruction.
 * A member (not the administrator) sees the same faults live and may reopen (spec §6: members use the devices); a
 * stranger is refused. Screenshots of My → Faults and a device's Fault screen in the five languages at 375×812.
 */
describe("faults in Chromium", () => {
  let system: DevSystem;
  let owner: Phone;
  let page: Page;
  const deviceIds: string[] = [];
  let familyId: string;
  let ownerToken: string;
  const memberEmail = `fault-member-${Date.now()}@example.com`;
  const strangerEmail = `fault-stranger-${Date.now()}@example.com`;

  const card = (p: Page, testId: "fault-current" | "fault-recent", deviceId: string, reason: string) =>
    p.locator(`[data-testid="${testId}"][data-device-id="${deviceId}"][data-close-reason="${reason}"]`);

  async function closeReasonInCloud(deviceId: string): Promise<number | null | undefined> {
    const row = await system.db
      .selectFrom("device_state")
      .select("close_reason")
      .where("device_id", "=", deviceId)
      .executeTakeFirst();
    return row?.close_reason;
  }

  beforeAll(async () => {
    system = await startTestSystem({ SIM_DEVICES: "2" });
    familyId = await familyIdOf(system, DEMO_ACCOUNT.email);
    for (const sim of system.fleet.devices) {
      const row = await system.db
        .selectFrom("devices")
        .select("id")
        .where("mac", "=", sim.mac)
        .executeTakeFirstOrThrow();
      deviceIds.push(row.id);
    }
    ownerToken = await accessToken(system.url, DEMO_ACCOUNT.email, DEMO_ACCOUNT.password);
    owner = await launchPhone("en-US");
    page = await newPageIn(owner.context, "en");
    const cdp = await owner.context.newCDPSession(page);
    await cdp.send("Emulation.setTimezoneOverride", { timezoneId: ZONE });
    await signInAsDemo(page, system.url);
  });
  afterAll(async () => {
    await owner?.close();
    await system?.close();
  });

  it("a leak appears in My → Faults live, with time, cause, what to do, help and a pre-filled service request", async () => {
    const [leakyId] = deviceIds;
    const sim = system.fleet.devices[0];
    await page.getByTestId("tab-my").click();
    await page.getByTestId("my-menu-faults").click();
    await page.getByTestId("fault-screen").waitFor();
    const list = page.getByTestId("fault-list");
    await expect.poll(() => list.getAttribute("data-scope")).toBe("all");
    await page.getByTestId("fault-none").waitFor({ timeout: 15_000 });
    expect(await page.getByTestId("fault-none").textContent()).toContain(faultEn.faults.emptyHint);
    // A marker on the page: it survives only if the fault arrives without a reload.
    await page.evaluate(() => {
      (window as unknown as { __noReload: boolean }).__noReload = true;
    });

    const injectedAt = Date.now();
    sim.injectClose(513);
    const leak = card(page, "fault-current", leakyId, "513");
    await leak.waitFor({ timeout: 10_000 });
    console.log(`[faults] leak 513 shown in My → Faults after ${Date.now() - injectedAt} ms`);
    expect(await page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(true);

    const startedAt = (await leak.getAttribute("data-started-at")) ?? "";
    // A real timestamp: when the cloud received the close (not the device clock), shown in the phone's time zone.
    expect(Math.abs(Date.parse(startedAt) - injectedAt)).toBeLessThan(10_000);
    const text = (await leak.textContent()) ?? "";
    expect(await leak.getByTestId("fault-time").textContent()).toBe(`Since ${inZone(startedAt)}`);
    const deviceName = (
      await system.db.selectFrom("devices").select("name").where("id", "=", leakyId).executeTakeFirstOrThrow()
    ).name;
    expect(await leak.getByTestId("fault-device").textContent()).toContain(deviceName);
    expect(text).toContain(deviceEn.fault.reason["513"]);
    expect(text).toContain(deviceEn.fault.label.systemError);
    expect(await leak.getByTestId("fault-cause").textContent()).toBe(faultEn.faults.cause["513"]);
    for (const step of Object.values(faultEn.faults.steps["513"])) expect(text).toContain(step);
    expect(await leak.getAttribute("data-open")).toBe("true");
    await leak.getByTestId("fault-reopen").waitFor();

    // The matching help article, then back to the list.
    expect(await leak.getByTestId("fault-help").getAttribute("data-article-id")).toBe("fault-leak");
    await leak.getByTestId("fault-help").click();
    await page.locator('[data-testid="article"][data-article-id="fault-leak"]').waitFor({ timeout: 15_000 });
    expect(await page.getByTestId("article-title").textContent()).toBe("Leak alarm: the water was closed");
    await page.goBack();
    await leak.waitFor();

    // Request service: AfterSaleCreate with the device, a description of the fault and its diagnostics switched on.
    await leak.getByTestId("fault-request-service").click();
    await page.getByTestId("after-sale-create-screen").waitFor();
    const description = await page.getByTestId("after-sale-description").inputValue();
    expect(description).toBe(`${deviceEn.fault.reason["513"]}: the water was closed at ${inZone(startedAt)}.`);
    expect(await page.getByTestId("after-sale-diagnostics").getAttribute("aria-checked")).toBe("true");
    await page.getByTestId("after-sale-submit").click();
    await page.getByTestId("fault-screen").waitFor({ timeout: 15_000 });
    const request = await system.db
      .selectFrom("after_sale_requests")
      .select(["device_id", "description", "diagnostics_json"])
      .executeTakeFirstOrThrow();
    expect(request).toMatchObject({ device_id: leakyId, description });
    const diagnostics = JSON.parse(request.diagnostics_json ?? "null") as { events: Array<{ closeReason: number }> };
    expect(diagnostics.events.some((e) => e.closeReason === 513)).toBe(true);
  });

  it("reopen water sends one command, the valve is back in service and the fault moves to the last 30 days", async () => {
    const [leakyId] = deviceIds;
    const sim = system.fleet.devices[0];
    const commands: string[] = [];
    const onCommand = (cmd: { name: string }) => commands.push(cmd.name);
    sim.on("command", onCommand);
    const leak = card(page, "fault-current", leakyId, "513");
    const faultId = await leak.getAttribute("data-fault-id");
    await leak.getByTestId("fault-reopen").click();
    const dialog = page.locator(".adm-dialog");
    await expect.poll(() => dialog.textContent()).toContain(faultEn.faults.reopen.confirm["513"]);
    // A double tap on the dialog's confirm still reopens once.
    await page.locator(".adm-dialog-footer button").last().dblclick();
    await expect.poll(() => sim.valve.snapshot().closeReason, { timeout: 15_000 }).toBeNull();
    expect(sim.valve.snapshot().station).toBe(0);
    const resolved = page.locator(`[data-testid="fault-recent"][data-fault-id="${faultId}"]`);
    await resolved.waitFor({ timeout: 10_000 });
    const clearedAt = (await resolved.getAttribute("data-cleared-at")) ?? "";
    expect(Date.parse(clearedAt)).toBeGreaterThanOrEqual(
      Date.parse((await resolved.getAttribute("data-started-at")) ?? ""),
    );
    expect(await resolved.getByTestId("fault-status").textContent()).toBe(faultEn.faults.status.cleared);
    expect(await resolved.getByTestId("fault-reopen").count()).toBe(0);
    expect(await page.getByTestId("fault-current").count()).toBe(0);
    sim.off("command", onCommand);
    expect(commands.filter((c) => c === "forced-switch")).toHaveLength(1);
    expect(await closeReasonInCloud(leakyId)).toBeNull();
  });

  it("a closed valve on an offline device shows the valve-button instruction; back online it offers the reopen", async () => {
    const otherId = deviceIds[1];
    const sim = system.fleet.devices[1];
    sim.injectClose(257);
    const closed = card(page, "fault-current", otherId, "257");
    await closed.getByTestId("fault-reopen").waitFor({ timeout: 10_000 });
    sim.goOffline();
    const offline = page.locator(`[data-testid="fault-current"][data-device-id="${otherId}"][data-kind="offline"]`);
    await offline.waitFor({ timeout: 15_000 });
    expect(await offline.getByTestId("fault-cause").textContent()).toBe(faultEn.faults.cause.offline);
    await closed.getByTestId("fault-reopen-at-valve").waitFor();
    expect(await closed.getByTestId("fault-reopen-at-valve").textContent()).toBe(faultEn.faults.reopen.atValve);
    expect(await closed.getByTestId("fault-reopen").count()).toBe(0);
    // The server refuses a remote reopen it cannot deliver, with the same instruction.
    const refused = await apiCall(system.url, `${REOPEN}?deviceId=${otherId}`, { method: "POST", token: ownerToken });
    expect(refused.status).toBe(409);
    expect(refused.error?.message).toBe(MESSAGES.en["fault.reopenOffline"]);
    await sim.goOnline();
    await expect.poll(() => offline.count(), { timeout: 15_000 }).toBe(0);
    await closed.getByTestId("fault-reopen").waitFor({ timeout: 10_000 });
  });

  it("a member sees the household's faults live and may reopen; a stranger sees none and is refused", async () => {
    const otherId = deviceIds[1];
    await registerByEmail(system.url, memberEmail, "member12", "en");
    await registerByEmail(system.url, strangerEmail, "stranger12", "en");
    const memberToken = await accessToken(system.url, memberEmail, "member12");
    const strangerToken = await accessToken(system.url, strangerEmail, "stranger12");
    const share = await apiCall<{ code: string }>(
      system.url,
      `/api/run-lucky/device/app/family-user/trans-to-other-member-qr-code?familyId=${familyId}`,
      { token: ownerToken },
    );
    const joined = await apiCall<{ joined: boolean }>(
      system.url,
      `/api/run-lucky/device/app/family-user/analysis-code?code=${encodeURIComponent(share.result.code)}`,
      { method: "POST", token: memberToken },
    );
    expect(joined.result.joined).toBe(true);

    const stranger = await apiCall<TFault[]>(system.url, LIST, { token: strangerToken });
    expect(stranger.result).toEqual([]);
    const strangerOne = await apiCall(system.url, `${LIST}?deviceId=${otherId}`, { token: strangerToken });
    expect(strangerOne.status).toBe(404);
    const strangerReopen = await apiCall(system.url, `${REOPEN}?deviceId=${otherId}`, {
      method: "POST",
      token: strangerToken,
    });
    expect(strangerReopen.status).toBe(404);
    expect(system.fleet.devices[1].valve.snapshot().closeReason).toBe(257);

    const member = await launchPhone("en-US");
    try {
      const memberPage = await newPageIn(member.context, "en");
      await signInOnPage(memberPage, system.url, memberEmail, "member12");
      await openRoute(memberPage, system.url, "/Fault", undefined, "fault-screen");
      const closed = card(memberPage, "fault-current", otherId, "257");
      await closed.waitFor({ timeout: 15_000 });
      // Live for the member too: a new close on the first softener appears without a reload.
      system.fleet.devices[0].injectClose(1025);
      const flow = card(memberPage, "fault-current", deviceIds[0], "1025");
      await flow.waitFor({ timeout: 10_000 });
      expect(await flow.textContent()).toContain(deviceEn.fault.label.excessiveFlow);
      // What a member may do: read the help, request service, reopen (Device.Control; spec §6).
      await closed.getByTestId("fault-help").waitFor();
      await closed.getByTestId("fault-request-service").waitFor();
      await closed.getByTestId("fault-reopen").click();
      await expect
        .poll(() => memberPage.locator(".adm-dialog").textContent())
        .toContain(faultEn.faults.reopen.confirm["257"]);
      await memberPage.locator(".adm-dialog-footer button").last().click();
      await expect.poll(() => system.fleet.devices[1].valve.snapshot().closeReason, { timeout: 15_000 }).toBeNull();
      await memberPage
        .locator(`[data-testid="fault-recent"][data-device-id="${otherId}"][data-close-reason="257"]`)
        .waitFor({
          timeout: 10_000,
        });
      // The owner's open list follows the member's reopen live.
      await page.locator(`[data-testid="fault-recent"][data-device-id="${otherId}"][data-close-reason="257"]`).waitFor({
        timeout: 10_000,
      });
    } finally {
      await member.close();
    }
  });

  it("My → Faults and a device's Fault screen in the five languages (screenshots at 375×812)", async () => {
    // One open close (excessive flow, from the member's test) and resolved ones in the last 30 days.
    await expect.poll(async () => closeReasonInCloud(deviceIds[0]), { timeout: 10_000 }).toBe(1025);
    for (const lang of LANGUAGES as readonly Language[]) {
      const p = await newPageIn(owner.context, lang);
      const cdp = await owner.context.newCDPSession(p);
      await cdp.send("Emulation.setTimezoneOverride", { timezoneId: ZONE });
      await openRoute(p, system.url, "/Fault", undefined, "fault-screen");
      const open = card(p, "fault-current", deviceIds[0], "1025");
      await open.waitFor({ timeout: 15_000 });
      await p.locator('[data-testid="fault-recent"]').first().waitFor();
      const texts = FAULT[lang].faults;
      const body = (await p.getByTestId("fault-screen").textContent()) ?? "";
      expect(body).toContain(texts.title);
      expect(body).toContain(texts.cause["1025"]);
      expect(body).toContain(texts.reopen.action);
      expect(body).toContain(texts.requestService);
      expect(body).toContain(DEVICE[lang].fault.reason["1025"]);
      expect(body, `${lang}: an untranslated key`).not.toMatch(/\bfaults?\.[a-zA-Z]/);
      await settled(p);
      await snap(p, `faults-${lang}-my-faults`);
      await open.getByTestId("fault-reopen").scrollIntoViewIfNeeded();
      await open.getByTestId("fault-reopen").click();
      await expect.poll(() => p.locator(".adm-dialog").textContent()).toContain(texts.reopen.confirm.flow);
      await dialogShown(p);
      await snap(p, `faults-${lang}-reopen-confirm`);
      await p.goBack();
      await expect.poll(() => p.locator(".adm-dialog").count()).toBe(0);
      await openRoute(p, system.url, "/Fault", { deviceId: deviceIds[1], familyId }, "fault-screen");
      await expect.poll(() => p.getByTestId("fault-list").getAttribute("data-scope")).toBe("device");
      await p.locator('[data-testid="fault-recent"]').first().waitFor({ timeout: 15_000 });
      expect(await p.locator(`[data-testid^="fault-"][data-device-id="${deviceIds[0]}"]`).count()).toBe(0);
      await settled(p);
      await snap(p, `faults-${lang}-device-fault`);
      // Its service request, pre-filled in this language with the device and its diagnostics.
      const resolved = p.locator('[data-testid="fault-recent"]').first();
      await resolved.getByTestId("fault-request-service").click();
      await p.getByTestId("after-sale-create-screen").waitFor();
      expect(await p.getByTestId("after-sale-description").inputValue()).toContain(DEVICE[lang].fault.reason["257"]);
      expect(await p.getByTestId("after-sale-diagnostics").getAttribute("aria-checked")).toBe("true");
      await settled(p);
      await snap(p, `faults-${lang}-request-service`);
      await p.goBack();
      await p.getByTestId("fault-screen").waitFor();
      // And the matching help article in this language.
      await p.locator('[data-testid="fault-recent"]').first().getByTestId("fault-help").click();
      await p.locator('[data-testid="article"][data-article-id="fault-valve-button"]').waitFor({ timeout: 15_000 });
      await settled(p);
      await snap(p, `faults-${lang}-help-article`);
      await p.close();
    }
    // Nothing was reopened by the screenshots (the dialog was closed with back).
    expect(system.fleet.devices[0].valve.snapshot().closeReason).toBe(1025);
  });
});
