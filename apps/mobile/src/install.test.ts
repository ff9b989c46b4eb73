import { App } from "@capacitor/app";
import { AppLauncher } from "@capacitor/app-launcher";
import { Capacitor } from "@capacitor/core";
import { Device } from "@capacitor/device";
import { Geolocation } from "@capacitor/geolocation";
import { TextZoom } from "@capacitor/text-zoom";
import { BleClient } from "@capacitor-community/bluetooth-le";
import { AndroidSettings, IOSSettings, NativeSettings } from "capacitor-native-settings";
import { JPush } from "capacitor-plugin-jpush";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  checkNativePermission,
  clearNativeCache,
  getNativeConfig,
  getNativeLanguage,
  isLocationEnabled,
  startIntent,
} from "../../web/src/shared/bridge/index.ts";
import {
  discoverDevices,
  getCurrentWifi,
  joinAccessPoint,
  sendJoinPacket,
} from "../../web/src/shared/bridge/native-wifi.ts";
import { onPushMessageOpened } from "../../web/src/shared/bridge/push-open.ts";
import { appListeners } from "../__mocks__/@capacitor/app.ts";
import { jpushListeners } from "../__mocks__/capacitor-plugin-jpush.ts";
import { appLanguage } from "./bridge.ts";
import { installShell, pushMessageId } from "./install.ts";
import { AquaShell } from "./plugins/shell/index.ts";
import { AquaWifi } from "./plugins/wifi/index.ts";

// Capacitor's guide "Mocking Capacitor Plugins": manual mocks (../__mocks__, src/plugins/*/__mocks__).
vi.mock("@capacitor/core");
vi.mock("@capacitor/app");
vi.mock("@capacitor/device");
vi.mock("@capacitor/geolocation");
vi.mock("@capacitor/app-launcher");
vi.mock("@capacitor/splash-screen");
vi.mock("@capacitor/text-zoom");
vi.mock("@capacitor-community/bluetooth-le");
vi.mock("capacitor-native-settings");
vi.mock("capacitor-plugin-jpush");
vi.mock("./plugins/wifi/index.ts");
vi.mock("./plugins/shell/index.ts");

const fire = (listeners: Map<string, ((e: unknown) => void)[]>, event: string, payload: unknown) => {
  for (const listener of listeners.get(event) ?? []) listener(payload);
};

beforeEach(() => {
  vi.spyOn(console, "warn").mockImplementation(() => {});
  vi.spyOn(console, "info").mockImplementation(() => {});
  installShell();
});

afterEach(() => {
  delete window.AquaPilotNative;
  delete window.AquaPilotBack;
  document.documentElement.style.removeProperty("--safe-area-inset-top");
  document.documentElement.style.removeProperty("--safe-area-inset-bottom");
  appListeners.clear();
  jpushListeners.clear();
  vi.clearAllMocks();
  vi.restoreAllMocks();
});

describe("the shell's bridge as the web app sees it (spec §7 native bridge)", () => {
  it("language: Chinese tags become zh-Hans, others their primary subtag", async () => {
    expect(await getNativeLanguage()).toBe("zh-Hans");
    vi.mocked(Device.getLanguageTag).mockResolvedValueOnce({ value: "en-US" });
    expect(await getNativeLanguage()).toBe("en");
    expect(appLanguage("zh-Hant-TW")).toBe("zh-Hans");
    expect(appLanguage("fr_FR")).toBe("fr");
    expect(appLanguage("")).toBe("");
  });

  it("config (spec §3): safe areas in CSS px, JPush registration id, tenant, app version, platform and API host", async () => {
    document.documentElement.style.setProperty("--safe-area-inset-top", "24px");
    document.documentElement.style.setProperty("--safe-area-inset-bottom", "34px");
    expect(await getNativeConfig()).toEqual({
      statusBarHeight: 24,
      safeAreaBottom: 34,
      pushRegistrationId: "1a0018970a8c3c5e1f0",
      tenant: null,
      appVersion: "2.0.0",
      platform: "android",
      // the build's AQUAPILOT_API_URL, production's host without one
      apiBaseUrl: "https://app.aquapilot.cn",
    });
    vi.mocked(JPush.getRegistrationID).mockRejectedValueOnce(new Error("not registered yet"));
    vi.mocked(App.getInfo).mockResolvedValueOnce({ name: "AquaPilot", id: "x", build: "1", version: "2.1.0" });
    const config = await getNativeConfig();
    expect(config.pushRegistrationId).toBeNull();
    expect(config.appVersion).toBe("2.1.0");
    expect(config.statusBarHeight).toBe(24);
  });

  it("platform comes from Capacitor: ios is reported, the web is not", async () => {
    vi.mocked(Capacitor.getPlatform).mockReturnValue("ios");
    installShell();
    expect((await getNativeConfig()).platform).toBe("ios");
    vi.mocked(Capacitor.getPlatform).mockReturnValue("web");
    installShell();
    expect((await getNativeConfig()).platform).toBeNull();
    vi.mocked(Capacitor.getPlatform).mockReturnValue("android");
  });

  it("permission check and request (spec §6): location, Bluetooth, camera, notifications, the rest by alias", async () => {
    expect(await checkNativePermission("location")).toBe(true);
    expect(Geolocation.requestPermissions).not.toHaveBeenCalled();
    vi.mocked(Geolocation.checkPermissions).mockResolvedValueOnce({ location: "prompt", coarseLocation: "prompt" });
    vi.mocked(Geolocation.requestPermissions).mockResolvedValueOnce({ location: "denied", coarseLocation: "denied" });
    expect(await checkNativePermission("location")).toBe(false);
    expect(Geolocation.requestPermissions).toHaveBeenCalledWith({ permissions: ["location"] });

    expect(await checkNativePermission("bluetooth")).toBe(true);
    expect(BleClient.initialize).toHaveBeenCalledWith({ androidNeverForLocation: true });
    vi.mocked(BleClient.initialize).mockRejectedValueOnce(new Error("Permission denied."));
    expect(await checkNativePermission("bluetooth")).toBe(false);

    expect(await checkNativePermission("camera")).toBe(true);
    expect(AquaShell.requestPermissions).not.toHaveBeenCalled();
    expect(await checkNativePermission("microphone")).toBe(false);
    expect(AquaShell.requestPermissions).toHaveBeenCalledWith({ permissions: ["microphone"] });

    vi.mocked(JPush.checkPermissions).mockResolvedValueOnce({ permission: "prompt" });
    expect(await checkNativePermission("notifications")).toBe(true);
    expect(JPush.requestPermissions).toHaveBeenCalledTimes(1);

    expect(await checkNativePermission("teleport")).toBe(false);
  });

  it("location enabled: false while Geolocation's check fails (location services off)", async () => {
    expect(await isLocationEnabled()).toBe(true);
    vi.mocked(Geolocation.checkPermissions).mockRejectedValueOnce(new Error("Location services are not enabled"));
    expect(await isLocationEnabled()).toBe(false);
  });

  it("position: one fix as WGS-84 degrees; a failure rejects with code and message (spec §8)", async () => {
    const bridge = window.AquaPilotNative as unknown as { getLocation(): Promise<unknown> };
    expect(await bridge.getLocation()).toEqual({ longitude: 121.47, latitude: 31.23, coordType: "WGS84" });
    vi.mocked(Geolocation.getCurrentPosition).mockRejectedValueOnce(
      Object.assign(new Error("timeout"), { code: "OS-PLUG-GLOC-0010" }),
    );
    await expect(bridge.getLocation()).rejects.toEqual({ code: "OS-PLUG-GLOC-0010", message: "timeout" });
  });

  it("start intent: settings pages, dialling the service phone 114, the download site; others are refused", async () => {
    await startIntent("settings", { target: "location-permission" });
    expect(NativeSettings.open).toHaveBeenLastCalledWith({
      optionAndroid: AndroidSettings.ApplicationDetails,
      optionIOS: IOSSettings.App,
    });
    await startIntent("wifi-settings");
    expect(NativeSettings.open).toHaveBeenLastCalledWith({
      optionAndroid: AndroidSettings.Wifi,
      optionIOS: IOSSettings.App,
    });
    await startIntent("bluetooth-settings");
    expect(NativeSettings.open).toHaveBeenLastCalledWith({
      optionAndroid: AndroidSettings.Bluetooth,
      optionIOS: IOSSettings.App,
    });
    await startIntent("location-settings");
    expect(NativeSettings.open).toHaveBeenLastCalledWith({
      optionAndroid: AndroidSettings.Location,
      optionIOS: IOSSettings.App,
    });
    await startIntent("view", { url: "tel:114" });
    await startIntent("view", { url: "https://download.aquapilot.cn/android" });
    await startIntent("view", { url: "javascript:alert(1)" });
    await startIntent("teleport");
    expect(vi.mocked(AppLauncher.openUrl).mock.calls).toEqual([
      [{ url: "tel:114" }],
      [{ url: "https://download.aquapilot.cn/android" }],
    ]);
    expect(console.warn).toHaveBeenCalledTimes(2);
  });

  it("clear cache goes to AquaShell", async () => {
    await clearNativeCache();
    expect(AquaShell.clearCache).toHaveBeenCalledTimes(1);
  });

  it("Wi-Fi of network setup passes through AquaWifi with the contract's shapes", async () => {
    expect(await getCurrentWifi()).toEqual({ connected: true, ssid: "AquaHome", band: "2.4GHz", ip: "192.168.1.23" });
    expect(await joinAccessPoint("WiFi-BL3372")).toEqual({ ok: true, error: null });
    expect(AquaWifi.joinAccessPoint).toHaveBeenCalledWith({ ssid: "WiFi-BL3372" });
    expect(await sendJoinPacket("QUJD")).toEqual({ acknowledged: true });
    expect(AquaWifi.sendJoinPacket).toHaveBeenCalledWith({ packet: "QUJD" });
    expect(await discoverDevices("REVG", 1000)).toEqual({ answers: [{ address: "192.168.1.57", packet: "AAAA" }] });
    expect(AquaWifi.discover).toHaveBeenCalledWith({ packet: "REVG", timeoutMs: 1000 });
    vi.mocked(AquaWifi.getCurrentNetwork).mockRejectedValueOnce(new Error("no location permission"));
    expect(await getCurrentWifi()).toBeNull();
  });
});

describe("the shell's events", () => {
  it("hardware back calls the app's back handler; the app is minimised when it is not loaded", () => {
    fire(appListeners, "backButton", { canGoBack: false });
    expect(App.minimizeApp).toHaveBeenCalledTimes(1);
    const back = vi.fn(() => true);
    window.AquaPilotBack = back;
    fire(appListeners, "backButton", { canGoBack: true });
    expect(back).toHaveBeenCalledTimes(1);
    expect(App.minimizeApp).toHaveBeenCalledTimes(1);
  });

  it("a tapped push opens its message through AquaPilotOpenMessages (spec §2); without an id the list", async () => {
    const opened: (string | null)[] = [];
    const stop = onPushMessageOpened((id) => opened.push(id));
    fire(jpushListeners, "notificationOpened", { title: "t", content: "c", rawData: { extras: { messageId: "m-7" } } });
    fire(jpushListeners, "notificationOpened", { title: "t", content: "c", rawData: { aps: {} } });
    await vi.waitFor(() => expect(opened).toEqual(["m-7", null]));
    stop();
    expect(JPush.startJPush).toHaveBeenCalled();
    expect(pushMessageId({ rawData: { extras: '{"messageId":12}' } } as never)).toBe("12");
    expect(pushMessageId({ rawData: { messageId: "ios-1", aps: {} } } as never)).toBe("ios-1");
  });

  it("deep links open their screen once the app listens: messages and the share code", async () => {
    window.AquaPilotBack = () => true;
    fire(appListeners, "appUrlOpen", { url: "aquapilot://message/m-9" });
    const messageHash = `#/MessageDetails?params=${encodeURIComponent('{"id":"m-9"}')}`;
    await vi.waitFor(() => expect(window.location.hash).toBe(messageHash));
    fire(appListeners, "appUrlOpen", { url: "aquapilot://join/AB12-cd" });
    const joinHash = `#/FamilyList?params=${encodeURIComponent('{"shareCode":"AB12-cd"}')}`;
    await vi.waitFor(() => expect(window.location.hash).toBe(joinHash));
    fire(appListeners, "appUrlOpen", { url: "aquapilot://evil/../x" });
    fire(appListeners, "appUrlOpen", { url: "https://elsewhere.example/#/MessageDetails" });
    await new Promise((r) => setTimeout(r, 150));
    expect(window.location.hash).toBe(joinHash);
  });
});

describe("the phone's text size", () => {
  it("is applied to the web view at start and on coming back, and the web app measures it again", async () => {
    await vi.waitFor(() => expect(TextZoom.set).toHaveBeenCalledWith({ value: 1 }));
    vi.mocked(TextZoom.getPreferred).mockResolvedValue({ value: 1.5 });
    const resized = vi.fn();
    window.addEventListener("resize", resized);
    try {
      fire(appListeners, "resume", {});
      await vi.waitFor(() => expect(TextZoom.set).toHaveBeenLastCalledWith({ value: 1.5 }));
      await vi.waitFor(() => expect(resized).toHaveBeenCalled());
    } finally {
      window.removeEventListener("resize", resized);
      vi.mocked(TextZoom.getPreferred).mockResolvedValue({ value: 1 });
    }
  });
});
