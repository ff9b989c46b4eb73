import type { AppPlugin } from "@capacitor/app";
import type { AppLauncherPlugin } from "@capacitor/app-launcher";
import type { DevicePlugin } from "@capacitor/device";
import type { GeolocationPlugin } from "@capacitor/geolocation";
import type { BleClientInterface } from "@capacitor-community/bluetooth-le";
import { AndroidSettings, IOSSettings, type NativeSettingsPlugin } from "capacitor-native-settings";
import type { JPushPlugin } from "capacitor-plugin-jpush";
import type { NativeBridge, NativeConfig } from "../../web/src/shared/bridge/index.ts";
import type { NativePosition } from "../../web/src/shared/map/location.ts";
import type { AquaShellPlugin, ShellPermission } from "./plugins/shell/index.ts";
import { SHELL_PERMISSIONS } from "./plugins/shell/index.ts";
import type { AquaWifiPlugin } from "./plugins/wifi/index.ts";

/** The plugins the bridge is a thin adapter over (the real ones in the shell, manual mocks in the tests). */
export interface ShellPlugins {
  app: Pick<AppPlugin, "getInfo">;
  device: Pick<DevicePlugin, "getLanguageTag">;
  geolocation: Pick<GeolocationPlugin, "checkPermissions" | "requestPermissions" | "getCurrentPosition">;
  appLauncher: Pick<AppLauncherPlugin, "openUrl">;
  settings: Pick<NativeSettingsPlugin, "open">;
  ble: Pick<BleClientInterface, "initialize">;
  jpush: Pick<JPushPlugin, "getRegistrationID" | "checkPermissions" | "requestPermissions">;
  wifi: AquaWifiPlugin;
  shell: AquaShellPlugin;
}

/**
 * What the bridge reads from its surroundings: the platform, the tenant, the API host (an absolute http(s) URL, the
 * cloud the app calls, as the page comes from the web view's own origin) and the safe areas (see safe-area.ts).
 */
export interface ShellEnvironment {
  platform: string;
  tenant: string | null;
  apiBaseUrl: string | null;
  safeAreas(): { statusBarHeight: number; safeAreaBottom: number };
}

/** The bridge the shell injects: the web contract plus the position read of shared/map/location.ts. */
export type ShellBridge = Required<Omit<NativeBridge, "scanCode">> & { getLocation(): Promise<NativePosition> };

/**
 * Maps the phone's language tag to the app's (spec §4 languages): every Chinese tag ("zh", "zh-CN", "zh-Hans-CN",
 * "zh-TW") → "zh-Hans", the only Chinese the app has; others → their primary subtag, lower case ("en-US" → "en").
 * Empty or malformed tags → "".
 */
export function appLanguage(tag: string): string {
  const primary = (tag.trim().split(/[-_]/)[0] ?? "").toLowerCase();
  if (!/^[a-z]{2,3}$/.test(primary)) return "";
  return primary === "zh" ? "zh-Hans" : primary;
}

/** The settings pages `startIntent` opens: Android's page, and iOS's (only the app's own page is allowed there). */
const SETTINGS_PAGES: Record<string, { android: AndroidSettings; ios: IOSSettings }> = {
  settings: { android: AndroidSettings.ApplicationDetails, ios: IOSSettings.App },
  "wifi-settings": { android: AndroidSettings.Wifi, ios: IOSSettings.App },
  "bluetooth-settings": { android: AndroidSettings.Bluetooth, ios: IOSSettings.App },
  "location-settings": { android: AndroidSettings.Location, ios: IOSSettings.App },
};

/** URL schemes `startIntent("view", {url})` hands to the system: web pages, the dialler, mail, the app stores. */
const VIEW_SCHEMES = ["https:", "http:", "tel:", "mailto:", "market:", "itms-apps:"];

/** How long config waits for JPush's registration id before answering without it, ms. */
export const REGISTRATION_WAIT_MS = 1500;

function extrasOf(extras: string | undefined): Record<string, unknown> {
  if (!extras) return {};
  try {
    const value: unknown = JSON.parse(extras);
    return value && typeof value === "object" ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/**
 * Builds `window.AquaPilotNative` (spec §7 "Native bridge"; the contract of apps/web/src/shared/bridge/index.ts) over
 * the shell's plugins:
 * - getLanguage: Device's language tag through {@link appLanguage};
 * - getConfig: statusBarHeight / safeAreaBottom (CSS px, `env.safeAreas`), pushRegistrationId (JPush, null while it
 *   has none or after {@link REGISTRATION_WAIT_MS}), tenant, appVersion (App.getInfo), platform and apiBaseUrl (the
 *   cloud's address, `env.apiBaseUrl`);
 * - checkPermission(name): "location" (Geolocation), "bluetooth" (BleClient.initialize, which asks on Android 12+ and
 *   iOS), "notifications" (JPush), and the other aliases of spec §6 (AquaShell); asks when the state is "prompt";
 *   unknown names → false;
 * - isLocationEnabled: Geolocation's permission check, which fails while location services are off;
 * - getLocation: one GPS fix, WGS-84 degrees; rejects `{code, message}` on failure (spec §8);
 * - startIntent: "settings", "wifi-settings", "bluetooth-settings", "location-settings" (NativeSettings),
 *   "view" with extras `{url}` (AppLauncher: the service phone's `tel:`, the download site, the store);
 *   anything else rejects (the web side logs it);
 * - clearCache: AquaShell; the Wi-Fi calls pass through to AquaWifi with the contract's shapes.
 * Every method answers a Promise; a plugin's rejection reaches the web side, which logs it and uses its empty value.
 */
export function createNativeBridge(plugins: ShellPlugins, env: ShellEnvironment): ShellBridge {
  const platform = env.platform === "android" || env.platform === "ios" ? env.platform : null;

  async function registrationId(): Promise<string | null> {
    const timeout = new Promise<null>((resolve) => setTimeout(() => resolve(null), REGISTRATION_WAIT_MS));
    try {
      const answer = await Promise.race([plugins.jpush.getRegistrationID(), timeout]);
      return answer?.registrationId ? answer.registrationId : null;
    } catch {
      return null;
    }
  }

  async function location(): Promise<boolean> {
    const granted = (s: { location: string; coarseLocation: string }) =>
      s.location === "granted" || s.coarseLocation === "granted";
    const status = await plugins.geolocation.checkPermissions();
    if (granted(status)) return true;
    if (status.location === "denied" && platform === "ios") return false; // iOS never asks twice
    return granted(await plugins.geolocation.requestPermissions({ permissions: ["location"] }));
  }

  async function bluetooth(): Promise<boolean> {
    try {
      // Android 12+: BLUETOOTH_SCAN/CONNECT (neverForLocation), older: location; iOS: the Bluetooth prompt.
      await plugins.ble.initialize({ androidNeverForLocation: true });
      return true;
    } catch {
      return false;
    }
  }

  async function notifications(): Promise<boolean> {
    const { permission } = await plugins.jpush.checkPermissions();
    if (permission === "granted") return true;
    if (permission === "denied") return false;
    return (await plugins.jpush.requestPermissions()).permission === "granted";
  }

  async function shellPermission(alias: ShellPermission): Promise<boolean> {
    const state = (await plugins.shell.checkPermissions())[alias];
    if (state === "granted") return true;
    if (state === "denied") return false;
    return (await plugins.shell.requestPermissions({ permissions: [alias] }))[alias] === "granted";
  }

  return {
    async getLanguage() {
      return appLanguage((await plugins.device.getLanguageTag()).value);
    },
    async getConfig(): Promise<NativeConfig> {
      // App.getInfo is native only: a browser (the shell's web layer in tests) answers no version
      const [info, pushRegistrationId] = await Promise.all([plugins.app.getInfo().catch(() => null), registrationId()]);
      return {
        ...env.safeAreas(),
        pushRegistrationId,
        tenant: env.tenant,
        appVersion: info?.version || null,
        platform,
        apiBaseUrl: env.apiBaseUrl,
      };
    },
    async checkPermission(name: string) {
      if (name === "location") return location();
      if (name === "bluetooth") return bluetooth();
      if (name === "notifications") return notifications();
      if ((SHELL_PERMISSIONS as readonly string[]).includes(name)) return shellPermission(name as ShellPermission);
      return false;
    },
    async isLocationEnabled() {
      try {
        await plugins.geolocation.checkPermissions();
        return true;
      } catch {
        return false;
      }
    },
    async getLocation(): Promise<NativePosition> {
      try {
        const { coords } = await plugins.geolocation.getCurrentPosition({ enableHighAccuracy: true, timeout: 15000 });
        return { longitude: coords.longitude, latitude: coords.latitude, coordType: "WGS84" };
      } catch (err) {
        const e = err as { code?: unknown; message?: unknown };
        throw { code: String(e?.code ?? "UNAVAILABLE"), message: String(e?.message ?? err) };
      }
    },
    async startIntent(intent: string, extras?: string) {
      const page = SETTINGS_PAGES[intent];
      if (page) {
        await plugins.settings.open({ optionAndroid: page.android, optionIOS: page.ios });
        return;
      }
      if (intent === "view") {
        const url = extrasOf(extras).url;
        if (typeof url !== "string") throw new Error("startIntent view: extras.url missing");
        if (!VIEW_SCHEMES.includes(new URL(url).protocol)) throw new Error(`startIntent view: scheme of ${url}`);
        await plugins.appLauncher.openUrl({ url });
        return;
      }
      throw new Error(`startIntent: unknown intent "${intent}"`);
    },
    async clearCache() {
      await plugins.shell.clearCache();
    },
    getCurrentWifi: () => plugins.wifi.getCurrentNetwork(),
    getWifiNetworks: () => plugins.wifi.getNetworks(),
    joinAccessPoint: (ssid: string) => plugins.wifi.joinAccessPoint({ ssid }),
    leaveAccessPoint: () => plugins.wifi.leaveAccessPoint(),
    sendJoinPacket: (packet: string) => plugins.wifi.sendJoinPacket({ packet }),
    discoverDevices: (packet: string, timeoutMs: number) => plugins.wifi.discover({ packet, timeoutMs }),
  };
}
