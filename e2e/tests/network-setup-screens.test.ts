import { LANGUAGES } from "@aquapilot/contract";
import type { DevSystem } from "@aquapilot/dev";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accessToken, openRoute, registerByEmail, signInOnPage } from "../support/api.ts";
import { answerDeviceChoosers, type ChooserAnswer } from "../support/bluetooth.ts";
import { launchPhone, newPageIn, type Phone, snap } from "../support/browser.ts";
import { BluetoothRadio, freeUdpPorts, type NewOwner, newOwnerWithFamily, startModule } from "../support/setup-mode.ts";
import { startTestSystem } from "../support/system.ts";

/**
 * Every screen of the network setup in all five languages at 375×812: mode, pairing code, the step page,
 * permissions, the Wi-Fi page with its network sheet and an error, a chooser cancelled, progress running over
 * Bluetooth and over the access point, a failure, the interrupted setup after a reload, and NoFamily's offer to add a
 * device. Each is saved under e2e/screenshots/ for a person to look at, and checked for what a person would see
 * first: no untranslated key and nothing wider than the phone.
 */
describe("network setup screens in five languages", () => {
  let system: DevSystem;
  let phone: Phone;
  let radio: BluetoothRadio;
  let owner: NewOwner;
  let ports: [number, number];

  beforeAll(async () => {
    ports = await freeUdpPorts();
    system = await startTestSystem({
      SIM_DEVICES: "0",
      SIM_AP_UDP_PORT: String(ports[0]),
      SIM_LAN_UDP_PORT: String(ports[1]),
    });
    owner = await newOwnerWithFamily(system, "screens-owner");
    phone = await launchPhone("en-US", { bluetooth: true });
    radio = await BluetoothRadio.start(phone.context);
  });
  afterAll(async () => {
    await phone?.close();
    await system?.close();
  });

  /** Looks at the page like a person would, then keeps the picture. */
  async function look(page: Page, name: string): Promise<void> {
    await page.waitForTimeout(350); // page transitions settle
    await page.locator(".adm-toast-mask").waitFor({ state: "hidden", timeout: 5000 }); // e.g. "Signed in"
    const seen = await page.evaluate(() => ({
      text: document.body.innerText,
      width: document.documentElement.scrollWidth,
    }));
    expect(seen.text, `${name}: untranslated key`).not.toMatch(/\bnetworkSetup\.|\baddDevice\.|\bfamily\.[a-z]/);
    expect(seen.width, `${name}: wider than the phone`).toBeLessThanOrEqual(375);
    await snap(page, name);
  }

  it.each(LANGUAGES.map((l) => [l]))(
    "in %s",
    async (lang) => {
      const page = await newPageIn(phone.context, lang);
      let answer: ChooserAnswer = () => "wait";
      const chooser = await answerDeviceChoosers(page, (devices) => answer(devices));
      await signInOnPage(page, system.url, owner.email, owner.password);
      await radio.renew(); // the previous language's pages loaded new documents after using Bluetooth
      const open = (params: Record<string, unknown>, testId: string) =>
        openRoute(page, system.url, "/DeviceNetwork", { familyId: owner.familyId, ...params }, testId);
      const name = (screen: string) => `network-setup-${lang}-${screen}`;

      await open({}, "network-setup-mode-ble");
      await look(page, name("1-mode"));
      await page.getByTestId("network-setup-mode-code").click();
      await page.getByTestId("add-device-code").waitFor();
      await look(page, name("2-code"));
      await open({ step: "guide", mode: "ble" }, "network-setup-guide");
      await look(page, name("3-guide"));
      await open({ step: "permissions", mode: "ble" }, "network-setup-permissions");
      await expect.poll(() => page.getByTestId("network-setup-permissions").getAttribute("data-ready")).toBe("true");
      await look(page, name("4-permissions"));
      await open({ step: "wifi", mode: "ble" }, "network-setup-wifi");
      await expect
        .poll(() => page.getByTestId("network-setup-current-wifi").getAttribute("data-ssid"))
        .toBe("AquaHome");
      await page.getByTestId("network-setup-wifi-password").fill("");
      await page.getByTestId("network-setup-connect").click();
      await page.getByTestId("network-setup-wifi-error").waitFor();
      await look(page, name("5-wifi-error"));
      await page.getByTestId("network-setup-switch-network").click();
      await page.getByTestId("network-setup-network-sheet").waitFor();
      await look(page, name("6-network-sheet"));
      await page.locator('[data-testid="network-setup-network-option"][data-ssid="AquaHome"]').click();

      // A cancelled chooser.
      answer = () => null;
      await page.getByTestId("network-setup-wifi-password").fill("softwater24");
      await page.getByTestId("network-setup-connect").click();
      await page.getByTestId("network-setup-no-device").waitFor();
      await look(page, name("7-no-device"));

      // Running over Bluetooth (the module takes its time to associate), then interrupted by a reload.
      const slow = await startModule(system, { generation: "new", bluetooth: radio, timing: { association: 60_000 } });
      const address = slow.peripheral?.address ?? "";
      answer = (devices) => (devices.some((d) => d.id === address) ? address : "wait");
      await page.getByTestId("network-setup-connect").click();
      await expect.poll(() => slow.device.state, { timeout: 15_000 }).toBe(2);
      await look(page, name("8-progress-bluetooth"));
      await page.reload();
      await page.getByTestId("network-setup-interrupted").waitFor();
      await look(page, name("9-interrupted"));
      await slow.stop();

      // A failure with its text and what to do next: the product's firmware reports why (a stock module cannot).
      const failing = await startModule(system, {
        generation: "new",
        firmware: "product",
        bluetooth: radio,
        failure: "password",
      });
      const failingAddress = failing.peripheral?.address ?? "";
      answer = (devices) => (devices.some((d) => d.id === failingAddress) ? failingAddress : "wait");
      await open({ step: "wifi", mode: "ble" }, "network-setup-wifi");
      await page.getByTestId("network-setup-wifi-password").fill("softwater24");
      await page.getByTestId("network-setup-connect").click();
      await page.getByTestId("network-setup-failure").waitFor({ timeout: 15_000 });
      await look(page, name("10-failure"));
      await failing.stop();

      // The old version over the access point (development bridge), caught on the device's network.
      const old = await startModule(system, {
        generation: "old",
        apPort: ports[0],
        lanPort: ports[1],
        timing: { association: 60_000 },
      });
      await open({ step: "wifi", mode: "ap" }, "network-setup-wifi");
      await expect
        .poll(() => page.getByTestId("network-setup-current-wifi").getAttribute("data-ssid"))
        .toBe("AquaHome");
      await page.getByTestId("network-setup-wifi-password").fill("softwater24");
      await page.getByTestId("network-setup-connect").click();
      await expect
        .poll(
          () => page.locator('[data-testid="network-setup-step"][data-step="searching"]').getAttribute("data-state"),
          {
            timeout: 15_000,
          },
        )
        .toBe("active");
      await look(page, name("11-progress-access-point"));
      await page.getByTestId("network-setup-cancel").click();
      await page.locator(".adm-dialog-footer button").last().click();
      await old.stop();
      await chooser.stop();
      await page.close();

      // NoFamily's offer after the first household: a new owner, in this language.
      const email = `first-home-${lang}-${Date.now()}@example.test`;
      await registerByEmail(system.url, email, "first-home-1", lang);
      await accessToken(system.url, email, "first-home-1");
      const fresh = await newPageIn(phone.context, lang);
      await signInOnPage(fresh, system.url, email, "first-home-1");
      await fresh.getByTestId("no-family-create").click();
      await fresh.getByTestId("family-create-name").fill("Home");
      await fresh.getByTestId("family-create-address").click();
      await fresh.getByTestId("address-select").waitFor();
      // Confirm only once the centre's address is resolved (while fetching, a muted "loading" shows).
      await expect
        .poll(
          async () =>
            (await fresh.locator('[data-testid="address-select-address"] .muted').count()) === 0 &&
            ((await fresh.getByTestId("address-select-address").textContent()) ?? "").trim() !== "",
          { timeout: 10_000 },
        )
        .toBe(true);
      await fresh.getByTestId("address-select-confirm").click();
      await fresh.getByTestId("family-create-submit").click();
      await fresh.getByTestId("family-create-add-device-offer").waitFor({ timeout: 15_000 });
      await look(fresh, name("12-first-family-offer"));
      await fresh.locator(".adm-dialog-footer button").last().click();
      await fresh.getByTestId("network-setup-mode-ble").waitFor({ timeout: 15_000 });
      await fresh.close();
    },
    180_000,
  );
});
