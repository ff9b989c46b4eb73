import type { DevSystem } from "@aquapilot/dev";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openRoute } from "../support/api.ts";
import { launchPhone, type Phone, signInAsDemo, snap, storeLanguage } from "../support/browser.ts";
import { startTestSystem } from "../support/system.ts";

/**
 * The device's own link as an owner sees it in Chromium (docs/architecture.md "What the phone shows"): a softener
 * whose reports the cloud refuses is never "Live" — its Device screen says since when, links the faults and turns the
 * controls off, Home badges its card — and the first report accepted again ends all of it on the open screens; a
 * softener the cloud no longer hears says when it was last heard.
 */
describe("the device's link to the cloud on Home and the Device screen", () => {
  let system: DevSystem;
  let phone: Phone;
  let page: Page;
  let deviceId: string;
  let familyId: string;

  beforeAll(async () => {
    system = await startTestSystem({ SIM_DEVICES: "1" });
    phone = await launchPhone("en-US");
    await storeLanguage(phone.context, "en");
    page = await phone.context.newPage();
    await signInAsDemo(page, system.url);
    const row = await system.db.selectFrom("devices").select(["id", "family_id"]).executeTakeFirstOrThrow();
    deviceId = row.id;
    familyId = row.family_id ?? "";
  });
  afterAll(async () => {
    await phone?.close();
    await system?.close();
  });

  it("reports refused: no 'Live', a banner with the time that opens the faults, controls off; Home badges the card until a report is accepted", async () => {
    await openRoute(page, system.url, "/Device", { deviceId, familyId }, "device-screen");
    await expect
      .poll(() => page.getByTestId("device-channel").getAttribute("data-live"), { timeout: 15_000 })
      .toBe("true");
    // The softener starts sending reports the cloud cannot read (a firmware fault), on its own MQTT topic, and keeps
    // doing so on its usual schedule until it is repaired.
    const sim = system.fleet.devices[0];
    if (!sim) throw new Error("the system runs no simulated softener");
    sim.garbleReports("{ not json");
    const banner = page.getByTestId("device-reports-refused");
    await banner.waitFor({ timeout: 5000 });
    expect(await banner.textContent()).toMatch(/^Reports not accepted since .+\. What to do$/);
    expect(await page.getByTestId("device-channel").count()).toBe(0);
    expect(await page.getByTestId("control-forced-regeneration").isDisabled()).toBe(true);
    expect(await page.getByTestId("device-controls-off").textContent()).toBe(
      "Controls are off while the device's reports are not accepted",
    );
    await snap(page, "device-link-refused");
    await banner.click();
    await page.getByTestId("fault-screen").waitFor({ timeout: 10_000 });
    await expect.poll(() => page.locator("body").textContent(), { timeout: 10_000 }).toContain("Reports not accepted");
    await snap(page, "device-link-refused-fault");
    await openRoute(page, system.url, "/index/home", undefined, "home-screen");
    await expect
      .poll(() => page.getByTestId("device-card").getAttribute("data-badges"), { timeout: 10_000 })
      .toContain("refused");
    // Repaired, its next report is read again: the badge goes without a reload.
    sim.repairReports();
    await expect.poll(() => page.getByTestId("device-card").getAttribute("data-badges")).not.toContain("refused");
  });

  it("a softener that goes away: 'Offline · last heard', a banner that opens the faults, controls off; back, Live again", async () => {
    await openRoute(page, system.url, "/Device", { deviceId, familyId }, "device-screen");
    await expect
      .poll(() => page.getByTestId("device-channel").getAttribute("data-live"), { timeout: 15_000 })
      .toBe("true");
    const sim = system.fleet.devices[0];
    sim.goOffline();
    await page.getByTestId("device-offline").waitFor({ timeout: 5000 });
    expect(await page.getByTestId("device-last-heard").textContent()).toMatch(/^Offline · last heard .+/);
    expect(await page.getByTestId("device-online").textContent()).toBe("Offline");
    expect(await page.getByTestId("device-channel").count()).toBe(0);
    expect(await page.getByTestId("device-controls-off").textContent()).toBe("Device offline");
    await snap(page, "device-link-offline");
    await sim.goOnline();
    await expect
      .poll(() => page.getByTestId("device-channel").getAttribute("data-live"), { timeout: 15_000 })
      .toBe("true");
    expect(await page.getByTestId("device-offline").count()).toBe(0);
  });
});
