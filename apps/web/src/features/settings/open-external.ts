import { hasNativeBridge, startIntent } from "../../shared/bridge/index.ts";

/**
 * Opens an outside address: inside a native shell through the bridge (`startIntent("view", {url})`, the shell opens
 * the browser, the dialer for `tel:`, the store for a download page), else in the browser (`tel:` dials on phones).
 */
export function openExternal(url: string): void {
  if (hasNativeBridge()) {
    void startIntent("view", { url });
    return;
  }
  if (url.startsWith("tel:")) window.location.href = url;
  else window.open(url, "_blank", "noopener");
}
