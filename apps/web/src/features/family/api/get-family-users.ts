import { endpoints, type TFamilyUser } from "@aquapilot/contract/wire";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../../shared/api/client.ts";
import { asPage } from "../../../shared/api/page.ts";
import type { QueryConfig } from "../../../shared/api/query-config.ts";
import { familyKeys } from "./keys.ts";

/**
 * Members of a family, the administrator first, then by join time: `GET …/family-user/get-list-by-family-id`
 * (spec §7 Q). A page or a bare array; sorted here too so the order holds whatever the server sends.
 */
export async function getFamilyUsers(familyId: string, signal?: AbortSignal): Promise<TFamilyUser[]> {
  const result = await api(endpoints.getFamilyUsers, { query: { familyId }, signal });
  return [...asPage<TFamilyUser>(result).items].sort(
    (a, b) => Number(b.isAdmin) - Number(a.isAdmin) || a.joinTime.localeCompare(b.joinTime),
  );
}

/** Query options of {@link getFamilyUsers}. */
export function getFamilyUsersQueryOptions(familyId: string | null | undefined) {
  return queryOptions({
    queryKey: familyKeys.users(familyId ?? ""),
    queryFn: ({ signal }) => getFamilyUsers(familyId ?? "", signal),
    enabled: Boolean(familyId),
    // Members, roles and counts change on other phones: always load afresh when a screen opens.
    refetchOnMount: "always",
  });
}

/**
 * A family's members as a query (FamilyUserList, FamilyUserDetails);
 * `queryConfig` adds per-use options ({@link QueryConfig}).
 */
export function useFamilyUsers(
  familyId: string | null | undefined,
  queryConfig?: QueryConfig<typeof getFamilyUsersQueryOptions>,
) {
  return useQuery({ ...getFamilyUsersQueryOptions(familyId), ...queryConfig });
}
