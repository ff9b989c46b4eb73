import { QueryClientProvider } from "@tanstack/react-query";
import { ConfigProvider } from "antd-mobile";
import { lazy, type ReactNode, Suspense, useEffect, useRef, useState } from "react";
import { I18nextProvider } from "react-i18next";
import { HashRouter } from "react-router";
import { afterFirstScreen, afterNextPaint } from "../first-paint/scheduling.ts";
import { onUnauthorized } from "../shared/api/events.ts";
import { setLoadingIndicator } from "../shared/api/loading.ts";
import { createAppQueryClient } from "../shared/api/query-client.ts";
import { noteEnding } from "../shared/auth/ending.ts";
import { clearLoginInfo } from "../shared/auth/session.ts";
import { currentLanguage, i18n, loadTexts } from "../shared/i18n/index.ts";
import { navigateTo, PATHS } from "../shared/navigation/index.ts";
import { deviceChannel, usePhoneLink } from "../shared/realtime/index.ts";
import { getItem } from "../shared/storage/index.ts";
import { useAntdLocale } from "../shared/ui/antd-locale.ts";
import { LinkBanner } from "../shared/ui/link-banner.tsx";
import { Toast } from "../shared/ui/toast.ts";
import { AppRoutes } from "./router.tsx";

/** The app's query client; failures toast their message (spec §8). */
export const queryClient = createAppQueryClient((text) => Toast.show({ content: text, position: "center" }));

setLoadingIndicator({
  show: () => Toast.show({ icon: "loading", content: i18n.t("common.loading"), duration: 0, maskClickable: false }),
  hide: () => Toast.clear(),
});

/** The app-update check and the message centre, loaded after the first screen, so they never compete with it. */
const BackgroundWatchers = lazy(() =>
  // The update dialog's texts (account) and the message toasts' (home) come with them.
  Promise.all([import("./background.tsx"), loadTexts(currentLanguage(), ["start", "account", "home"])]).then(([m]) => ({
    default: m.BackgroundWatchers,
  })),
);

/**
 * Renders `children` only once the first screen is in — painted, and its own calls answered and painted (see
 * `afterFirstScreen`) — and a frame after this mounted: what they load and fetch never competes with the first screen.
 */
function AfterFirstPaint({ children }: { children: ReactNode }) {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    let alive = true;
    void Promise.all([afterNextPaint(), afterFirstScreen()]).then(() => {
      if (alive) setReady(true);
    });
    return () => {
      alive = false;
    };
  }, []);
  return ready ? <Suspense fallback={null}>{children}</Suspense> : null;
}

/** The route path the hash URL shows now ("/index/home" for "#/index/home?x=1"). */
function currentPath(): string {
  return window.location.hash.replace(/^#/, "").split("?")[0] || "/";
}

/**
 * The lost-link banner over every screen; its own component, so a link change redraws only the banner. When the link
 * comes back, every query on screen is read again: what changed meanwhile shows without a pull to refresh.
 */
function PhoneLinkBanner() {
  const link = usePhoneLink();
  const lost = link.state !== "connected";
  const wasLost = useRef(false);
  useEffect(() => {
    if (wasLost.current && !lost) void queryClient.invalidateQueries({ refetchType: "active" });
    wasLost.current = lost;
  }, [lost]);
  return <LinkBanner link={link} />;
}

function Shell() {
  const locale = useAntdLocale();

  useEffect(
    () =>
      // spec §4: a 401 destroys every cached page and query and goes to Login
      onUnauthorized(() => {
        // Login says why (shared/auth/ending.ts): a reason noted by the refused refresh, else "Login expired".
        if (getItem("loginInfo")) noteEnding("loginExpired");
        queryClient.clear();
        void deviceChannel().stop();
        clearLoginInfo();
        if (!currentPath().toLowerCase().startsWith(PATHS.Login.toLowerCase())) {
          navigateTo(PATHS.Login, null, { replace: true });
        }
      }),
    [],
  );

  return (
    <ConfigProvider {...(locale ? { locale } : {})}>
      <HashRouter>
        <AppRoutes />
      </HashRouter>
      <PhoneLinkBanner />
    </ConfigProvider>
  );
}

/** The root component: i18n, TanStack Query, antd-mobile locale, the hash router and the 401 handling. */
export function App() {
  return (
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <AfterFirstPaint>
          <BackgroundWatchers />
        </AfterFirstPaint>
        <Shell />
      </QueryClientProvider>
    </I18nextProvider>
  );
}
