import type { TFamily } from "@aquapilot/contract/wire";
import { endpoints } from "@aquapilot/contract/wire";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../../shared/api/client.ts";
import type { QueryConfig } from "../../../shared/api/query-config.ts";
import { familyKeys } from "./keys.ts";

/** One family the caller belongs to: `GET /api/run-lucky/device/app/family/{id}` (spec §7). */
export function getFamily(id: string, signal?: AbortSignal): Promise<TFamily> {
  return api(endpoints.getFamily, { params: { id }, signal });
}

/** Query options of {@link getFamily} (disabled without an id). */
export function getFamilyQueryOptions(id: string | null | undefined) {
  return queryOptions({
    queryKey: familyKeys.detail(id ?? ""),
    queryFn: ({ signal }) => getFamily(id ?? "", signal),
    enabled: Boolean(id),
    // Members, roles and counts change on other phones: always load afresh when a screen opens.
    refetchOnMount: "always",
    // The screens show a gone family (403/404) or a failure in the page itself.
    meta: { silent: true },
  });
}

/**
 * One family as a query (FamilyDetails, FamilyUpdate, FamilyQrcode);
 * `queryConfig` adds per-use options ({@link QueryConfig}).
 */
export function useFamily(id: string | null | undefined, queryConfig?: QueryConfig<typeof getFamilyQueryOptions>) {
  return useQuery({ ...getFamilyQueryOptions(id), ...queryConfig });
}
