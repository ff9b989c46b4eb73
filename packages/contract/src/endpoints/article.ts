import { z } from "zod";
import { paged, ZPagedQuery } from "../envelope.ts";
import { OPEN } from "./access.ts";
import { endpoint, ZId, ZIsoTime, ZText } from "./define.ts";

// Help articles (spec §7 /api/business-basic-data/app/article; screen Article, open without a token).

/**
 * A help article in the caller's language (Accept-Language; zh-Hans when the article has no version in it).
 * `content` is Markdown (CommonMark; no raw HTML). Categories: "help" (owner help), "policy" (privacy policy,
 * user agreement).
 */
export const ZArticle = z.object({
  id: z.string(),
  title: z.string(),
  summary: z.string(),
  content: z.string(),
  category: z.enum(["help", "policy"]),
  /** The language of the text served (may differ from the caller's when it fell back). */
  language: z.string(),
  sort: z.number().int(),
  lastModificationTime: ZIsoTime,
});
export type TArticle = z.infer<typeof ZArticle>;

/** A list entry: everything but the content. */
export const ZArticleSummary = ZArticle.omit({ content: true });
export type TArticleSummary = z.infer<typeof ZArticleSummary>;

export const articleEndpoints = {
  getArticle: endpoint({
    method: "GET",
    access: OPEN,
    path: "/api/business-basic-data/app/article/{id}",
    query: z.object({}),
    params: z.object({ id: ZId }),
    body: undefined,
    result: ZArticle,
    summary: "One article in the caller's language",
  }),
  getArticleList: endpoint({
    method: "GET",
    access: OPEN,
    path: "/api/business-basic-data/app/article/get-list",
    query: ZPagedQuery.extend({
      keyword: ZText(64, { trim: true }).optional(),
      category: z.enum(["help", "policy"]).optional(),
    }),
    body: undefined,
    result: paged(ZArticleSummary),
    summary: "Articles in the caller's language, paged; keyword searches title, summary and content",
  }),
} as const;
