import { QueryClientProvider } from "@tanstack/react-query";
import { ConfigProvider, Toast } from "antd-mobile";
import enUS from "antd-mobile/es/locales/en-US";
import esES from "antd-mobile/es/locales/es-ES";
import frFR from "antd-mobile/es/locales/fr-FR";
import ruRU from "antd-mobile/es/locales/ru-RU";
import zhCN from "antd-mobile/es/locales/zh-CN";
import { useEffect, useMemo } from "react";
import { I18nextProvider, useTranslation } from "react-i18next";
import { RouterProvider } from "react-router";
import { AppUpdateWatch } from "../features/settings/components/app-update-watch.js";
import { onUnauthorized } from "../shared/api/events.js";
import { setLoadingIndicator } from "../shared/api/loading.js";
import { createAppQueryClient } from "../shared/api/query-client.js";
import { clearLoginInfo } from "../shared/auth/session.js";
import { i18n } from "../shared/i18n/index.js";
import { navigateTo, PATHS } from "../shared/navigation/index.js";
import { deviceChannel } from "../shared/realtime/index.js";
import { MessageCenterWatch } from "../shared/realtime/message-channel.js";
import { createAppRouter } from "./router.js";

const ANTD_LOCALES = { "zh-Hans": zhCN, en: enUS, es: esES, ru: ruRU, fr: frFR } as const;

/** The app's query client; failures toast their message (spec §8). */
export const queryClient = createAppQueryClient((text) => Toast.show({ content: text, position: "center" }));

setLoadingIndicator({
  show: () => Toast.show({ icon: "loading", content: i18n.t("common.loading"), duration: 0, maskClickable: false }),
  hide: () => Toast.clear(),
});

function Shell() {
  const { i18n: instance } = useTranslation();
  const router = useMemo(() => createAppRouter(), []);
  const locale = ANTD_LOCALES[instance.language as keyof typeof ANTD_LOCALES] ?? zhCN;

  useEffect(
    () =>
      // spec §4: a 401 destroys every cached page and query and goes to Login
      onUnauthorized(() => {
        queryClient.clear();
        void deviceChannel().stop();
        clearLoginInfo();
        if (!router.state.location.pathname.toLowerCase().startsWith(PATHS.Login)) {
          navigateTo(PATHS.Login, null, { replace: true });
        }
      }),
    [router],
  );

  return (
    <ConfigProvider locale={locale}>
      <RouterProvider router={router} />
    </ConfigProvider>
  );
}

/** The root component: i18n, TanStack Query, antd-mobile locale, the hash router and the 401 handling. */
export function App() {
  return (
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <AppUpdateWatch />
        <MessageCenterWatch />
        <Shell />
      </QueryClientProvider>
    </I18nextProvider>
  );
}
