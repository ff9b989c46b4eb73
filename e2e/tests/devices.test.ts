import type { DevSystem } from "@aquapilot/dev";
import { generateDeviceIdentity, SimulatedDevice } from "@aquapilot/device-sim";
import { provisionDevice } from "@aquapilot/server/modules/devices/provision.ts";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchPhone, type Phone, signInAsDemo, storeLanguage } from "../support/browser.ts";
import { startTestSystem } from "../support/system.ts";

/**
 * Devices in Chromium against the whole system: binding a new softener by its pairing code, an advanced
 * settings change that round-trips to the valve, a wrong value refused with the §5 text, and a command to a device
 * that went offline failing with "Device offline".
 */
describe("devices in Chromium", () => {
  let system: DevSystem;
  let phone: Phone;
  let page: Page;
  let spare: SimulatedDevice;
  const identity = generateDeviceIdentity();

  beforeAll(async () => {
    system = await startTestSystem({ SIM_DEVICES: "2" });
    // A new softener from the factory: provisioned (credentials known to the cloud), online, bound to nobody.
    await provisionDevice(system.db, {
      mac: identity.mac,
      secret: identity.secret,
      name: "Garage softener",
      model: identity.model,
      serialNumber: identity.serialNumber,
      deviceSerialNumber: identity.deviceSerialNumber,
    });
    spare = new SimulatedDevice({
      brokerUrl: system.deviceLink.brokerUrl,
      mac: identity.mac,
      secret: identity.secret,
      model: identity.model,
      serialNumber: identity.serialNumber,
      deviceSerialNumber: identity.deviceSerialNumber,
      timeScale: 1,
    });
    await spare.start();
    phone = await launchPhone("en-US");
    await storeLanguage(phone.context, "en");
    page = await phone.context.newPage();
    await signInAsDemo(page, system.url);
  });
  afterAll(async () => {
    await spare?.stop();
    await phone?.close();
    await system?.close();
  });

  async function open(target: string, params?: unknown) {
    const q = new URLSearchParams({ target });
    if (params) q.set("params", JSON.stringify(params));
    await page.goto(`${system.url}/#/App?${q}`);
  }

  async function deviceIdOf(mac: string): Promise<string> {
    return (await system.db.selectFrom("devices").select("id").where("mac", "=", mac).executeTakeFirstOrThrow()).id;
  }

  it("binds a new softener to the household with its pairing code", async () => {
    await page.getByTestId("home-add-device").click();
    await page.getByTestId("device-network-screen").waitFor();
    // The setup's first step offers New version, Old version or a pairing code.
    await page.getByTestId("network-setup-mode-code").click();
    await page.getByTestId("add-device-code").fill(`${identity.mac}:${identity.secret}`);
    await page.getByTestId("add-device-bind").click();
    await expect
      .poll(
        async () =>
          (await system.db.selectFrom("devices").select("family_id").where("mac", "=", identity.mac).executeTakeFirst())
            ?.family_id,
        {
          timeout: 15_000,
        },
      )
      .toBeTruthy();
    // The app asks for the new device's name, then opens the device; go home only after that navigation.
    await page.getByTestId("device-network-name-screen").waitFor({ timeout: 15_000 });
    const nameInput = page.getByTestId("device-network-name-input");
    await expect.poll(() => nameInput.inputValue(), { timeout: 15_000 }).not.toBe("");
    await nameInput.fill("Utility room softener");
    await page.getByTestId("device-network-name-done").click();
    await page.getByTestId("device-screen").waitFor({ timeout: 15_000 });
    await expect
      .poll(
        async () =>
          (await system.db.selectFrom("devices").select("name").where("mac", "=", identity.mac).executeTakeFirst())
            ?.name,
      )
      .toBe("Utility room softener");
    // The finished setup's pages are gone from history: back from the new device goes Home, not to the code step.
    await page.goBack();
    await page.getByTestId("home-screen").waitFor({ timeout: 15_000 });
    expect(await page.getByTestId("network-setup-code").count()).toBe(0);
    await open("/index/home");
    await expect.poll(() => page.getByTestId("device-card").count(), { timeout: 15_000 }).toBe(3);
  });

  it("adding a device that is already in this household says so, instead of 'Device added'", async () => {
    await open("/index/home");
    await page.getByTestId("home-add-device").click();
    await page.getByTestId("device-network-screen").waitFor();
    await page.getByTestId("network-setup-mode-code").click();
    await page.getByTestId("add-device-code").fill(`${identity.mac}:${identity.secret}`);
    await page.getByTestId("add-device-bind").click();
    await expect
      .poll(() => page.locator(".adm-toast-main").last().textContent(), { timeout: 10_000 })
      .toBe("This device is already in this household");
  });

  it("a photo of the owner's own becomes the device's picture (DeviceImage upload)", async () => {
    const deviceId = await deviceIdOf(identity.mac);
    await open("/DeviceImage", { deviceId });
    await page.getByTestId("device-image-screen").waitFor();
    await page.getByTestId("device-image-list").waitFor({ timeout: 15_000 });
    const png = Buffer.from(
      "89504e470d0a1a0a0000000d4948445200000001000000010806000000" +
        "1f15c4890000000d49444154789c6300010000000500010d0a2db40000000049454e44ae426082",
      "hex",
    );
    await page
      .getByTestId("device-image-file")
      .setInputFiles({ name: "softener.png", mimeType: "image/png", buffer: png });
    const own = page.getByTestId("device-image-own").getByTestId("device-image-option");
    await expect.poll(() => own.count(), { timeout: 15_000 }).toBe(1);
    expect(await own.getAttribute("data-selected")).toBe("true");
    const fileUrl = (await own.getAttribute("data-image")) ?? "";
    expect(fileUrl).toMatch(/^\/uploads\/files\/[0-9a-f]{32}\.(png|jpg)$/);
    await page.getByTestId("device-image-save").click();
    await expect
      .poll(
        async () =>
          (await system.db.selectFrom("devices").select("image").where("id", "=", deviceId).executeTakeFirst())?.image,
        {
          timeout: 15_000,
        },
      )
      .toBe(fileUrl);
    // Saving goes back once the server has answered: let that navigation happen before the next test navigates.
    await page.getByTestId("device-image-screen").waitFor({ state: "detached", timeout: 15_000 });
    const served = await fetch(`${system.url}${fileUrl}`);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toMatch(/^image\//);
  });

  it("an advanced settings change goes to the valve and is applied; a wrong value is refused with the §5 text", async () => {
    const deviceId = await deviceIdOf(identity.mac);
    await open("/DeviceSetting", { deviceId });
    await page.getByTestId("device-setting-screen").waitFor();
    const salt = page.getByTestId("device-setting-input-saltAddition");
    await salt.waitFor({ timeout: 15_000 });

    await page.getByTestId("device-setting-input-resinVolume").fill("99999");
    await page.getByTestId("device-setting-save").click();
    await expect
      .poll(() => page.getByTestId("device-setting-status").textContent())
      .toContain("Please enter the correct configuration");
    await expect.poll(() => page.getByTestId("device-setting-resinVolume").getAttribute("data-invalid")).toBe("true");
    expect(spare.valve.snapshot().settings.resinVolume).not.toBe(99999);

    await page
      .getByTestId("device-setting-input-resinVolume")
      .fill(String(spare.valve.snapshot().settings.resinVolume));
    await salt.fill("3.5");
    await page.getByTestId("device-setting-save").click();
    await expect
      .poll(() => page.getByTestId("device-setting-status").getAttribute("data-status"), { timeout: 20_000 })
      .toBe("done");
    expect(spare.valve.snapshot().settings.saltAddition).toBe(3.5);
  });

  it("a command to a device that went offline fails with Device offline", async () => {
    const deviceId = await deviceIdOf(identity.mac);
    spare.goOffline();
    await expect
      .poll(
        async () =>
          (
            await system.db
              .selectFrom("device_state")
              .select("online")
              .where("device_id", "=", deviceId)
              .executeTakeFirst()
          )?.online,
        {
          timeout: 10_000,
        },
      )
      .toBe(0);
    await open("/DeviceSetting", { deviceId });
    await page.getByTestId("device-setting-input-saltAddition").waitFor({ timeout: 15_000 });
    await page.getByTestId("device-setting-input-saltAddition").fill("4");
    phone.expectErrors(
      /^Failed to load resource: the server responded with a status of 409 \(Conflict\) \(at [^ ]+\/device-control\/control-device\?/,
      "the command goes to a device the test took offline, which the server refuses",
    );
    await page.getByTestId("device-setting-save").click();
    await expect
      .poll(
        async () =>
          [
            ...(await page.locator(".adm-toast-main").allTextContents()),
            ...(await page.getByTestId("device-setting-status").allTextContents()),
          ].join(" "),
        { timeout: 25_000, interval: 100 },
      )
      .toContain("Device offline");
    await spare.goOnline();
  });
});
