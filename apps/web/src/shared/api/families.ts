import { endpoints, type TFamily, type TPaged } from "@aquapilot/contract/wire";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "./client.ts";
import { asPage } from "./page.ts";
import { refetchOnMountUnlessPrefetched } from "./query-client.ts";
import type { QueryConfig } from "./query-config.ts";
import { queryKeys } from "./query-keys.ts";

/** How many households one call loads (a user belongs to a handful; the FamilyList screen pages its own list). */
const FAMILY_PAGE = 100;

/**
 * One page of the caller's households: `GET /api/run-lucky/device/app/family/?skipCount=&maxResultCount=` (spec §7;
 * a bare-array answer counts as the whole list). The one fetcher of the endpoint: {@link getFamilies} (Home, network
 * setup, device settings, after-sales) and FamilyList's pages read it. Errors: ApiError from the client.
 */
export async function getFamilyPage(
  skipCount: number,
  maxResultCount: number,
  signal?: AbortSignal,
): Promise<TPaged<TFamily>> {
  const result = await api(endpoints.getFamilies, { query: { skipCount, maxResultCount }, signal });
  return asPage<TFamily>(result);
}

/** The caller's households: the first {@link FAMILY_PAGE} of {@link getFamilyPage} (spec §7). Errors: ApiError. */
export async function getFamilies(signal?: AbortSignal): Promise<TFamily[]> {
  return (await getFamilyPage(0, FAMILY_PAGE, signal)).items;
}

/**
 * Query options of {@link getFamilies}. Loaded afresh whenever the home tab mounts (unless the start-up prefetch just
 * loaded it) or the window regains focus, so a household the user was removed from (or that was deleted) disappears
 * at once and the tab falls back (spec §6).
 */
export function getFamiliesQueryOptions() {
  return queryOptions({
    queryKey: queryKeys.families,
    queryFn: ({ signal }) => getFamilies(signal),
    refetchOnMount: refetchOnMountUnlessPrefetched,
    refetchOnWindowFocus: true,
  });
}

/**
 * The caller's families as a query: Home's switcher, and where a device is bound, named or sorted (network setup,
 * device settings). `queryConfig` adds per-use options ({@link QueryConfig}).
 */
export function useFamilies(queryConfig?: QueryConfig<typeof getFamiliesQueryOptions>) {
  return useQuery({ ...getFamiliesQueryOptions(), ...queryConfig });
}
