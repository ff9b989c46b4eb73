import type { Language } from "@aquapilot/contract";

/**
 * A module's own part of the catalogue: English is the source, every other language has exactly its keys (the type
 * checks it). Modules that own texts keep them in `modules/<area>/messages.ts` and are listed in {@link MESSAGES}.
 */
export function catalogue<K extends string>(
  source: Record<K, string>,
  others: Record<Exclude<Language, "en">, Record<K, string>>,
): Record<Language, Record<K, string>> {
  return { en: source, ...others };
}
