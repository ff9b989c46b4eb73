import { App } from "@capacitor/app";
import { AppLauncher } from "@capacitor/app-launcher";
import { Capacitor } from "@capacitor/core";
import { Device } from "@capacitor/device";
import { Geolocation } from "@capacitor/geolocation";
import { SplashScreen } from "@capacitor/splash-screen";
import { TextZoom } from "@capacitor/text-zoom";
import { BleClient } from "@capacitor-community/bluetooth-le";
import { NativeSettings } from "capacitor-native-settings";
import { JPush, type ReceiveNotificationData } from "capacitor-plugin-jpush";
import { createNativeBridge, type ShellBridge } from "./bridge.ts";
import { deepLinkHash } from "./deep-links.ts";
import { AquaShell } from "./plugins/shell/index.ts";
import { AquaWifi } from "./plugins/wifi/index.ts";
import { readSafeAreas } from "./safe-area.ts";
import { SHELL_CONFIG } from "./shell-config.ts";

/** The window globals the shell and the web app share (apps/web/src/shared/bridge, shared/ui/back-stack.ts). */
interface ShellWindow {
  AquaPilotNative?: unknown;
  AquaPilotBack?: () => boolean;
  AquaPilotOpenMessages?: (payload?: unknown) => boolean;
  location: { hash: string };
}

/** How long a push tap or a deep link waits for the web app to listen, ms (a cold start from a notification). */
export const APP_READY_WAIT_MS = 30_000;
const POLL_MS = 100;

/**
 * The message id a JPush notification carries (the server's extras `{messageId, deviceId, type, event}`,
 * docs/messages-push.md): Android puts extras in `rawData.extras` (or at the top of rawData), iOS at the top of
 * rawData. Null when there is none (the web app then opens the message list).
 */
export function pushMessageId(data: ReceiveNotificationData | undefined): string | null {
  const raw = (data?.rawData ?? {}) as Record<string, unknown>;
  let extras: unknown = raw.extras ?? raw;
  if (typeof extras === "string") {
    try {
      extras = JSON.parse(extras);
    } catch {
      extras = {};
    }
  }
  const id = (extras as { messageId?: unknown } | null)?.messageId;
  return typeof id === "string" || typeof id === "number" ? String(id) : null;
}

/** Calls `fn` once `ready()` holds (checked every 100 ms, at most {@link APP_READY_WAIT_MS}); resolves whether it ran. */
function whenReady(ready: () => boolean, fn: () => void): Promise<boolean> {
  return new Promise((resolve) => {
    const started = Date.now();
    const tick = () => {
      if (ready()) {
        fn();
        resolve(true);
      } else if (Date.now() - started >= APP_READY_WAIT_MS) resolve(false);
      else setTimeout(tick, POLL_MS);
    };
    tick();
  });
}

/**
 * Applies the phone's text size to the web view (WCAG 1.4.4): Android's font size as the WebView's text zoom, iOS's
 * preferred text size (Dynamic Type) as the page's `text-size-adjust`, both read and set through @capacitor/text-zoom
 * (a factor, 1 = 100 %). Then fires `resize` on `win`, on which the web app measures its text again and picks its
 * layout (apps/web/src/shared/ui/text-scale.ts). Rejects when the plugin does.
 */
export async function applyPreferredTextZoom(win: Pick<Window, "dispatchEvent"> = window): Promise<void> {
  const { value } = await TextZoom.getPreferred();
  await TextZoom.set({ value });
  win.dispatchEvent(new Event("resize"));
}

/**
 * Installs the shell on `win`, before the web app's code runs (www/native-shell.js, first script of
 * index.html's head):
 * - `window.AquaPilotNative` = {@link createNativeBridge} over the real plugins;
 * - hardware back (Android) → `window.AquaPilotBack()` (closes the top dialog first, spec §2); the app is minimised
 *   when the web app did not take it (not loaded yet);
 * - JPush started; a tapped notification → `window.AquaPilotOpenMessages(messageId)` once the web app listens;
 * - deep links (the launch URL and later `appUrlOpen`, see deep-links.ts) → the route's hash once the app listens;
 * - the phone's text size applied to the web view at start and whenever the app comes back to the foreground (the
 *   owner may have changed it in the settings meanwhile): {@link applyPreferredTextZoom};
 * - the splash screen hidden once the page has painted.
 * Returns the bridge.
 */
export function installShell(win: ShellWindow = window as unknown as ShellWindow): ShellBridge {
  const bridge = createNativeBridge(
    {
      app: App,
      device: Device,
      geolocation: Geolocation,
      appLauncher: AppLauncher,
      settings: NativeSettings,
      ble: BleClient,
      jpush: JPush,
      wifi: AquaWifi,
      shell: AquaShell,
    },
    {
      platform: Capacitor.getPlatform(),
      tenant: SHELL_CONFIG.tenant,
      apiBaseUrl: SHELL_CONFIG.apiBaseUrl,
      safeAreas: () => readSafeAreas(),
    },
  );
  win.AquaPilotNative = bridge;
  const native = Capacitor.isNativePlatform();

  void App.addListener("backButton", () => {
    if (win.AquaPilotBack?.()) return;
    void App.minimizeApp();
  });

  const openHash = (hash: string | null) => {
    if (hash)
      void whenReady(
        () => typeof win.AquaPilotBack === "function",
        () => (win.location.hash = hash),
      );
  };
  void App.addListener("appUrlOpen", ({ url }) => openHash(deepLinkHash(url)));
  void App.getLaunchUrl()
    .then((launch) => openHash(launch?.url ? deepLinkHash(launch.url) : null))
    .catch(() => undefined);

  if (native) {
    void JPush.addListener("notificationOpened", (data) => {
      const id = pushMessageId(data);
      void whenReady(
        () => typeof win.AquaPilotOpenMessages === "function",
        () => win.AquaPilotOpenMessages?.(id ?? undefined),
      );
    });
    JPush.startJPush().catch((err: unknown) => console.warn("[shell] JPush did not start", err));
    const textZoom = () =>
      applyPreferredTextZoom().catch((err: unknown) => console.warn("[shell] text size not applied", err));
    void textZoom();
    void App.addListener("resume", () => void textZoom());
  }
  const hide = () => void SplashScreen.hide().catch(() => undefined);
  if (typeof requestAnimationFrame === "function") requestAnimationFrame(() => setTimeout(hide, 0));
  else hide();
  return bridge;
}
