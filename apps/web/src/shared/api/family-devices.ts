import { endpoints, type TFamilyDevice } from "@aquapilot/contract/wire";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "./client.ts";
import { asPage } from "./page.ts";
import { refetchOnMountUnlessPrefetched } from "./query-client.ts";
import type { QueryConfig } from "./query-config.ts";
import { queryKeys } from "./query-keys.ts";

/**
 * Devices of a family in sort order: `GET …/family-device/get-list-by-family-id?familyId=` (spec §7).
 * Errors: ApiError from the client (404 when the caller is not a member: the household looks absent).
 */
export async function getFamilyDevices(familyId: string, signal?: AbortSignal): Promise<TFamilyDevice[]> {
  const result = await api(endpoints.getFamilyDevices, { query: { familyId }, signal });
  return [...asPage<TFamilyDevice>(result).items].sort((a, b) => a.sort - b.sort);
}

/** Query options of {@link getFamilyDevices}; the key is shared with the hub-1 cache patcher (useDeviceChanges). */
export function getFamilyDevicesQueryOptions(familyId: string | null | undefined) {
  return queryOptions({
    queryKey: queryKeys.familyDevices(familyId ?? ""),
    queryFn: ({ signal }) => getFamilyDevices(familyId ?? "", signal),
    enabled: Boolean(familyId),
    // Opening the home tab asks again (unless the start-up prefetch just did): devices bound, removed or re-sorted
    // elsewhere show at once.
    refetchOnMount: refetchOnMountUnlessPrefetched,
  });
}

/**
 * A family's devices as a query (kept live by useDeviceChanges): Home's list and DeviceSort's. `queryConfig` adds
 * per-use options ({@link QueryConfig}).
 */
export function useFamilyDevices(
  familyId: string | null | undefined,
  queryConfig?: QueryConfig<typeof getFamilyDevicesQueryOptions>,
) {
  return useQuery({ ...getFamilyDevicesQueryOptions(familyId), ...queryConfig });
}
