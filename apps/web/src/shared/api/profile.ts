import { endpoints } from "@aquapilot/contract/wire";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "./client.ts";
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

/** The caller's profile as a query. */
export function useProfile() {
  return useQuery(getProfileQueryOptions());
}
