/// <reference types="vite/client" />
import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from "@aquapilot/contract/wire";
import i18next from "i18next";
import { initReactI18next } from "react-i18next";
import { getItem, setItem } from "../storage/index.ts";
import { ALL_TEXT_GROUPS, areaOf, TEXT_GROUPS, type TextGroup } from "./groups.ts";

export { areaOf, TEXT_GROUPS, type TextGroup } from "./groups.ts";

/** One locale file's content: some top-level keys of {@link LocaleTree}. */
type LocalePart = Record<string, unknown>;

/** Every locale file, each its own lazily loaded chunk (a phone downloads only its language). */
const FILES = import.meta.glob<LocalePart>(
  ["../../locales/*.json", "../ui/locales/*.json", "../../features/*/locales/*.json"],
  { import: "default" },
);

/** The app's i18next instance; `t()` accepts only keys of {@link LocaleTree}. Texts are added by {@link loadTexts}. */
export const i18n = i18next.createInstance();

void i18n.use(initReactI18next).init({
  lng: DEFAULT_LANGUAGE,
  fallbackLng: DEFAULT_LANGUAGE,
  supportedLngs: [...LANGUAGES],
  resources: {},
  partialBundledLanguages: true,
  interpolation: { escapeValue: false },
  // The defaults, named: i18next then takes every key as an object path at once, instead of testing each `t()`'s key
  // with regular expressions for natural-language keys (up to 6 ms of a Device section's first render on a
  // slow phone). No key of the app holds a ":" (locales.test.ts).
  keySeparator: ".",
  nsSeparator: ":",
  returnNull: false,
  initAsync: false,
  react: { bindI18nStore: false },
});

const loaded = new Map<string, Promise<void>>();
/** `lang/group` ids whose texts are in {@link i18n}. */
const settled = new Set<string>();
/** Groups some screen asked for: a language switch loads these in the new language before switching. */
const wanted = new Set<TextGroup>();

function loadGroup(lang: Language, group: TextGroup): Promise<void> {
  const id = `${lang}/${group}`;
  let done = loaded.get(id);
  if (!done) {
    const areas: readonly string[] = TEXT_GROUPS[group];
    const files = Object.keys(FILES).filter((f) => f.endsWith(`/${lang}.json`) && areas.includes(areaOf(f)));
    done = Promise.all(files.map((f) => FILES[f]())).then(
      (parts) => {
        for (const part of parts) i18n.addResourceBundle(lang, "translation", part, true, true);
        settled.add(id);
      },
      (err: unknown) => {
        loaded.delete(id);
        throw err;
      },
    );
    loaded.set(id, done);
  }
  return done;
}

/**
 * Loads the texts of `groups` in `lang` (each file once) and adds them to {@link i18n}. Resolves when they
 * are in; rejects when a chunk cannot be loaded (the next call tries again). Screens wait for their groups in the
 * route's lazy loader (app/router.tsx), so no key is ever shown raw.
 */
export async function loadTexts(lang: Language, groups: readonly TextGroup[] = ALL_TEXT_GROUPS): Promise<void> {
  for (const g of groups) wanted.add(g);
  await Promise.all(groups.map((g) => loadGroup(lang, g)));
}

/** Whether the texts of `groups` in `lang` are already in {@link i18n} (a screen can show at once, without waiting). */
export function textsLoaded(lang: Language, groups: readonly TextGroup[] = ALL_TEXT_GROUPS): boolean {
  return groups.every((g) => settled.has(`${lang}/${g}`));
}

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

/** The language {@link changeLanguage} is switching to while its texts load; null once they are in (or failed). */
let switchingTo: Language | null = null;

/**
 * The language the server should answer in (`Accept-Language`, spec §7): the one being switched to while its texts
 * still load, else the current one. So the first screen's calls can leave at start-up beside the texts and still be
 * answered in the user's language.
 */
export function requestLanguage(): Language {
  return switchingTo ?? currentLanguage();
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

/**
 * Switches the interface language and stores it under `lang` (spec §1); first loads, in the new language, the text
 * groups loaded so far (at least `start`).
 */
export async function changeLanguage(lang: Language): Promise<void> {
  setItem("lang", lang);
  switchingTo = lang;
  try {
    await loadTexts(lang, ["start", ...wanted]);
    await i18n.changeLanguage(lang);
  } finally {
    if (switchingTo === lang) switchingTo = null;
  }
  document.documentElement.lang = lang;
}
