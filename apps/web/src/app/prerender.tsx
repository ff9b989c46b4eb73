import { LANGUAGES, type Language, TIME_ZONE_HEADER } from "@aquapilot/contract/wire";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { renderToString } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { MemoryRouter } from "react-router";
import { LoginScreen } from "../features/account/screens/login-screen.tsx";
import { deviceEarlyCalls } from "../features/device/prefetch.ts";
import { REFRESH_MARGIN_MS } from "../shared/api/token.ts";
import { changeLanguage, i18n } from "../shared/i18n/index.ts";
import { PATHS } from "../shared/navigation/index.ts";
import { RouteFrame } from "./router.tsx";
import { ROUTES } from "./routes.ts";

/** The languages the build prerenders Login in: all of spec §1. */
export { LANGUAGES };

/**
 * Build time only (apps/web/vite-prerender.ts, issue 12 "a phone opens the app fast"): the Login screen as the app
 * renders it into `#root` — the same route frame and screen, in `lang` — as an HTML string, for index.html to paint
 * before any JavaScript has run. Runs under Vite's SSR loader with a happy-dom window as the globals.
 * @throws Error when the Login route is missing from the route table.
 */
export async function renderLoginScreen(lang: Language): Promise<string> {
  const route = ROUTES.find((r) => r.name === "Login");
  if (!route) throw new Error("no Login route");
  await changeLanguage(lang);
  const client = new QueryClient({ defaultOptions: { queries: { gcTime: Number.POSITIVE_INFINITY } } });
  try {
    return renderToString(
      <I18nextProvider i18n={i18n}>
        <QueryClientProvider client={client}>
          <MemoryRouter initialEntries={[PATHS.Login]}>
            <RouteFrame route={route}>
              <LoginScreen />
            </RouteFrame>
          </MemoryRouter>
        </QueryClientProvider>
      </I18nextProvider>,
    );
  } finally {
    client.clear();
  }
}

/** What the page's boot script needs to send the Device screen's first calls itself (apps/web/boot.js, issue 12). */
export interface BootCalls {
  /** The calls, `"METHOD url"` with `__deviceId__` / `__familyId__` placeholders (features/device/prefetch.ts). */
  device: string[];
  /** The time-zone header's name (shared/api/transport.ts `commonHeaders`). */
  timeZoneHeader: string;
  /** A stored token closer than this to its expiry is refreshed by the app first, ms: boot.js then sends nothing. */
  tokenMarginMs: number;
}

/** Build time only (apps/web/vite-prerender.ts): the boot script's early calls, as the app's client builds them. */
export function bootCalls(): BootCalls {
  return { device: deviceEarlyCalls(), timeZoneHeader: TIME_ZONE_HEADER, tokenMarginMs: REFRESH_MARGIN_MS };
}
