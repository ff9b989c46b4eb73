/// <reference types="vite/client" />
import { LANGUAGES, type Language } from "@aquapilot/contract/wire";
import { areaOf } from "../shared/i18n/index.ts";
import type { LocaleTree } from "./locale-tree.ts";

/**
 * Every language's whole key tree, read eagerly — for tests and tools only (the app loads its texts per language and
 * group with `loadTexts`). Assembling throws when two files define the same top-level key.
 */
const GLOB = import.meta.glob<Record<string, unknown>>(
  ["../locales/*.json", "../shared/ui/locales/*.json", "../features/*/locales/*.json"],
  { import: "default", eager: true },
);

/** A file path as the glob here names it (relative to src/app), as the i18n module names it (src/shared/i18n). */
function asI18nPath(file: string): string {
  return file.startsWith("../shared/ui/") ? file.replace("../shared/ui/", "../ui/") : `../${file}`;
}

/** Every locale file by its path relative to src/shared/i18n, as `areaOf` and the loader expect. */
const FILES = Object.fromEntries(Object.entries(GLOB).map(([file, part]) => [asI18nPath(file), part]));

/** Joins one language's files; a top-level key defined twice is a mistake and throws. */
function assemble(lang: Language): LocaleTree {
  const tree: Record<string, unknown> = {};
  for (const [file, part] of Object.entries(FILES)) {
    if (!file.endsWith(`/${lang}.json`)) continue;
    for (const [key, value] of Object.entries(part)) {
      if (key in tree) throw new Error(`locale key "${key}" is defined in two files (${areaOf(file)})`);
      tree[key] = value;
    }
  }
  return tree as LocaleTree;
}

/** Every locale's messages, keyed by the spec's language codes (spec §1). */
export const LOCALES = Object.fromEntries(LANGUAGES.map((l) => [l, assemble(l)])) as Record<Language, LocaleTree>;

/** The locale file names (as the i18n module's glob sees them), for checks on the grouping. */
export const LOCALE_FILES = Object.keys(FILES);
