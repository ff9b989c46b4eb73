import { readFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";
import { DEMO_ACCOUNT } from "@aquapilot/dev";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildShellWeb } from "../../apps/mobile/scripts/build-web.ts";
import { deepLinkHash } from "../../apps/mobile/src/deep-links.ts";
import { launchPhone, newPageIn, snap } from "../support/browser.ts";
import { BluetoothRadio } from "../support/setup-mode.ts";
import { startTestSystem } from "../support/system.ts";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript",
  ".css": "text/css",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".webmanifest": "application/manifest+json",
};

/**
 * Serves `root` as the shell's web view does (its own origin, the files of www, no server behind it) on
 * http://localhost and a free port.
 */
async function serveWebView(root: string): Promise<{ server: Server; origin: string }> {
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? "/", "http://localhost").pathname);
    const file = normalize(join(root, path === "/" ? "index.html" : path));
    if (!file.startsWith(root)) return void res.writeHead(403).end();
    readFile(file).then(
      (body) => res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" }).end(body),
      () => res.writeHead(404).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, origin: `http://localhost:${(server.address() as AddressInfo).port}` };
}

/**
 * The shells' web layer in Chromium: apps/mobile/www (the web build with native-shell.js before the boot
 * script) served from an origin of its own, as the web view serves it (http://localhost:<port>), and the cloud on
 * another (the test system at http://127.0.0.1:<port>, named by the build's API host and allowing that origin by
 * CORS_ORIGINS); the plugins' web implementations behind the adapter as in the shell, Bluetooth through
 * Chromium's emulation as in the network-setup tests.
 */
describe("mobile shell web layer", () => {
  let system: Awaited<ReturnType<typeof startTestSystem>>;
  let webView: Awaited<ReturnType<typeof serveWebView>>;
  let phone: Awaited<ReturnType<typeof launchPhone>>;
  let radio: BluetoothRadio;
  let page: Page;
  let www: string;

  beforeAll(async () => {
    // The web view's origin first (its port goes into the cloud's CORS_ORIGINS), then the cloud, then the build that
    // names it.
    www = fileURLToPath(new URL("../../apps/mobile/www", import.meta.url));
    webView = await serveWebView(www);
    system = await startTestSystem({ SIM_DEVICES: "1", CORS_ORIGINS: webView.origin });
    await buildShellWeb({ outDir: www, apiBaseUrl: system.url });
    phone = await launchPhone("en-US", { bluetooth: true });
    radio = await BluetoothRadio.start(phone.context);
    page = await newPageIn(phone.context, "en");
  });

  afterAll(async () => {
    await radio?.session.detach().catch(() => undefined);
    await phone?.close();
    await system?.close();
    webView?.server.close();
  });

  it("injects window.AquaPilotNative before the app's code, and the app starts on it", async () => {
    await page.goto(`${webView.origin}/#/login`);
    await page.getByTestId("login-submit").waitFor({ timeout: 30_000 });
    const seen = await page.evaluate(async () => {
      const bridge = (window as unknown as { AquaPilotNative: Record<string, (...a: unknown[]) => Promise<unknown>> })
        .AquaPilotNative;
      return {
        methods: Object.keys(bridge).sort(),
        language: await bridge.getLanguage(),
        config: await bridge.getConfig(),
        // The boot script is inline in the page: the tag carrying data-entry.
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
      apiBaseUrl: system.url,
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

  it("carries the served page's content policy in the page: an outside image is refused as on the web", async () => {
    phone.expectErrors(
      /(Refused to load|Loading) the image 'https:\/\/images\.example\.net\/|GET https:\/\/images\.example\.net\/pixel\.png csp$/,
      "the test loads an outside image, which the policy refuses",
    );
    await page.goto(`${webView.origin}/#/login`);
    await page.getByTestId("login-submit").waitFor({ timeout: 30_000 });
    const seen = await page.evaluate(
      () =>
        new Promise<string>((resolve) => {
          document.addEventListener(
            "securitypolicyviolation",
            (e) => resolve(`${e.effectiveDirective} ${e.blockedURI}`),
            { once: true },
          );
          // The bound of the wait for a refusal that does not come (the test then fails on the answer).
          setTimeout(() => resolve("no violation"), 10_000);
          const img = new Image();
          img.src = "https://images.example.net/pixel.png";
          document.body.append(img);
        }),
    );
    expect(seen).toBe("img-src https://images.example.net/pixel.png");
  });

  it("signs in through the shell's layer against the cloud on another origin: API, token and hubs go there", async () => {
    expect(new URL(system.url).origin).not.toBe(webView.origin);
    // A request the browser refused (CORS) is a console error: the phone's error guard fails the test with it.
    const requests: string[] = [];
    page.on("request", (r) => requests.push(`${r.method()} ${r.url()}`));
    await page.goto(`${webView.origin}/#/login`);
    await page.getByTestId("login-account").fill(DEMO_ACCOUNT.email);
    await page.getByTestId("login-password").fill(DEMO_ACCOUNT.password);
    await page.getByTestId("login-submit").click();
    await page.getByTestId("home-screen").waitFor({ timeout: 20_000 });
    // Home's households come from the cloud, and the hub-1 channel connects there (negotiate, then the WebSocket).
    await expect
      .poll(() => requests.some((r) => r.startsWith(`POST ${system.url}/signalr-hubs/`) && r.includes("/negotiate")), {
        timeout: 20_000,
      })
      .toBe(true);
    expect(requests).toContain(`POST ${system.url}/connect/token`);
    // Home's households: asked when Home's chunk has loaded, which may be after the message hub's negotiate above.
    await expect
      .poll(() => requests.some((r) => r.startsWith(`GET ${system.url}/api/run-lucky/device/app/family/`)), {
        timeout: 20_000,
      })
      .toBe(true);
    // nothing of the API went to the page's own origin
    const stray = requests.filter((r) => /\/(api|connect|signalr-hubs)\//.test(r) && r.includes(webView.origin));
    expect(stray).toEqual([]);
    await snap(page, "mobile-shell-home-cross-origin");
  });

  it("a share-code link opens the household list's join panel with the code filled in", async () => {
    const code = "AQF1.eyJmIjoiMSJ9.c2ln";
    const hash = deepLinkHash(`aquapilot://join/${code}`);
    await page.evaluate((h) => {
      window.location.hash = h ?? "";
    }, hash);
    const field = page.getByTestId("family-join-code");
    await field.waitFor({ timeout: 10_000 });
    expect(await field.inputValue()).toBe(code);
    await snap(page, "mobile-shell-join-link");
  });
});
