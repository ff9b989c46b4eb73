import { endpoints, type TArticleSummary } from "@aquapilot/contract/wire";
import { api } from "../../../shared/api/client.ts";
import type { PageAnswer, PageRequest } from "../../../shared/ui/paged-list.tsx";

/**
 * One page of help articles (category "help") in the interface language: `GET
 * /api/business-basic-data/app/article/get-list?skipCount=&maxResultCount=&keyword=&category=help` (spec §7 paged
 * list with keyword; open without a token). A blank keyword is left out.
 */
export function getHelpArticlePage(
  keyword: string,
  page: PageRequest,
  signal?: AbortSignal,
): Promise<PageAnswer<TArticleSummary>> {
  const trimmed = keyword.trim().slice(0, 64);
  return api(endpoints.getArticleList, {
    query: { ...page, category: "help", ...(trimmed ? { keyword: trimmed } : {}) },
    signal,
  });
}
