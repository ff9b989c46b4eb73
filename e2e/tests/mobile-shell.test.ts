import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildShellWeb } from "../../apps/mobile/scripts/build-web.ts";
import { launchPhone, newPageIn, snap } from "../support/browser.ts";
import { BluetoothRadio } from "../support/setup-mode.ts";
import { startTestSystem } from "../support/system.ts";

/**
 * The shells' web layer (issue 15) in Chromium: apps/mobile/www (the web build with native-shell.js before the boot script)
 * served by the test system, the plugins' web implementations behind the adapter as in the shell, Bluetooth through
 * Chromium's emulation as in the network-setup tests.
 */
describe("mobile shell web layer (issue 15)", () => {
  let system: Awaited<ReturnType<typeof startTestSystem>>;
  let phone: Awaited<ReturnType<typeof launchPhone>>;
  let radio: BluetoothRadio;
  let page: Page;

  beforeAll(async () => {
    const www = await buildShellWeb();
    system = await startTestSystem({ SIM_DEVICES: "0" }, { webDistDir: www });
    phone = await launchPhone("en-US", { bluetooth: true });
    radio = await BluetoothRadio.start(phone.context);
    page = await newPageIn(phone.context, "en");
  });

  afterAll(async () => {
    await radio?.session.detach().catch(() => undefined);
    await phone?.close();
    await system?.close();
  });

  it("injects window.AquaPilotNative before the app's code, and the app starts on it", async () => {
    await page.goto(`${system.url}/#/login`);
    await page.getByTestId("login-submit").waitFor({ timeout: 30_000 });
    const seen = await page.evaluate(async () => {
      const bridge = (window as unknown as { AquaPilotNative: Record<string, (...a: unknown[]) => Promise<unknown>> })
        .AquaPilotNative;
      return {
        methods: Object.keys(bridge).sort(),
        language: await bridge.getLanguage(),
        config: await bridge.getConfig(),
        // The boot script is inline (decision 52): the tag carrying data-entry.
        order: [
          [...document.scripts].findIndex((s) => s.src.endsWith("/native-shell.js")),
          [...document.scripts].findIndex((s) => s.dataset.entry !== undefined),
        ],
      };
    });
    expect(seen.order[0]).toBeGreaterThanOrEqual(0);
    expect(seen.order[0]).toBeLessThan(seen.order[1] ?? -1);
    expect(seen.methods).toEqual(
      expect.arrayContaining([
        "getLanguage",
        "getConfig",
        "checkPermission",
        "isLocationEnabled",
        "startIntent",
        "clearCache",
        "getCurrentWifi",
      ]),
    );
    expect(seen.language).toBe("en");
    // a browser: no registration id, no app version, no native platform, no insets
    expect(seen.config).toEqual({
      statusBarHeight: 0,
      safeAreaBottom: 0,
      pushRegistrationId: null,
      tenant: null,
      appVersion: null,
      platform: null,
    });
    await snap(page, "mobile-shell-login");
  });

  it("Bluetooth permission through BleClient's web implementation on the emulated adapter; Wi-Fi is unavailable", async () => {
    await radio.renew();
    const answers = await page.evaluate(async () => {
      const bridge = (window as unknown as { AquaPilotNative: Record<string, (...a: unknown[]) => Promise<unknown>> })
        .AquaPilotNative;
      const settle = (p: Promise<unknown>) =>
        p.then(
          (v) => ({ ok: v }),
          (e) => ({ error: String(e?.message ?? e) }),
        );
      return {
        bluetooth: await bridge.checkPermission("bluetooth"),
        unknown: await bridge.checkPermission("teleport"),
        wifi: await settle(bridge.getCurrentWifi()),
        intent: await settle(bridge.startIntent("teleport")),
      };
    });
    expect(answers.bluetooth).toBe(true);
    expect(answers.unknown).toBe(false);
    expect(answers.wifi).toEqual({ error: expect.stringMatching(/not available in a browser/) });
    expect(answers.intent).toEqual({ error: expect.stringMatching(/unknown intent/) });
  });

  it("a push tap and the hardware back reach the app's handlers", async () => {
    await page.evaluate(() => {
      window.location.hash = "#/login";
    });
    const handled = await page.evaluate(() => {
      const shell = window as unknown as { AquaPilotBack?: unknown; AquaPilotOpenMessages?: (id: string) => boolean };
      return { back: typeof shell.AquaPilotBack === "function", push: shell.AquaPilotOpenMessages?.("m-1") };
    });
    expect(handled).toEqual({ back: true, push: true });
  });
});
