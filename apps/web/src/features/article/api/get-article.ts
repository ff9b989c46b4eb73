import { endpoints, type TArticle } from "@aquapilot/contract/wire";
import { useQuery } from "@tanstack/react-query";
import { api } from "../../../shared/api/client.ts";
import { currentLanguage } from "../../../shared/i18n/index.ts";
import { articleKeys } from "./keys.ts";

/**
 * One article in the interface language (Accept-Language; the server falls back to zh-Hans):
 * `GET /api/business-basic-data/app/article/{id}`, open without a token. Errors: ApiError (404 unknown id).
 */
export function getArticle(id: string, signal?: AbortSignal): Promise<TArticle> {
  return api(endpoints.getArticle, { params: { id }, signal });
}

/** The Article screen's article; the key carries the language so a language switch loads the translation. */
export function useArticle(id: string | undefined) {
  const language = currentLanguage();
  return useQuery({
    queryKey: articleKeys.detail(id ?? "", language),
    queryFn: ({ signal }) => getArticle(id ?? "", signal),
    enabled: Boolean(id),
    meta: { silent: true },
  });
}
