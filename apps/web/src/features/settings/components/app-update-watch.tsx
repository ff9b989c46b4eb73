import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { getAppConfigQueryOptions } from "../../../shared/api/app-config.ts";
import { getNativeConfig } from "../../../shared/bridge/index.ts";
import { i18n } from "../../../shared/i18n/index.ts";
import { clearAppCaches } from "../clear-cache.ts";
import { openExternal } from "../open-external.ts";
import { updateOffer } from "../versions.ts";
import { fetchDeployedVersion, startWebVersionWatch } from "../web-version.ts";

let offered = false;

/**
 * Checks once whether the native shell is older than the latest version of its platform (app-config-setting) and, if
 * so, asks to update in a dialog that opens the download site (spec §7 "App-version endpoint"). Resolves whether the
 * dialog was shown. A plain browser (no shell version) is never asked. Failures are ignored.
 */
export async function offerAppUpdate(fetchConfig: () => Promise<Parameters<typeof updateOffer>[1]>): Promise<boolean> {
  const shell = await getNativeConfig();
  if (!shell.appVersion || !shell.platform) return false;
  try {
    const offer = updateOffer(shell, await fetchConfig());
    if (!offer) return false;
    // The dialog code loads only when there is something to offer (nothing heavy right after the first paint).
    const { confirmDialog } = await import("../../../shared/ui/dialogs.tsx");
    const yes = await confirmDialog({
      title: i18n.t("update.title"),
      content: i18n.t("update.text", { latest: offer.latest, current: shell.appVersion }),
      confirmText: i18n.t("update.now"),
    });
    if (yes && offer.downloadUrl) openExternal(offer.downloadUrl);
    return true;
  } catch (err) {
    console.info("[update] check failed (ignored)", err);
    return false;
  }
}

/**
 * Mounted once by the app shell: starts the web version check (version.json without cache, at start and every
 * 10 minutes; a new version clears the caches and reloads once) and the app update dialog (once per page session).
 * Renders nothing.
 */
export function AppUpdateWatch() {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!offered) {
      offered = true;
      void offerAppUpdate(() => queryClient.fetchQuery(getAppConfigQueryOptions()));
    }
    return startWebVersionWatch({
      fetchVersion: () => fetchDeployedVersion(),
      clear: () => clearAppCaches(queryClient),
      reload: () => window.location.reload(),
    });
  }, [queryClient]);
  return null;
}
