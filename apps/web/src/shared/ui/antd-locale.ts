import type { Language } from "@aquapilot/contract/wire";
import type { Locale } from "antd-mobile/es/locales/base";
import zhCN from "antd-mobile/es/locales/zh-CN";
import { useSyncExternalStore } from "react";
import { i18n, mapLanguage } from "../i18n/index.ts";

/**
 * antd-mobile's own texts (dialog buttons, pickers, empty states) per app language, each its own chunk: a phone
 * downloads only its language's. zh-CN is antd-mobile's default, which its ConfigProvider imports anyway, so it is in
 * the bundle already and taken from there.
 */
const LOADERS: Record<Language, () => Promise<{ default: Locale }>> = {
  "zh-Hans": async () => ({ default: zhCN }),
  en: () => import("antd-mobile/es/locales/en-US"),
  es: () => import("antd-mobile/es/locales/es-ES"),
  ru: () => import("antd-mobile/es/locales/ru-RU"),
  fr: () => import("antd-mobile/es/locales/fr-FR"),
};

let current: Locale | undefined;
const listeners = new Set<() => void>();

/**
 * Loads antd-mobile's locale for `lang` and makes it the one {@link useAntdLocale} answers. Called on every i18n
 * language change; a failed load keeps the previous locale (antd-mobile's built-in zh-CN at first).
 */
export async function loadAntdLocale(lang: Language): Promise<void> {
  try {
    current = (await LOADERS[lang]()).default;
    for (const l of listeners) l();
  } catch (err) {
    console.warn("[i18n] antd-mobile locale not loaded", err);
  }
}

i18n.on("languageChanged", (lang) => {
  const language = mapLanguage(lang);
  if (language) void loadAntdLocale(language);
});

/** The loaded antd-mobile locale of the current language, undefined until the first one has loaded. */
export function useAntdLocale(): Locale | undefined {
  return useSyncExternalStore(
    (cb) => {
      listeners.add(cb);
      return () => listeners.delete(cb);
    },
    () => current,
    () => current,
  );
}
