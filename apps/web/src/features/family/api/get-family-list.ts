import { endpoints, LIMITS, type TFamily, type TPaged } from "@aquapilot/contract/wire";
import { infiniteQueryOptions, useInfiniteQuery } from "@tanstack/react-query";
import { api, asPage } from "../../../shared/api/client.ts";
import { nextPageSkip } from "../../../shared/ui/paged-list.tsx";
import { familyKeys } from "./keys.ts";

/**
 * One page of the caller's families: `GET /api/run-lucky/device/app/family/?skipCount=&maxResultCount=` (spec §7;
 * page size 15 of §9). A bare-array answer counts as the whole list.
 */
export async function getFamilyPage(skipCount: number, signal?: AbortSignal): Promise<TPaged<TFamily>> {
  const result = await api(endpoints.getFamilies, {
    query: { skipCount, maxResultCount: LIMITS.pageSize },
    signal,
  });
  return asPage<TFamily>(result);
}

/**
 * Where the next page starts, or undefined when the list is finished (spec §4: loaded count reaches the total or a
 * page comes back short).
 */
export function nextSkipCount(pages: TPaged<unknown>[], pageSize: number = LIMITS.pageSize): number | undefined {
  return pages.length === 0 ? undefined : nextPageSkip(pages, pageSize);
}

/** Infinite query options of the FamilyList pages. */
export function getFamilyListQueryOptions() {
  return infiniteQueryOptions({
    queryKey: familyKeys.list,
    queryFn: ({ pageParam, signal }) => getFamilyPage(pageParam, signal),
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
