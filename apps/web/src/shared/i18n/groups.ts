/**
 * How the app's texts are grouped for loading, as plain data: the i18n module loads them by these groups,
 * and the first-screen size budget (scripts/size-budget.ts) counts the same files.
 */

/**
 * The area a locale file belongs to, from its path relative to src/shared/i18n (as `import.meta.glob` names it):
 * "app" for src/locales, "ui" for shared/ui, else the feature's folder name.
 */
export function areaOf(file: string): string {
  if (file.startsWith("../../locales/")) return "app";
  if (file.startsWith("../ui/")) return "ui";
  return file.split("/")[3];
}

/**
 * Texts load in groups of areas, so the first screen downloads only what it shows: `start` is app-wide
 * (errors, common words, Login, the tabs' names) with the shared components' (text fields, pickers, lists, which any
 * first screen may show); `account` adds the account screens (Register, find password, country, profile, the update
 * dialog) and the map; `home` adds what the tabs (Home, My) show;
 * `device` adds the Device screen and its fault reasons (a first screen too: a push or a link opens it); `rest` holds
 * the other screens. locales.test.ts checks that every area is
 * in exactly one group and that Login and Home use only keys of their groups.
 */
export const TEXT_GROUPS = {
  start: ["app", "ui"],
  account: ["account"],
  home: ["home", "family", "message", "device-settings"],
  device: ["device", "fault"],
  rest: ["after-sale", "article", "network-setup"],
} as const satisfies Record<string, readonly string[]>;

/** A group of {@link TEXT_GROUPS}. */
export type TextGroup = keyof typeof TEXT_GROUPS;

/** Every group: what a screen that declares none waits for. */
export const ALL_TEXT_GROUPS = Object.keys(TEXT_GROUPS) as TextGroup[];

/** The locale file of an area in a language, relative to apps/web (a key of Vite's manifest). */
export function localeFile(area: string, lang: string): string {
  if (area === "app") return `src/locales/${lang}.json`;
  if (area === "ui") return `src/shared/ui/locales/${lang}.json`;
  return `src/features/${area}/locales/${lang}.json`;
}
