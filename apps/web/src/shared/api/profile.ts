import { endpoints } from "@aquapilot/contract/wire";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "./client.ts";
import type { QueryConfig } from "./query-config.ts";
import { queryKeys } from "./query-keys.ts";

/**
 * The caller's profile: `GET /api/basic-data/app/profile/` (spec §7). The one fetcher of it: the account and profile
 * screens share its cache entry.
 */
export function getProfile(signal?: AbortSignal) {
  return api(endpoints.getProfile, { signal });
}

/** Query options of {@link getProfile}. */
export function getProfileQueryOptions() {
  return queryOptions({ queryKey: queryKeys.profile, queryFn: ({ signal }) => getProfile(signal) });
}

/** The caller's profile as a query; `queryConfig` adds per-use options ({@link QueryConfig}). */
export function useProfile(queryConfig?: QueryConfig<typeof getProfileQueryOptions>) {
  return useQuery({ ...getProfileQueryOptions(), ...queryConfig });
}
