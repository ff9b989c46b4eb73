import { LIMITS, type TPaged } from "@aquapilot/contract/wire";
import { infiniteQueryOptions, useInfiniteQuery } from "@tanstack/react-query";
import { getFamilyPage } from "../../../shared/api/families.ts";
import { nextPageSkip } from "../../../shared/ui/paged-list.tsx";
import { familyKeys } from "./keys.ts";

/**
 * Where the next page starts, or undefined when the list is finished (spec §4: loaded count reaches the total or a
 * page comes back short).
 */
export function nextSkipCount(pages: TPaged<unknown>[], pageSize: number = LIMITS.pageSize): number | undefined {
  return pages.length === 0 ? undefined : nextPageSkip(pages, pageSize);
}

/** Infinite query options of the FamilyList pages (15 a page through the one fetcher of the household list). */
export function getFamilyListQueryOptions() {
  return infiniteQueryOptions({
    queryKey: familyKeys.list,
    queryFn: ({ pageParam, signal }) => getFamilyPage(pageParam, LIMITS.pageSize, signal),
    initialPageParam: 0,
    getNextPageParam: (_last, pages) => nextSkipCount(pages),
    // Members, roles and counts change on other phones: always load afresh when a screen opens.
    refetchOnMount: "always",
  });
}

/** The caller's families, page by page (FamilyList: pull-down refresh, load more on scroll). */
export function useFamilyList() {
  return useInfiniteQuery(getFamilyListQueryOptions());
}
