import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from "@aquapilot/contract/wire";
import i18next from "i18next";
import { initReactI18next } from "react-i18next";
import accountEn from "../../features/account/locales/en.json";
import accountEs from "../../features/account/locales/es.json";
import accountFr from "../../features/account/locales/fr.json";
import accountRu from "../../features/account/locales/ru.json";
import accountZhHans from "../../features/account/locales/zh-Hans.json";
import afterSaleEn from "../../features/after-sale/locales/en.json";
import afterSaleEs from "../../features/after-sale/locales/es.json";
import afterSaleFr from "../../features/after-sale/locales/fr.json";
import afterSaleRu from "../../features/after-sale/locales/ru.json";
import afterSaleZhHans from "../../features/after-sale/locales/zh-Hans.json";
import articleEn from "../../features/article/locales/en.json";
import articleEs from "../../features/article/locales/es.json";
import articleFr from "../../features/article/locales/fr.json";
import articleRu from "../../features/article/locales/ru.json";
import articleZhHans from "../../features/article/locales/zh-Hans.json";
import deviceEn from "../../features/device/locales/en.json";
import deviceEs from "../../features/device/locales/es.json";
import deviceFr from "../../features/device/locales/fr.json";
import deviceRu from "../../features/device/locales/ru.json";
import deviceZhHans from "../../features/device/locales/zh-Hans.json";
import deviceSettingsEn from "../../features/device-settings/locales/en.json";
import deviceSettingsEs from "../../features/device-settings/locales/es.json";
import deviceSettingsFr from "../../features/device-settings/locales/fr.json";
import deviceSettingsRu from "../../features/device-settings/locales/ru.json";
import deviceSettingsZhHans from "../../features/device-settings/locales/zh-Hans.json";
import familyEn from "../../features/family/locales/en.json";
import familyEs from "../../features/family/locales/es.json";
import familyFr from "../../features/family/locales/fr.json";
import familyRu from "../../features/family/locales/ru.json";
import familyZhHans from "../../features/family/locales/zh-Hans.json";
import faultEn from "../../features/fault/locales/en.json";
import faultEs from "../../features/fault/locales/es.json";
import faultFr from "../../features/fault/locales/fr.json";
import faultRu from "../../features/fault/locales/ru.json";
import faultZhHans from "../../features/fault/locales/zh-Hans.json";
import homeEn from "../../features/home/locales/en.json";
import homeEs from "../../features/home/locales/es.json";
import homeFr from "../../features/home/locales/fr.json";
import homeRu from "../../features/home/locales/ru.json";
import homeZhHans from "../../features/home/locales/zh-Hans.json";
import messageEn from "../../features/message/locales/en.json";
import messageEs from "../../features/message/locales/es.json";
import messageFr from "../../features/message/locales/fr.json";
import messageRu from "../../features/message/locales/ru.json";
import messageZhHans from "../../features/message/locales/zh-Hans.json";
import networkSetupEn from "../../features/network-setup/locales/en.json";
import networkSetupEs from "../../features/network-setup/locales/es.json";
import networkSetupFr from "../../features/network-setup/locales/fr.json";
import networkSetupRu from "../../features/network-setup/locales/ru.json";
import networkSetupZhHans from "../../features/network-setup/locales/zh-Hans.json";
import baseEn from "../../locales/en.json";
import baseEs from "../../locales/es.json";
import baseFr from "../../locales/fr.json";
import baseRu from "../../locales/ru.json";
import baseZhHans from "../../locales/zh-Hans.json";
import { getItem, setItem } from "../storage/index.js";
import uiEn from "../ui/locales/en.json";
import uiEs from "../ui/locales/es.json";
import uiFr from "../ui/locales/fr.json";
import uiRu from "../ui/locales/ru.json";
import uiZhHans from "../ui/locales/zh-Hans.json";

/**
 * The one key tree every locale follows (zh-Hans is the source; spec §1). It is assembled from the app-wide file
 * `src/locales/<lang>.json` and the files of areas that own their texts (`<area>/locales/<lang>.json`); each area
 * file holds its own top-level keys, so areas never edit each other's files. Top-level keys must not collide.
 */
export type LocaleTree = typeof baseZhHans &
  typeof accountZhHans &
  typeof familyZhHans &
  typeof uiZhHans &
  typeof deviceZhHans &
  typeof deviceSettingsZhHans &
  typeof messageZhHans &
  typeof afterSaleZhHans &
  typeof articleZhHans &
  typeof homeZhHans &
  typeof networkSetupZhHans &
  typeof faultZhHans;

/** Joins the parts of one language's tree; a top-level key defined twice is a mistake and throws at start-up. */
function assemble(...parts: object[]): LocaleTree {
  const tree: Record<string, unknown> = {};
  for (const part of parts) {
    for (const [key, value] of Object.entries(part)) {
      if (key in tree) throw new Error(`locale key "${key}" is defined in two files`);
      tree[key] = value;
    }
  }
  return tree as LocaleTree;
}

declare module "i18next" {
  interface CustomTypeOptions {
    defaultNS: "translation";
    resources: { translation: LocaleTree };
  }
}

/** Every locale's messages, keyed by the spec's language codes (spec §1). */
export const LOCALES: Record<Language, LocaleTree> = {
  "zh-Hans": assemble(
    baseZhHans,
    accountZhHans,
    familyZhHans,
    uiZhHans,
    deviceZhHans,
    deviceSettingsZhHans,
    messageZhHans,
    afterSaleZhHans,
    articleZhHans,
    homeZhHans,
    networkSetupZhHans,
    faultZhHans,
  ),
  en: assemble(
    baseEn,
    accountEn,
    familyEn,
    uiEn,
    deviceEn,
    deviceSettingsEn,
    messageEn,
    afterSaleEn,
    articleEn,
    homeEn,
    networkSetupEn,
    faultEn,
  ),
  es: assemble(
    baseEs,
    accountEs,
    familyEs,
    uiEs,
    deviceEs,
    deviceSettingsEs,
    messageEs,
    afterSaleEs,
    articleEs,
    homeEs,
    networkSetupEs,
    faultEs,
  ),
  ru: assemble(
    baseRu,
    accountRu,
    familyRu,
    uiRu,
    deviceRu,
    deviceSettingsRu,
    messageRu,
    afterSaleRu,
    articleRu,
    homeRu,
    networkSetupRu,
    faultRu,
  ),
  fr: assemble(
    baseFr,
    accountFr,
    familyFr,
    uiFr,
    deviceFr,
    deviceSettingsFr,
    messageFr,
    afterSaleFr,
    articleFr,
    homeFr,
    networkSetupFr,
    faultFr,
  ),
};

/** The app's i18next instance; `t()` accepts only keys of {@link LocaleTree}. */
export const i18n = i18next.createInstance();

void i18n.use(initReactI18next).init({
  lng: DEFAULT_LANGUAGE,
  fallbackLng: DEFAULT_LANGUAGE,
  supportedLngs: [...LANGUAGES],
  resources: Object.fromEntries(LANGUAGES.map((l) => [l, { translation: LOCALES[l] }])),
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
});

/**
 * Maps a language tag from the native app or the browser to one of the five (spec §4: zh → zh-Hans; en, es, ru, fr).
 * Returns null for anything else.
 */
export function mapLanguage(tag: string | null | undefined): Language | null {
  if (!tag) return null;
  const lower = tag.trim().toLowerCase().replace("_", "-");
  if (lower.startsWith("zh")) return "zh-Hans";
  const base = lower.split("-")[0];
  return (LANGUAGES as readonly string[]).includes(base) ? (base as Language) : null;
}

/** The current interface language (one of spec §1's five). */
export function currentLanguage(): Language {
  return mapLanguage(i18n.language) ?? DEFAULT_LANGUAGE;
}

/**
 * Chooses the start-up language (spec §4): the stored `lang` wins; otherwise the native app's language
 * (zh → zh-Hans) is stored and `reload` is true — the page reloads only when none was stored. Without a stored value
 * or a native language the default zh-Hans is used and stored without a reload.
 */
export function resolveStartupLanguage(nativeLanguage: string | null): { lang: Language; reload: boolean } {
  const stored = getItem("lang");
  if (stored) return { lang: stored, reload: false };
  const native = mapLanguage(nativeLanguage);
  const lang = native ?? DEFAULT_LANGUAGE;
  setItem("lang", lang);
  return { lang, reload: native !== null };
}

/** Switches the interface language and stores it under `lang` (spec §1). */
export async function changeLanguage(lang: Language): Promise<void> {
  setItem("lang", lang);
  await i18n.changeLanguage(lang);
  document.documentElement.lang = lang;
}
