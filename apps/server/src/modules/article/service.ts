import {
  DEFAULT_LANGUAGE,
  type Language,
  type TArticle,
  type TArticleSummary,
  type TPaged,
  type TPagedQuery,
} from "@aquapilot/contract";
import { sql } from "kysely";
import type { Db } from "../../db/index.ts";
import { AppError, ErrorCode } from "../../http/errors.ts";
import { paged } from "../../http/paging.ts";
import { searchable } from "./seed.ts";

type Row = {
  id: string;
  language: string;
  category: string;
  sort: number;
  title: string;
  summary: string;
  last_modification_time: string;
};

function toSummary(r: Row): TArticleSummary {
  return {
    id: r.id,
    title: r.title,
    summary: r.summary,
    category: r.category === "policy" ? "policy" : "help",
    language: r.language,
    sort: Number(r.sort),
    lastModificationTime: r.last_modification_time,
  };
}

/**
 * One article in `lang` (spec §7 article GET /{id}): the version in the caller's language, else the zh-Hans
 * one (spec §1 default and fallback); `language` says which was served. Open to anonymous callers.
 * @throws AppError NotFound (article.notFound) when the article has neither version.
 */
export async function getArticle(db: Db, id: string, lang: Language): Promise<TArticle> {
  const rows = await db
    .selectFrom("articles")
    .select(["id", "language", "category", "sort", "title", "summary", "content", "last_modification_time"])
    .where("id", "=", id)
    .where("language", "in", [lang, DEFAULT_LANGUAGE])
    .execute();
  const row = rows.find((r) => r.language === lang) ?? rows.find((r) => r.language === DEFAULT_LANGUAGE);
  if (!row) throw new AppError(ErrorCode.NotFound, "article.notFound");
  return { ...toSummary(row), content: row.content };
}

/** `%keyword%` for LIKE with `\`, `%` and `_` escaped (ESCAPE '\'). */
function likePattern(keyword: string): string {
  return `%${keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * Articles in `lang`, one entry per article (its `lang` version, else zh-Hans), sorted by `sort` then id, paged
 * `{items, totalCount}` (spec §7 article GET /get-list, §3 paged list). `keyword` (trimmed) keeps articles whose
 * served version's title, summary or content contains it, case-insensitively — the same `search_text LIKE ?` on
 * SQLite and PostgreSQL over text lower-cased in JavaScript ({@link searchable}). `category` filters help / policy.
 * Open to anonymous callers.
 */
export async function listArticles(
  db: Db,
  lang: Language,
  query: Partial<TPagedQuery> & { keyword?: string; category?: "help" | "policy" },
): Promise<TPaged<TArticleSummary>> {
  const keyword = query.keyword ? searchable(query.keyword) : "";
  const base = () => {
    let q = db
      .selectFrom("articles as a")
      .where((eb) =>
        eb.or([
          eb("a.language", "=", lang),
          eb.and([
            eb("a.language", "=", DEFAULT_LANGUAGE),
            eb.not(
              eb.exists(
                eb
                  .selectFrom("articles as b")
                  .select("b.id")
                  .whereRef("b.id", "=", "a.id")
                  .where("b.language", "=", lang),
              ),
            ),
          ]),
        ]),
      );
    if (query.category) q = q.where("a.category", "=", query.category);
    if (keyword) q = q.where(sql<boolean>`a.search_text like ${likePattern(keyword)} escape '\\'`);
    return q;
  };
  return paged(
    query,
    async () =>
      Number(
        (
          await base()
            .select((eb) => eb.fn.countAll<number>().as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      ),
    async (offset, limit) => {
      const rows = await base()
        .select(["a.id", "a.language", "a.category", "a.sort", "a.title", "a.summary", "a.last_modification_time"])
        .orderBy("a.sort")
        .orderBy("a.id")
        .offset(offset)
        .limit(limit)
        .execute();
      return rows.map(toSummary);
    },
  );
}
