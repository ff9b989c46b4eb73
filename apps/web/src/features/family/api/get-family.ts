import type { TFamily } from "@aquapilot/contract";
import { endpoints } from "@aquapilot/contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../../shared/api/client.js";
import { familyKeys } from "./keys.js";

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
  });
}

/** One family as a query (FamilyDetails, FamilyUpdate, FamilyQrcode). */
export function useFamily(id: string | null | undefined) {
  return useQuery(getFamilyQueryOptions(id));
}
