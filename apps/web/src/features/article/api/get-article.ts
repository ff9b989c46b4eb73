import { endpoints, type TArticle } from "@aquapilot/contract/wire";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../../shared/api/client.ts";
import type { QueryConfig } from "../../../shared/api/query-config.ts";
import { currentLanguage } from "../../../shared/i18n/index.ts";
import { articleKeys } from "./keys.ts";

/**
 * One article in the interface language (Accept-Language; the server falls back to zh-Hans):
 * `GET /api/business-basic-data/app/article/{id}`, open without a token. Errors: ApiError (404 unknown id).
 */
export function getArticle(id: string, signal?: AbortSignal): Promise<TArticle> {
  return api(endpoints.getArticle, { params: { id }, signal });
}

/**
 * Query options of the Article screen's article in `language`; the key carries the language so a language switch
 * loads the translation. Silent: the screen shows a failure itself.
 */
export function getArticleQueryOptions(id: string | undefined, language: string) {
  return queryOptions({
    queryKey: articleKeys.detail(id ?? "", language),
    queryFn: ({ signal }) => getArticle(id ?? "", signal),
    enabled: Boolean(id),
    meta: { silent: true },
  });
}

/**
 * The article in the interface language as a query; `queryConfig` adds per-use options ({@link QueryConfig}).
 */
export function useArticle(id: string | undefined, queryConfig?: QueryConfig<typeof getArticleQueryOptions>) {
  return useQuery({ ...getArticleQueryOptions(id, currentLanguage()), ...queryConfig });
}
