import { afterEach, describe, expect, it, vi } from "vitest";
import {
  apiBaseUrlOf,
  checkNativePermission,
  clearNativeCache,
  getNativeConfig,
  getNativeLanguage,
  hasNativeBridge,
  installSimulatedBridge,
  isLocationEnabled,
  startIntent,
} from "./index.ts";

afterEach(() => {
  delete window.AquaPilotNative;
  vi.restoreAllMocks();
});

describe("native bridge (spec §7)", () => {
  it("fails silently and logs when not injected", async () => {
    const log = vi.spyOn(console, "info").mockImplementation(() => {});
    expect(hasNativeBridge()).toBe(false);
    expect(await getNativeLanguage()).toBeNull();
    expect(await getNativeConfig()).toEqual({
      statusBarHeight: 0,
      safeAreaBottom: 0,
      pushRegistrationId: null,
      tenant: null,
      appVersion: null,
      platform: null,
      apiBaseUrl: null,
    });
    expect(await checkNativePermission("location")).toBe(false);
    expect(await isLocationEnabled()).toBe(false);
    await expect(startIntent("settings")).resolves.toBeUndefined();
    await expect(clearNativeCache()).resolves.toBeUndefined();
    expect(log).toHaveBeenCalledTimes(6);
    expect(log.mock.calls[0][0]).toContain("window.AquaPilotNative");
  });

  it("reads sync, async and JSON-text answers from an injected bridge", async () => {
    const intents: unknown[] = [];
    const remove = installSimulatedBridge({
      getLanguage: () => "zh",
      getConfig: async () =>
        JSON.stringify({
          statusBarHeight: 24,
          safeAreaBottom: 34,
          pushRegistrationId: "reg-1",
          appVersion: "2.3.1",
          platform: "android",
          apiBaseUrl: "https://cloud.example:8443/",
        }),
      checkPermission: (name) => (name === "location" ? "true" : false),
      isLocationEnabled: async () => true,
      startIntent: (intent, extras) => {
        intents.push([intent, extras]);
      },
    });
    expect(hasNativeBridge()).toBe(true);
    expect(await getNativeLanguage()).toBe("zh");
    expect(await getNativeConfig()).toEqual({
      statusBarHeight: 24,
      safeAreaBottom: 34,
      pushRegistrationId: "reg-1",
      tenant: null,
      appVersion: "2.3.1",
      platform: "android",
      apiBaseUrl: "https://cloud.example:8443",
    });
    expect(await checkNativePermission("location")).toBe(true);
    expect(await checkNativePermission("camera")).toBe(false);
    expect(await isLocationEnabled()).toBe(true);
    await startIntent("wifi-settings", { a: 1 });
    expect(intents).toEqual([["wifi-settings", '{"a":1}']]);
    remove();
    expect(hasNativeBridge()).toBe(false);
  });

  it("a throwing native method resolves to the empty value", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    installSimulatedBridge({
      getLanguage: () => {
        throw new Error("boom");
      },
    });
    expect(await getNativeLanguage()).toBeNull();
  });

  it("takes the shell's API host only as an absolute http(s) URL without credentials, query or fragment", () => {
    expect(apiBaseUrlOf("https://app.aquapilot.cn")).toBe("https://app.aquapilot.cn");
    expect(apiBaseUrlOf("https://app.aquapilot.cn//")).toBe("https://app.aquapilot.cn");
    expect(apiBaseUrlOf("http://10.0.2.2:8080/cloud/")).toBe("http://10.0.2.2:8080/cloud");
    for (const bad of [undefined, null, 42, "", "/api", "app.aquapilot.cn", "ftp://x.example", "javascript:alert(1)"]) {
      expect(apiBaseUrlOf(bad)).toBeNull();
    }
    expect(apiBaseUrlOf("https://user:secret@app.aquapilot.cn")).toBeNull();
    expect(apiBaseUrlOf("https://app.aquapilot.cn/?x=1")).toBeNull();
    expect(apiBaseUrlOf("https://app.aquapilot.cn/#/Home")).toBeNull();
  });
});
