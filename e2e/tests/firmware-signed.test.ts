import { createHash } from "node:crypto";
import type { DevSystem } from "@aquapilot/dev";
import {
  loadOrCreateDevSigningKey,
  signFirmwareDigest,
  trustedFirmwareKeys,
  uploadFirmware,
} from "@aquapilot/server/modules/firmware/index.ts";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchPhone, type Phone, signInAsDemo, snap, storeLanguage } from "../support/browser.ts";
import { startTestSystem } from "../support/system.ts";

/**
 * Signed firmware updates seen in Chromium against the whole system (docs/device-protocol.md §3.7): an image signed
 * with the development vendor key is uploaded; the simulated softener downloads it over HTTP from the server and
 * checks it. A corrupted download and a wrongly signed image fail with their reason on the Device screen, the version
 * unchanged; the good image installs and the screen shows the new version.
 */
describe("signed firmware update in Chromium", () => {
  let system: DevSystem & { dataDir: string };
  let phone: Phone;
  let page: Page;

  beforeAll(async () => {
    system = await startTestSystem({ SIM_DEVICES: "1" });
    // The download URL names the configured port; the test system listens on a free one.
    system.app.config.PORT = Number(new URL(system.url).port);
    const device = await system.db.selectFrom("devices").select(["id", "family_id", "model"]).executeTakeFirstOrThrow();
    const image = Buffer.alloc(256 * 1024, 0x17);
    const sha256 = createHash("sha256").update(image).digest("hex");
    await uploadFirmware(
      {
        db: system.db,
        dataDir: system.dataDir,
        trustedKeys: trustedFirmwareKeys(system.app.config),
        now: () => new Date(),
      },
      {
        model: device.model ?? "",
        version: "1.6.0",
        bytes: image,
        signature: signFirmwareDigest(loadOrCreateDevSigningKey(system.dataDir).privateKey, sha256),
      },
    );
    phone = await launchPhone("en-US");
    await storeLanguage(phone.context, "en");
    page = await phone.context.newPage();
    await signInAsDemo(page, system.url);
    const q = new URLSearchParams({
      target: "/Device",
      params: JSON.stringify({ deviceId: device.id, familyId: device.family_id }),
    });
    await page.goto(`${system.url}/#/App?${q}`);
    await page.getByTestId("device-screen").waitFor({ timeout: 15_000 });
  });
  afterAll(async () => {
    await phone?.close();
    await system?.close();
  });

  /** Starts the update from the app and answers the outcome the screen shows ("done" or "failed") and its text. */
  async function updateFromTheApp() {
    const sim = system.fleet.devices[0];
    const ended = new Promise<{ ok: boolean; reason: string | null }>((resolve) => sim.once("ota", resolve));
    await page.getByTestId("control-ota").scrollIntoViewIfNeeded();
    await expect.poll(() => page.getByTestId("control-ota").isDisabled(), { timeout: 15_000 }).toBe(false);
    await page.getByTestId("control-ota").click();
    await page.locator(".adm-dialog-footer button").last().click();
    const outcome = await ended;
    const shown = page.getByTestId("device-ota-outcome");
    await expect
      .poll(() => shown.getAttribute("data-outcome"), { timeout: 15_000 })
      .toBe(outcome.ok ? "done" : "failed");
    await expect.poll(() => shown.getAttribute("data-reason")).toBe(outcome.reason ?? "");
    // The accepted command is not reported "done" beside a failed update: the firmware part says how it went.
    expect(await page.getByTestId("device-command-status").count()).toBe(0);
    return { device: outcome, text: await shown.textContent() };
  }

  it("a corrupted download and a wrongly signed image fail with their reason; the good image installs", async () => {
    const sim = system.fleet.devices[0];
    await expect
      .poll(() => page.getByTestId("device-firmware-versions").textContent(), { timeout: 15_000 })
      .toBe("Firmware 1.0.0 · latest 1.6.0");

    sim.otaFaults = { corrupt: true };
    const corrupted = await updateFromTheApp();
    expect(corrupted.device).toMatchObject({ ok: false, reason: "hash" });
    expect(corrupted.text).toBe(
      "The firmware update failed: the downloaded image was corrupted. The device keeps version 1.0.0.",
    );
    expect(sim.firmwareVersion).toBe("1.0.0");

    sim.otaFaults = { badSignature: true };
    const forged = await updateFromTheApp();
    expect(forged.device).toMatchObject({ ok: false, reason: "signature" });
    expect(forged.text).toBe(
      "The firmware update failed: the image is not signed by the manufacturer. The device keeps version 1.0.0.",
    );
    await snap(page, "firmware-signed-failed");

    sim.otaFaults = { dropAt: 0.5 };
    const good = await updateFromTheApp();
    expect(good.device).toMatchObject({ ok: true, reason: null });
    expect(sim.firmwareVersion).toBe("1.6.0");
    await expect
      .poll(() => page.getByTestId("device-firmware-versions").textContent(), { timeout: 15_000 })
      .toBe("Firmware 1.6.0 · latest 1.6.0");
    expect(good.text).toBe("Firmware updated to 1.6.0.");
  });
});
