/** Query keys of the help screens; every key starts with the API group "article" (spec §7). */
export const articleKeys = {
  all: ["article"] as const,
  /** The help list for a keyword ("" = all). */
  list: (keyword: string) => ["article", "list", keyword] as const,
  /** `GET …/article/{id}` in the current language. */
  detail: (id: string, language: string) => ["article", "detail", id, language] as const,
};
