import { endpoints, LIMITS, type TFamilyShare, type TPaged } from "@aquapilot/contract/wire";
import { infiniteQueryOptions, useInfiniteQuery } from "@tanstack/react-query";
import { api } from "../../../shared/api/client.ts";
import { asPage } from "../../../shared/api/page.ts";
import { nextSkipCount } from "./get-family-list.ts";
import { familyKeys } from "./keys.ts";

/** One page of the caller's share codes, newest first: `GET …/family-user/my-share-list` (page size 15 of §9). */
export async function getMyFamilySharePage(skipCount: number, signal?: AbortSignal): Promise<TPaged<TFamilyShare>> {
  const result = await api(endpoints.getMyShares, { query: { skipCount, maxResultCount: LIMITS.pageSize }, signal });
  return asPage<TFamilyShare>(result);
}

/** The caller's shares, page by page (FamilyShareList). */
export function useMyFamilyShares() {
  return useInfiniteQuery(
    infiniteQueryOptions({
      queryKey: familyKeys.shares,
      queryFn: ({ pageParam, signal }) => getMyFamilySharePage(pageParam, signal),
      initialPageParam: 0,
      getNextPageParam: (_last, pages) => nextSkipCount(pages),
      // Members, roles and counts change on other phones: always load afresh when a screen opens.
      refetchOnMount: "always",
    }),
  );
}
