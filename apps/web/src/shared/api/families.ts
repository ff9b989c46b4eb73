import { endpoints, type TFamily } from "@aquapilot/contract/wire";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, asPage } from "./client.ts";
import { refetchOnMountUnlessPrefetched } from "./query-client.ts";
import { queryKeys } from "./query-keys.ts";

/** How many households one call loads (a user belongs to a handful; the FamilyList screen pages its own list). */
const FAMILY_PAGE = 100;

/**
 * The caller's households: `GET /api/run-lucky/device/app/family/` (spec §7; a page or a bare array). The one fetcher
 * of the whole list (Home, network setup, device settings, after-sales); FamilyList pages the same call itself.
 */
export async function getFamilies(signal?: AbortSignal): Promise<TFamily[]> {
  const result = await api(endpoints.getFamilies, {
    query: { skipCount: 0, maxResultCount: FAMILY_PAGE },
    signal,
  });
  return asPage<TFamily>(result).items;
}

/**
 * Query options of {@link getFamilies}. Loaded afresh whenever the home tab mounts (unless the start-up prefetch just
 * loaded it) or the window regains focus, so a
 * household the user was removed from (or that was deleted) disappears at once and the tab falls back (spec §6).
 */
export function getFamiliesQueryOptions() {
  return queryOptions({
    queryKey: queryKeys.families,
    queryFn: ({ signal }) => getFamilies(signal),
    refetchOnMount: refetchOnMountUnlessPrefetched,
    refetchOnWindowFocus: true,
  });
}

/** The caller's families as a query. */
export function useFamilies() {
  return useQuery(getFamiliesQueryOptions());
}
