import type {
  TDiscoverResult,
  TJoinAccessPointResult,
  TPhoneWifi,
  TSendJoinPacketResult,
  TWifiNetworkList,
} from "@aquapilot/contract/wire";

/**
 * The typed native bridge (spec §7 "Native bridge"): language, config, permission check, location enabled, start
 * intent, clear cache, and (docs/device-protocol.md §13.6) the phone's Wi-Fi for network setup. The Android/iOS shells
 * inject `window.AquaPilotNative` before the page loads; each method may answer synchronously or with a Promise, and
 * values may come JSON-encoded (Android's addJavascriptInterface can only return strings). Without the object every
 * call fails silently: it resolves to the documented empty value and logs one line.
 */

/** Native-app config of spec §3. `statusBarHeight` and `safeAreaBottom` are CSS px. */
export interface NativeConfig {
  statusBarHeight: number;
  safeAreaBottom: number;
  pushRegistrationId: string | null;
  tenant: string | null;
  /** The shell's own version, e.g. "2.3.1" (for the app update dialog); null when the shell does not report it. */
  appVersion: string | null;
  /** The shell's platform, for the matching latest version and download link; null when not reported. */
  platform: "android" | "ios" | null;
  /**
   * The cloud the app calls from inside a shell: an absolute http(s) origin with an optional path, no
   * trailing slash, e.g. "https://app.aquapilot.cn". The shell's page is served from its own origin (https://localhost,
   * capacitor://localhost), so every call, token call, hub and image goes there; null = the page's own origin (a
   * plain browser, or a shell that does not report it).
   */
  apiBaseUrl: string | null;
}

type MaybeAsync<T> = T | Promise<T>;

/** What a native shell injects as `window.AquaPilotNative`. Every method is optional. */
export interface NativeBridge {
  /** The phone's language tag, e.g. "zh", "en-US". */
  getLanguage?(): MaybeAsync<string>;
  /** {@link NativeConfig} as an object or JSON text. */
  getConfig?(): MaybeAsync<NativeConfig | string>;
  /** Whether a runtime permission (e.g. "location", "bluetooth") is granted; may prompt the user. */
  checkPermission?(name: string): MaybeAsync<boolean | string>;
  /** Whether location services (GPS) are switched on. */
  isLocationEnabled?(): MaybeAsync<boolean | string>;
  /**
   * Starts a native intent / screen: "settings" (this app's settings, where permissions are granted),
   * "wifi-settings", "bluetooth-settings", "location-settings" (network setup, spec §8), "scan".
   */
  startIntent?(intent: string, extras?: string): MaybeAsync<void>;
  /** Clears the web view cache. */
  clearCache?(): MaybeAsync<void>;
  /** Opens the phone's camera to scan a QR code; answers the code's text, or null/"" when the user cancels. */
  scanCode?(): MaybeAsync<string | null>;
  /** The phone's current Wi-Fi ({@link TPhoneWifi}, object or JSON text). Needs the location permission on Android. */
  getCurrentWifi?(): MaybeAsync<TPhoneWifi | string>;
  /** Networks in range ({@link TWifiNetworkList}, object or JSON text). */
  getWifiNetworks?(): MaybeAsync<TWifiNetworkList | string>;
  /** Joins an access point by name (the old module's "WiFi-BL3372"); {@link TJoinAccessPointResult}. */
  joinAccessPoint?(ssid: string): MaybeAsync<TJoinAccessPointResult | string>;
  /** Leaves the access point, back to the home network; answers the phone's Wi-Fi then ({@link TPhoneWifi}). */
  leaveAccessPoint?(): MaybeAsync<TPhoneWifi | string>;
  /**
   * Broadcasts the join packet (standard base64) to 255.255.255.255:80 over UDP on the module's access point, as
   * python-broadlink `setup()` does, and answers once it is out; {@link TSendJoinPacketResult}.
   */
  sendJoinPacket?(packet: string): MaybeAsync<TSendJoinPacketResult | string>;
  /**
   * Broadcasts a hello packet (standard base64) to 255.255.255.255:80 over UDP and collects every answer for
   * `timeoutMs` (100–5000) ms; {@link TDiscoverResult}. The answers come back to the bridge's own socket.
   */
  discoverDevices?(packet: string, timeoutMs: number): MaybeAsync<TDiscoverResult | string>;
}

/** The name of the injected object: `window.AquaPilotNative`. */
export const BRIDGE_GLOBAL = "AquaPilotNative";

declare global {
  interface Window {
    AquaPilotNative?: NativeBridge;
  }
}

const EMPTY_CONFIG: NativeConfig = {
  statusBarHeight: 0,
  safeAreaBottom: 0,
  pushRegistrationId: null,
  tenant: null,
  appVersion: null,
  platform: null,
  apiBaseUrl: null,
};

/** The injected bridge, or undefined in a plain browser. */
export function native(): NativeBridge | undefined {
  return typeof window === "undefined" ? undefined : window.AquaPilotNative;
}

/** Whether a native shell injected the bridge. */
export function hasNativeBridge(): boolean {
  return native() !== undefined;
}

/**
 * Calls one bridge method fail-silently: `fallback` without a bridge or that method, or when the call throws
 * (logged); otherwise whatever the method answered (sync or async).
 */
export async function call<K extends keyof NativeBridge, T>(
  name: K,
  fallback: T,
  invoke: (fn: NonNullable<NativeBridge[K]>, bridge: NativeBridge) => unknown,
): Promise<T | unknown> {
  const bridge = native();
  const fn = bridge?.[name];
  if (!bridge || typeof fn !== "function") {
    // A plain browser has no bridge: said in development only (a log per call costs start-up time).
    if (import.meta.env.DEV) console.info(`[bridge] ${String(name)} unavailable (no window.${BRIDGE_GLOBAL})`);
    return fallback;
  }
  try {
    return await invoke(fn as NonNullable<NativeBridge[K]>, bridge);
  } catch (err) {
    console.warn(`[bridge] ${String(name)} failed`, err);
    return fallback;
  }
}

function asBoolean(value: unknown): boolean {
  return value === true || value === "true" || value === 1 || value === "1";
}

/** The native app's language tag (spec §4), or null without a bridge. */
export async function getNativeLanguage(): Promise<string | null> {
  const value = await call("getLanguage", null, (fn, b) => fn.call(b));
  return typeof value === "string" && value ? value : null;
}

/** The native app's config (spec §3), zeros and nulls without a bridge. JSON text answers are parsed. */
export async function getNativeConfig(): Promise<NativeConfig> {
  const value = await call("getConfig", EMPTY_CONFIG, (fn, b) => fn.call(b));
  let raw: unknown = value;
  if (typeof value === "string") {
    try {
      raw = JSON.parse(value);
    } catch {
      raw = null;
    }
  }
  const c = (raw && typeof raw === "object" ? raw : {}) as Partial<Record<keyof NativeConfig, unknown>>;
  return {
    statusBarHeight: Number(c.statusBarHeight) || 0,
    safeAreaBottom: Number(c.safeAreaBottom) || 0,
    pushRegistrationId: typeof c.pushRegistrationId === "string" && c.pushRegistrationId ? c.pushRegistrationId : null,
    tenant: typeof c.tenant === "string" && c.tenant ? c.tenant : null,
    appVersion: typeof c.appVersion === "string" && c.appVersion ? c.appVersion : null,
    platform: c.platform === "android" || c.platform === "ios" ? c.platform : null,
    apiBaseUrl: apiBaseUrlOf(c.apiBaseUrl),
  };
}

/**
 * The API host a shell reported, normalised: an absolute `http:` or `https:` URL without credentials,
 * query or fragment, its trailing slashes dropped ("https://api.example/" → "https://api.example"); null for anything
 * else (absent, empty, relative, another scheme), so a malformed config leaves the app on its page's origin.
 */
export function apiBaseUrlOf(value: unknown): string | null {
  if (typeof value !== "string" || !value) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return null;
  if (url.username || url.password || url.search || url.hash) return null;
  return `${url.origin}${url.pathname}`.replace(/\/+$/, "");
}

/** Whether a native permission is granted (spec §6); false without a bridge. */
export async function checkNativePermission(name: string): Promise<boolean> {
  return asBoolean(await call("checkPermission", false, (fn, b) => fn.call(b, name)));
}

/** Whether location services are on (spec §8 "Location not enabled"); false without a bridge. */
export async function isLocationEnabled(): Promise<boolean> {
  return asBoolean(await call("isLocationEnabled", false, (fn, b) => fn.call(b)));
}

/** Starts a native intent; does nothing without a bridge. `extras` are sent as JSON text. */
export async function startIntent(intent: string, extras?: Record<string, unknown>): Promise<void> {
  await call("startIntent", undefined, (fn, b) => fn.call(b, intent, extras ? JSON.stringify(extras) : undefined));
}

/** Clears the native web view cache; does nothing without a bridge. */
export async function clearNativeCache(): Promise<void> {
  await call("clearCache", undefined, (fn, b) => fn.call(b));
}

/** Whether the native shell can scan codes with the phone's camera (`window.AquaPilotNative.scanCode`). */
export function hasNativeScanner(): boolean {
  return typeof native()?.scanCode === "function";
}

/**
 * Scans a QR code with the native camera (spec §6 camera permission), e.g. a household's share code.
 * Resolves with the code's text, or null when the user cancels, the scan fails or no bridge is injected
 * (fail-silent like every bridge call: logged, never thrown).
 */
export async function scanCode(): Promise<string | null> {
  const value = await call("scanCode", null, (fn, b) => fn.call(b));
  return typeof value === "string" && value.trim() ? value.trim() : null;
}

/**
 * Installs a simulated bridge for the browser demo and tests (`window.AquaPilotNative`); returns a function that
 * removes it again.
 */
export function installSimulatedBridge(bridge: NativeBridge): () => void {
  window.AquaPilotNative = bridge;
  return () => {
    delete window.AquaPilotNative;
  };
}
