import type { QueryClient } from "@tanstack/react-query";
import { clearNativeCache, hasNativeBridge } from "../../shared/bridge/index.ts";

/**
 * localStorage keys a cache clear keeps: the session, the language and the push installation id (the proof this
 * installation's push registration is its own).
 */
export const KEPT_KEYS: readonly string[] = ["token", "loginInfo", "lang", "pushInstallationId"];

/** What {@link clearAppCaches} did. */
export interface ClearResult {
  native: boolean;
  cacheStorage: number;
  storageKeys: number;
}

/**
 * Clears the app's caches (Setting "clear cache"; spec §7 bridge "clear cache"): through the native bridge
 * when a shell injected it, and in every case the app's own: every TanStack Query, every CacheStorage cache, session
 * storage, and localStorage except {@link KEPT_KEYS} (the user stays signed in, in their language). Failures of a
 * part are logged and the rest still runs.
 */
export async function clearAppCaches(queryClient: QueryClient | null): Promise<ClearResult> {
  const result: ClearResult = { native: false, cacheStorage: 0, storageKeys: 0 };
  if (hasNativeBridge()) {
    await clearNativeCache();
    result.native = true;
  }
  queryClient?.clear();
  try {
    if (typeof caches !== "undefined") {
      const names = await caches.keys();
      await Promise.all(names.map((n) => caches.delete(n)));
      result.cacheStorage = names.length;
    }
  } catch (err) {
    console.warn("[cache] CacheStorage not cleared", err);
  }
  try {
    sessionStorage.clear();
    const drop: string[] = [];
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (key !== null && !KEPT_KEYS.includes(key)) drop.push(key);
    }
    for (const key of drop) localStorage.removeItem(key);
    result.storageKeys = drop.length;
  } catch (err) {
    console.warn("[cache] storage not cleared", err);
  }
  return result;
}
