import { endpoints } from "@aquapilot/contract/wire";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../../shared/api/client.ts";
import { queryKeys } from "../../../shared/api/query-keys.ts";

/** The caller's profile: `GET /api/basic-data/app/profile/` (spec §7), for the account screens. */
export function getProfile(signal?: AbortSignal) {
  return api(endpoints.getProfile, { signal });
}

/** The caller's profile as a query (the same key as the profile feature's, so both share one cache entry). */
export function useProfile() {
  return useQuery(queryOptions({ queryKey: queryKeys.profile, queryFn: ({ signal }) => getProfile(signal) }));
}
