import { setTokenBaseUrl } from "./token.ts";

/**
 * The API host (spec §7) and the addresses on it: every call, the token endpoint, images and file URLs, and the hubs
 * go to one host, "" meaning the page's own origin. Kept apart from the calls so the hubs, images and the native
 * shell's start-up can read and set it without loading the request machinery.
 */

let baseUrl = "";

/**
 * Sets the API host (spec §7) of every call, of the token endpoint (`/connect/token`, revocation), of
 * images and file URLs ({@link imageUrl}) and of the hubs (shared/realtime reads {@link apiBaseUrl} when it builds a
 * connection): "" = the page's own origin, the default in the browser and behind the dev proxy; inside a native shell
 * the cloud's address from its config (`NativeConfig.apiBaseUrl`, set once at start-up by main.tsx before any call).
 * Trailing slashes are dropped.
 */
export function setApiBaseUrl(url: string): void {
  baseUrl = url.replace(/\/+$/, "");
  setTokenBaseUrl(baseUrl);
}

/** The API host prefix ("" = same origin), without a trailing slash (spec §7). */
export function apiBaseUrl(): string {
  return baseUrl;
}

/**
 * Absolute URL of an image (spec §7 "Images"): a relative path or an object with fileUrl gets the API host
 * prefixed; absolute and data URLs pass unchanged; empty → null.
 */
export function imageUrl(image: string | { fileUrl?: string | null } | null | undefined): string | null {
  const path = typeof image === "string" ? image : image?.fileUrl;
  if (!path) return null;
  if (/^(https?:|data:|blob:)/i.test(path)) return path;
  return `${baseUrl}${path.startsWith("/") ? "" : "/"}${path}`;
}
