import type { Language } from "@aquapilot/contract/wire";

/**
 * The persisted client state of spec §3, in one typed module: every key the app keeps in localStorage,
 * stored as JSON. A corrupt or missing value reads as `null`; storage failures (quota, private mode) are logged
 * and ignored so the app keeps working in memory.
 */

/** The OAuth token pair as stored: access token, refresh token and absolute expiry (ms since epoch). */
export interface StoredToken {
  accessToken: string;
  refreshToken: string;
  /** When the access token expires, milliseconds since the epoch. */
  expiresAt: number;
}

/** Login info of spec §3: user name, grantedPolicies (permission names) and the access token. */
export interface LoginInfo {
  userName: string;
  grantedPolicies: string[];
  token: string;
}

/** The selected device (spec §3 "device"): what the device screens were opened for. */
export interface StoredDevice {
  id: string;
  name?: string;
  mac?: string;
}

/** The selected family (spec §3 "family"). */
export interface StoredFamily {
  id: string;
  name: string;
}

/** Wi-Fi credentials remembered for network setup (spec §3 "wifi"). */
export interface StoredWifi {
  name: string;
  password: string;
}

/**
 * One node of a snapshot: a text node's text, or an element as `[localName, attributes, style, children]` where
 * `attributes` is a flat `[name, value, name, value…]` list without `style`, `style` a flat
 * `[property, value, priority…]` list of the element's inline style (the CSSOM's, which the app sets), and the
 * namespace follows from the tree (`svg` and what it holds are SVG).
 */
export type SnapshotNode = string | [string, string[], string[], SnapshotNode[]];

/**
 * What localStorage `homeSnapshot` holds (first-paint/snapshot.ts; read by apps/web/src/first-paint/boot.js: keep both
 * in step).
 */
export interface StoredSnapshot {
  /** Format version: boot.js shows only the version it knows (first-paint/snapshot.ts SNAPSHOT_VERSION). */
  v: number;
  /** The app's language when it was taken: boot.js shows it only in the same language. */
  lang: Language;
  /** The local calendar day it was taken, `YYYY-MM-DD`: boot.js shows it only on that day ("water used today"). */
  day: string;
  /** `#root`'s children. */
  nodes: SnapshotNode[];
}

/** Every persisted key of spec §3 and the shape of its value. */
export interface StorageSchema {
  loginInfo: LoginInfo;
  token: StoredToken;
  device: StoredDevice;
  version: string;
  family: StoredFamily;
  /** Selected home family id per user name. */
  userFamilyCache: Record<string, string>;
  wifi: StoredWifi;
  lang: Language;
  /**
   * This installation's random id, sent with the push binding: the proof that lets this phone's push
   * registration move to the account signed in here. Kept across sign-out and cache clears.
   */
  pushInstallationId: string;
  /** The last Home shown (first-paint/snapshot.ts), painted by apps/web/src/first-paint/boot.js on the next start. */
  homeSnapshot: StoredSnapshot;
  /**
   * Why the last session ended without the owner signing out (shared/auth/ending.ts), shown on Login until the next
   * sign-in: "loginExpired", "passwordChanged", "accountDeleted" or "sessionEnded".
   */
  sessionEnding: string;
}

/** A persisted key of spec §3. */
export type StorageKey = keyof StorageSchema;

const validators: { [K in StorageKey]: (v: unknown) => v is StorageSchema[K] } = {
  loginInfo: (v): v is LoginInfo =>
    isObject(v) &&
    typeof v.userName === "string" &&
    typeof v.token === "string" &&
    Array.isArray(v.grantedPolicies) &&
    v.grantedPolicies.every((p) => typeof p === "string"),
  token: (v): v is StoredToken =>
    isObject(v) &&
    typeof v.accessToken === "string" &&
    typeof v.refreshToken === "string" &&
    typeof v.expiresAt === "number",
  device: (v): v is StoredDevice => isObject(v) && typeof v.id === "string",
  version: (v): v is string => typeof v === "string",
  family: (v): v is StoredFamily => isObject(v) && typeof v.id === "string" && typeof v.name === "string",
  userFamilyCache: (v): v is Record<string, string> =>
    isObject(v) && Object.values(v).every((x) => typeof x === "string"),
  wifi: (v): v is StoredWifi => isObject(v) && typeof v.name === "string" && typeof v.password === "string",
  lang: (v): v is Language => typeof v === "string" && ["zh-Hans", "en", "es", "ru", "fr"].includes(v),
  pushInstallationId: (v): v is string => typeof v === "string" && /^[A-Za-z0-9_-]{16,128}$/.test(v),
  homeSnapshot: (v): v is StoredSnapshot => isSnapshot(v),
  sessionEnding: (v): v is string =>
    typeof v === "string" && ["loginExpired", "passwordChanged", "accountDeleted", "sessionEnded"].includes(v),
};

/** Whether `v` has the shape of {@link StoredSnapshot}. */
function isSnapshot(v: unknown): v is StoredSnapshot {
  return (
    isObject(v) &&
    typeof v.v === "number" &&
    typeof v.lang === "string" &&
    typeof v.day === "string" &&
    /^\d{4}-\d{2}-\d{2}$/.test(v.day) &&
    Array.isArray(v.nodes)
  );
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function backend(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

/**
 * Reads a persisted value (spec §3). Returns `null` when the key is missing, not JSON, or of the wrong shape
 * (a corrupt value is removed so it cannot fail again).
 */
export function getItem<K extends StorageKey>(key: K): StorageSchema[K] | null {
  const store = backend();
  if (!store) return null;
  let raw: string | null;
  try {
    raw = store.getItem(key);
  } catch {
    return null;
  }
  if (raw === null) return null;
  try {
    const value: unknown = JSON.parse(raw);
    if (validators[key](value)) return value;
  } catch {
    // fall through: corrupt JSON
  }
  console.warn(`[storage] dropping corrupt value of "${key}"`);
  removeItem(key);
  return null;
}

/** Writes a persisted value as JSON (spec §3); `null` removes it. Storage failures are logged, not thrown. */
export function setItem<K extends StorageKey>(key: K, value: StorageSchema[K] | null): void {
  if (value === null) {
    removeItem(key);
    return;
  }
  try {
    backend()?.setItem(key, JSON.stringify(value));
  } catch (err) {
    console.warn(`[storage] cannot write "${key}"`, err);
  }
}

/** Removes a persisted value. */
export function removeItem(key: StorageKey): void {
  removeKey(key);
}

function removeKey(key: string): void {
  try {
    backend()?.removeItem(key);
  } catch {
    // ignore: nothing to remove
  }
}

/**
 * Keys an earlier version of the app kept and this one neither writes nor reads. A phone that ran that version may
 * still hold them, with the owner's data, so they go at every start (main.tsx) and at sign-out:
 * - `deviceSnapshot`: the last Device screen shown, with its device's figures (the Device screen now opens on its
 *   prerendered frame instead: docs/adr/0028-first-paint-from-html.md).
 */
const RETIRED_KEYS: readonly string[] = ["deviceSnapshot"];

/** Removes what a phone still holds of {@link RETIRED_KEYS}. Storage failures are ignored. */
export function removeRetiredKeys(): void {
  for (const key of RETIRED_KEYS) removeKey(key);
}

/** The stored access token, or null when signed out (spec §4: the guard's "no token"). */
export function getAccessToken(): string | null {
  return getItem("token")?.accessToken ?? null;
}

/** Selected home family id of a user (spec §3 userFamilyCache), or null. */
export function getUserFamily(userName: string): string | null {
  return getItem("userFamilyCache")?.[userName] ?? null;
}

/** Remembers the selected home family of a user (spec §3 userFamilyCache). */
export function setUserFamily(userName: string, familyId: string): void {
  setItem("userFamilyCache", { ...(getItem("userFamilyCache") ?? {}), [userName]: familyId });
}

/**
 * The password remembered for Wi-Fi network `name` (spec §3 `wifi`: the name and password of the last network setup
 * that succeeded), or "" when none is remembered or the remembered one is another network. Names compare exactly
 * (SSIDs are case-sensitive and may hold spaces).
 */
export function rememberedWifiPassword(name: string): string {
  const remembered = getItem("wifi");
  return remembered && name && remembered.name === name ? remembered.password : "";
}

/**
 * Remembers the Wi-Fi a network setup succeeded with (spec §3 `wifi`), replacing the previous one; a blank name is not
 * stored. Called only after a success, so a wrong password is never remembered.
 */
export function rememberWifi(name: string, password: string): void {
  if (!name.trim()) return;
  setItem("wifi", { name, password });
}

/**
 * Clears what sign-out and failed authorisation clear (spec §4): token, login info and the selected device, the last
 * Home's snapshot and the retired keys ({@link removeRetiredKeys}), so the next account never sees this one's.
 */
export function clearSession(): void {
  removeItem("token");
  removeItem("loginInfo");
  removeItem("device");
  removeItem("homeSnapshot");
  removeRetiredKeys();
}
