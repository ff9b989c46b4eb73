import { LANGUAGES, type Language, TIME_ZONE_HEADER } from "@aquapilot/contract/wire";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { renderToString } from "react-dom/server";
import { I18nextProvider, useTranslation } from "react-i18next";
import { MemoryRouter } from "react-router";
import { RouteFrame } from "../app/router.tsx";
import { type AppRoute, ROUTES } from "../app/routes.ts";
import { LoginScreen } from "../features/account/screens/login-screen.tsx";
import { DeviceFrameScreen } from "../features/device/components/device-frame.tsx";
import { deviceEarlyCalls } from "../features/device/prefetch.ts";
import { REFRESH_MARGIN_MS } from "../shared/api/token.ts";
import { changeLanguage, i18n, loadTexts } from "../shared/i18n/index.ts";
import { PATHS } from "../shared/navigation/index.ts";

/** The languages the build prerenders Login in: all of spec §1. */
export { LANGUAGES };

/** The route named `name` of the route table. @throws Error when there is none. */
function routeNamed(name: string): AppRoute {
  const route = ROUTES.find((r) => r.name === name);
  if (!route) throw new Error(`no ${name} route`);
  return route;
}

/**
 * `screen` in `route`'s frame, in `lang` with the route's texts loaded, as the app renders it into `#root`, as an HTML
 * string; `path` is the router's location.
 */
async function renderRoute(lang: Language, route: AppRoute, path: string, screen: ReactNode): Promise<string> {
  await changeLanguage(lang);
  await loadTexts(lang, route.texts);
  const client = new QueryClient({ defaultOptions: { queries: { gcTime: Number.POSITIVE_INFINITY } } });
  try {
    return renderToString(
      <I18nextProvider i18n={i18n}>
        <QueryClientProvider client={client}>
          <MemoryRouter initialEntries={[path]}>
            <RouteFrame route={route}>{screen}</RouteFrame>
          </MemoryRouter>
        </QueryClientProvider>
      </I18nextProvider>,
    );
  } finally {
    client.clear();
  }
}

/**
 * Build time only (apps/web/src/first-paint/build/prerender-plugin.ts): the Login screen as the app renders it into
 * `#root` — the same route frame and screen, in `lang` — as an HTML string, for index.html to paint before any
 * JavaScript has run. Runs under Vite's SSR loader with a happy-dom window as the globals.
 * @throws Error when the Login route is missing from the route table.
 */
export async function renderLoginScreen(lang: Language): Promise<string> {
  return renderRoute(lang, routeNamed("Login"), PATHS.Login, <LoginScreen />);
}

/**
 * Build time only, as {@link renderLoginScreen}: the Device screen while its device loads (spec §3; features/device
 * `DeviceFrameScreen`, titled "Device" in `lang`) in the Device route's frame, for boot.js to paint on a signed-in
 * start on /Device (the Device screen must be interactive within 2 s).
 * @throws Error when the Device route is missing from the route table.
 */
export async function renderDeviceFrame(lang: Language): Promise<string> {
  return renderRoute(lang, routeNamed("Device"), PATHS.Device, <LoadingDevice />);
}

/** {@link DeviceFrameScreen} as the app shows it before the household's list names the device: titled "Device". */
function LoadingDevice() {
  const { t } = useTranslation();
  return <DeviceFrameScreen title={t("device.title")} />;
}

/**
 * What the page's boot script needs to send the Device screen's first calls itself (apps/web/src/first-paint/boot.js).
 */
export interface BootCalls {
  /** The calls, `"METHOD url"` with `__deviceId__` / `__familyId__` placeholders (features/device/prefetch.ts). */
  device: string[];
  /** The time-zone header's name (shared/api/transport.ts `commonHeaders`). */
  timeZoneHeader: string;
  /** A stored token closer than this to its expiry is refreshed by the app first, ms: boot.js then sends nothing. */
  tokenMarginMs: number;
}

/**
 * Build time only (apps/web/src/first-paint/build/prerender-plugin.ts): the boot script's early calls, as the app's
 * client builds them.
 */
export function bootCalls(): BootCalls {
  return { device: deviceEarlyCalls(), timeZoneHeader: TIME_ZONE_HEADER, tokenMarginMs: REFRESH_MARGIN_MS };
}
