import type { DevSystem } from "@aquapilot/dev";
import { setBluetoothAdapterState } from "@aquapilot/device-sim";
import { BLE_SETUP_FAILURES } from "@aquapilot/provisioning";
import type { Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import setupEn from "../../apps/web/src/features/network-setup/locales/en.json" with { type: "json" };
import { openRoute, signInOnPage } from "../support/api.ts";
import { answerDeviceChoosers, type ChooserAnswer } from "../support/bluetooth.ts";
import { launchPhone, newPageIn, type Phone, settled } from "../support/browser.ts";
import {
  BluetoothRadio,
  type NewOwner,
  newOwnerWithFamily,
  startModule,
  type TestModule,
} from "../support/setup-mode.ts";
import { startTestSystem } from "../support/system.ts";

const T = setupEn.networkSetup;

/** Which `--fail` name provokes each Bluetooth failure code (docs/device-sim.md, setup mode). */
const FAILURE_NAMES: Record<number, string> = {
  1: "init",
  2: "timeout",
  3: "ap-timeout",
  4: "password",
  5: "dns",
  6: "activation-1",
  7: "activation-2",
  8: "no-server-response",
};

/**
 * Network setup over Bluetooth in Chromium: the real Web Bluetooth API against a simulated WIFI-BL3372
 * module played through Chromium's BluetoothEmulation (browser-level CDP), the device chooser answered through
 * DeviceAccess (page-level CDP), the whole system behind it (factory, activation, broker, binding, hub 1). The
 * emulation is browser-wide, so these tests run one at a time in one browser.
 */
describe("network setup over Bluetooth", () => {
  let system: DevSystem;
  let phone: Phone;
  let radio: BluetoothRadio;
  let page: Page;
  let owner: NewOwner;
  let module: TestModule | null = null;
  /** What the owner does with the next device chooser (default: pick the module of the test). */
  let answer: ChooserAnswer = () => "wait";
  let chooser: Awaited<ReturnType<typeof answerDeviceChoosers>>;

  beforeAll(async () => {
    system = await startTestSystem({ SIM_DEVICES: "0" });
    owner = await newOwnerWithFamily(system, "bluetooth-owner");
    phone = await launchPhone("en-US", { bluetooth: true });
    radio = await BluetoothRadio.start(phone.context);
    page = await newPageIn(phone.context, "en");
    chooser = await answerDeviceChoosers(page, (devices) => answer(devices));
    await signInOnPage(page, system.url, owner.email, owner.password);
  });
  afterEach(async () => {
    await module?.stop();
    module = null;
    answer = () => "wait";
  });
  afterAll(async () => {
    await phone?.close();
    await system?.close();
  });

  /**
   * A new module in setup mode, in range of the phone; the chooser picks it. The product's firmware unless told
   * otherwise: only it reports failures to the phone (a stock module's setup ends through the cloud).
   */
  async function newModule(
    opts: { firmware?: "stock" | "product"; failure?: string; timing?: Record<string, number> } = {},
  ): Promise<TestModule> {
    module = await startModule(system, { generation: "new", bluetooth: radio, firmware: "product", ...opts });
    const address = module.peripheral?.address ?? "";
    answer = (devices) => (devices.some((d) => d.id === address) ? address : "wait");
    return module;
  }

  async function openWifiStep(): Promise<void> {
    await openRoute(
      page,
      system.url,
      "/DeviceNetwork",
      { familyId: owner.familyId, step: "wifi", mode: "ble" },
      "network-setup-wifi",
    );
    await expect.poll(() => page.getByTestId("network-setup-current-wifi").getAttribute("data-ssid")).toBe("AquaHome");
  }

  async function connectWith(password: string, name = "AquaHome"): Promise<void> {
    await page.getByTestId("network-setup-wifi-name").fill(name);
    await page.getByTestId("network-setup-wifi-password").fill(password);
    await page.getByTestId("network-setup-connect").click();
  }

  async function familyOf(mac: string): Promise<string | null | undefined> {
    return (await system.db.selectFrom("devices").select("family_id").where("mac", "=", mac).executeTakeFirst())
      ?.family_id;
  }

  it.each(["stock", "product"] as const)(
    "a new owner adds a new softener (%s firmware) from Home and sees it live on Home",
    async (firmware) => {
      const { device } = await newModule({ firmware });
      await page.getByTestId("home-screen").waitFor();
      await page.getByTestId("home-add-device").click();
      await page.getByTestId("network-setup-mode-ble").click();

      // The step page: Next stays off for 5 s after the beep (spec §9), then goes on.
      const next = page.getByTestId("network-setup-next");
      await page.getByTestId("network-setup-guide").waitFor();
      expect(await next.isDisabled()).toBe(true);
      await expect.poll(() => next.isDisabled(), { timeout: 15_000, interval: 250 }).toBe(false);
      await next.click();

      // Permissions: in a browser, Bluetooth is what matters; the emulated adapter is on.
      await expect.poll(() => page.getByTestId("network-setup-permissions").getAttribute("data-ready")).toBe("true");
      await page.getByTestId("network-setup-next").click();

      // The Wi-Fi page reads the (simulated) phone's network and prefills its name.
      await page.getByTestId("network-setup-wifi").waitFor();
      await expect
        .poll(() => page.getByTestId("network-setup-current-wifi").getAttribute("data-ssid"))
        .toBe("AquaHome");
      expect(await page.getByTestId("network-setup-wifi-name").inputValue()).toBe("AquaHome");
      await page.getByTestId("network-setup-wifi-password").fill("softwater24");
      await page.getByTestId("network-setup-connect").click();

      // Progress to "Device added successfully", then the name step.
      await page.getByTestId("network-setup-progress").waitFor();
      await page.getByTestId("device-network-name-screen").waitFor({ timeout: 30_000 });
      expect(device.state).toBe(4);
      expect(await familyOf(device.mac)).toBe(owner.familyId);
      const used = await system.db
        .selectFrom("device_activations")
        .innerJoin("devices", "devices.id", "device_activations.device_id")
        .select(["device_activations.used_at", "device_activations.used_by"])
        .where("devices.mac", "=", device.mac)
        .execute();
      // Bound with a pairing code of its own activation: from the module (product) or from the cloud's setup ticket
      // (stock, which hands the phone none).
      expect(used.filter((u) => u.used_at !== null)).toHaveLength(1);

      await page.getByTestId("device-network-name-input").fill(`Cellar ${firmware}`);
      await page.getByTestId("device-network-name-done").click();
      await page.getByTestId("device-screen").waitFor({ timeout: 15_000 });
      // The finished setup's pages are gone from history: back from the new device goes Home, not into the Wi-Fi step.
      await page.goBack();
      await page.getByTestId("home-screen").waitFor({ timeout: 15_000 });
      expect(await page.getByTestId("network-setup-wifi").count()).toBe(0);

      // Home shows it, online, live through hub 1.
      await openRoute(page, system.url, "/index/home", null, "home-screen");
      const card = page.locator('[data-testid="device-card"]', { hasText: `Cellar ${firmware}` });
      await card.waitFor({ timeout: 15_000 });
      await expect.poll(() => card.getAttribute("data-online"), { timeout: 15_000 }).toBe("true");
      // The Wi-Fi is remembered for the next device (spec §3 `wifi`).
      expect(await page.evaluate(() => localStorage.getItem("wifi"))).toContain("AquaHome");
    },
  );

  it.each(BLE_SETUP_FAILURES.map((code) => [code, FAILURE_NAMES[code]] as const))(
    "shows failure %i (%s) with its §4 text and what to do next",
    async (code, name) => {
      const { device } = await newModule({ failure: name });
      await openWifiStep();
      await connectWith("softwater24");
      const failure = page.getByTestId("network-setup-failure");
      await failure.waitFor({ timeout: 20_000 });
      expect(await failure.getAttribute("data-code")).toBe(String(code));
      expect(await page.getByTestId("network-setup-failure-text").textContent()).toBe(
        T.progress.bleFailures[String(code) as keyof typeof T.progress.bleFailures],
      );
      expect(await page.getByTestId("network-setup-failure-hint").textContent()).toBe(
        T.progress.bleHints[String(code) as keyof typeof T.progress.bleHints],
      );
      for (const action of ["network-setup-retry", "network-setup-change-wifi", "network-setup-home"]) {
        expect(await page.getByTestId(action).isVisible()).toBe(true);
      }
      expect(device.failure).toBe(code);
      // Not bound anywhere (with activation-1 the factory never registered it: no row at all).
      expect((await familyOf(device.mac)) ?? null).toBeNull();
    },
  );

  it("a wrong password fails with the password text; with the right one the retry succeeds", async () => {
    const { device } = await newModule();
    await openWifiStep();
    await connectWith("wrong-password");
    await page.getByTestId("network-setup-failure").waitFor({ timeout: 15_000 });
    expect(await page.getByTestId("network-setup-failure-text").textContent()).toBe(T.progress.bleFailures["4"]);
    await page.getByTestId("network-setup-change-wifi").click();
    await page.getByTestId("network-setup-wifi").waitFor();
    await connectWith("softwater24");
    await page.getByTestId("device-network-name-screen").waitFor({ timeout: 30_000 });
    expect(await familyOf(device.mac)).toBe(owner.familyId);
  });

  it("a Bluetooth link lost half-way is reconnected and the setup completes", async () => {
    // Slow association, so the link can drop while the module is connecting to the Wi-Fi.
    const { device, peripheral } = await newModule({ timing: { association: 2500, moduleDeadline: 30_000 } });
    await openWifiStep();
    await connectWith("softwater24");
    await expect.poll(() => device.state, { timeout: 10_000, interval: 100 }).toBe(2);
    await peripheral?.disconnect();
    await page.getByTestId("device-network-name-screen").waitFor({ timeout: 30_000 });
    expect(await familyOf(device.mac)).toBe(owner.familyId);
  });

  it("a double tap starts one setup; back asks before stopping it, and back again closes the question", async () => {
    // Slow association: the setup is still running while the owner presses back.
    const { device } = await newModule({ timing: { association: 6000, moduleDeadline: 30_000 } });
    // Into the Wi-Fi step through the app, as an owner comes (the next test comes by a typed URL).
    await openRoute(
      page,
      system.url,
      "/DeviceNetwork",
      { familyId: owner.familyId, step: "permissions", mode: "ble" },
      "network-setup-permissions",
    );
    await expect.poll(() => page.getByTestId("network-setup-permissions").getAttribute("data-ready")).toBe("true");
    await page.getByTestId("network-setup-next").click();
    await page.getByTestId("network-setup-wifi").waitFor();
    await page.getByTestId("network-setup-wifi-password").fill("softwater24");
    const prompts = chooser.answered();
    await page.getByTestId("network-setup-connect").dblclick();
    const progress = page.getByTestId("network-setup-progress");
    await progress.waitFor();
    await expect.poll(() => device.state, { timeout: 10_000, interval: 100 }).toBe(2);
    expect(chooser.answered() - prompts).toBe(1); // one chooser, one setup

    const question = page.locator(".adm-dialog-body");
    await page.goBack();
    await question.waitFor();
    expect(await progress.getAttribute("data-status")).toBe("running");
    await page.goBack(); // the system back button closes the question first
    await question.waitFor({ state: "hidden" });
    expect(await progress.getAttribute("data-status")).toBe("running");
    // The setup went on and ends as usual.
    await page.getByTestId("device-network-name-screen").waitFor({ timeout: 30_000 });
    expect(await familyOf(device.mac)).toBe(owner.familyId);
  });

  it("back during a setup, then Stop: the setup ends, the owner is back on the Wi-Fi step, nothing is bound", async () => {
    const { device } = await newModule({ timing: { association: 6000, moduleDeadline: 30_000 } });
    await openWifiStep();
    await connectWith("softwater24");
    const progress = page.getByTestId("network-setup-progress");
    await progress.waitFor();
    await expect.poll(() => device.state, { timeout: 10_000, interval: 100 }).toBe(2);
    await page.goBack();
    await page.locator(".adm-dialog-body").waitFor();
    await page.locator(".adm-dialog-footer button").last().click(); // Stop
    await page.getByTestId("network-setup-wifi").waitFor();
    expect(await progress.count()).toBe(0);
    // The module's attempt is over (stopped, failed, or online: only an online module could be bound), and every
    // call the page had made is answered: a binding would be stored by then.
    await expect
      .poll(() => device.setupStatus.failure !== 0 || (device.state !== 2 && device.state !== 3), { timeout: 40_000 })
      .toBe(true);
    await settled(page);
    expect((await familyOf(device.mac)) ?? null).toBeNull();
  });

  it("a cancelled chooser says no device was chosen, and the owner can choose again", async () => {
    const { device, peripheral } = await newModule();
    let offered = 0;
    answer = () => {
      offered += 1;
      return null; // the owner closes the chooser
    };
    await openWifiStep();
    await connectWith("softwater24");
    const banner = page.getByTestId("network-setup-no-device");
    await banner.waitFor();
    expect(await banner.getAttribute("data-problem")).toBe("cancelled");
    expect(offered).toBeGreaterThan(0);
    expect(device.state).toBe(0);
    // Choosing again, this time the module.
    const address = peripheral?.address ?? "";
    answer = (devices) => (devices.some((d) => d.id === address) ? address : "wait");
    await page.getByTestId("network-setup-connect").click();
    await page.getByTestId("device-network-name-screen").waitFor({ timeout: 30_000 });
  });

  it("without a Bluetooth adapter the owner is told so, before any chooser", async () => {
    await setBluetoothAdapterState((await radio.renew()) as never, "absent");
    try {
      await openRoute(
        page,
        system.url,
        "/DeviceNetwork",
        { familyId: owner.familyId, step: "permissions", mode: "ble" },
        "network-setup-permissions",
      );
      const row = page.getByTestId("network-setup-permission-bluetoothService-text");
      await expect.poll(() => row.textContent()).toBe(T.permissions.problems.bluetoothUnavailable);
      expect(await page.getByTestId("network-setup-permissions").getAttribute("data-ready")).toBe("false");
    } finally {
      await setBluetoothAdapterState((await radio.renew()) as never, "powered-on");
    }
    await page.getByTestId("network-setup-permissions-recheck").click();
    await expect.poll(() => page.getByTestId("network-setup-permissions").getAttribute("data-ready")).toBe("true");
  });

  it("refuses an empty Wi-Fi name or password and a 5 GHz network, with the spec's texts", async () => {
    await openWifiStep();
    const error = page.getByTestId("network-setup-wifi-error");
    await connectWith("softwater24", "");
    await expect.poll(() => error.textContent()).toBe(T.wifi.errors.required);
    await connectWith("", "AquaHome");
    await expect.poll(() => error.textContent()).toBe(T.wifi.errors.required);

    // The phone moves to the router's 5 GHz network: the app refuses it.
    await page.getByTestId("network-setup-switch-network").click();
    await page.getByTestId("network-setup-network-sheet").waitFor();
    await page.locator('[data-testid="network-setup-network-option"][data-ssid="AquaHome-5G"]').click();
    await expect.poll(() => page.getByTestId("network-setup-current-wifi").getAttribute("data-band")).toBe("5GHz");
    try {
      await connectWith("softwater24", "AquaHome-5G");
      await expect.poll(() => error.getAttribute("data-problem")).toBe("fiveGhz");
      expect(await error.textContent()).toBe(T.wifi.errors.fiveGhz.replace("{{ssid}}", "AquaHome-5G"));
    } finally {
      await page.getByTestId("network-setup-switch-network").click();
      await page.locator('[data-testid="network-setup-network-option"][data-ssid="AquaHome"]').click();
      await expect.poll(() => page.getByTestId("network-setup-current-wifi").getAttribute("data-band")).toBe("2.4GHz");
    }
  });
});
