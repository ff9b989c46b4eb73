/**
 * Table types of the article module (joined into {@link import("./schema.ts").Database}); migration 0007.
 * Conventions of schema.ts: text ids, ISO 8601 UTC text times.
 */

/** One language version of a help article (spec §7 article); primary key (id, language). */
export interface ArticlesTable {
  /** Stable slug, e.g. "salt" or "privacy-policy" (the same in every language). */
  id: string;
  /** zh-Hans | en | es | ru | fr */
  language: string;
  /** help | policy */
  category: string;
  /** Ascending list order. */
  sort: number;
  title: string;
  summary: string;
  /** Markdown (CommonMark, no raw HTML). */
  content: string;
  /** Lower-cased title, summary and content for keyword search (the same LIKE on both engines). */
  search_text: string;
  /** SHA-256 of what was seeded, so an unchanged seed does not move last_modification_time. */
  content_hash: string;
  last_modification_time: string;
}

/** The tables of this part of the schema. */
export interface ArticleTables {
  articles: ArticlesTable;
}
