import type { TFamilyDevice } from "@aquapilot/contract/wire";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { getFamilies } from "../../../shared/api/families.ts";
import type { QueryConfig } from "../../../shared/api/query-config.ts";
import { fetchAllPages } from "../../../shared/ui/paged-list.tsx";
import { getDeviceList } from "./get-device-list.ts";
import { afterSaleKeys } from "./keys.ts";

/** A device the caller may file a request for, with its household's name. */
export interface ChoosableDevice {
  device: TFamilyDevice;
  familyName: string;
}

/**
 * The devices of every household of the caller, each with its household's name, for AfterSaleCreate's device choice:
 * all pages of `GET …/device-lookup/get-device-list` ({@link getDeviceList}, 15 a page, spec §9) and the households
 * (shared/api/families.ts), sorted by household and then by the households' own device order. Errors: ApiError.
 */
export async function getMyDevices(signal?: AbortSignal): Promise<ChoosableDevice[]> {
  const [devices, families] = await Promise.all([
    fetchAllPages((page, s) => getDeviceList(page, s), undefined, undefined, signal),
    getFamilies(signal),
  ]);
  const names = new Map(families.map((f) => [f.id, f.name]));
  const order = new Map(families.map((f, i) => [f.id, i]));
  return devices
    .map((device) => ({ device, familyName: names.get(device.familyId) ?? "" }))
    .sort(
      (a, b) =>
        (order.get(a.device.familyId) ?? 1e6) - (order.get(b.device.familyId) ?? 1e6) || a.device.sort - b.device.sort,
    );
}

/** Query options of {@link getMyDevices}. */
export function getMyDevicesQueryOptions() {
  return queryOptions({ queryKey: afterSaleKeys.devices, queryFn: ({ signal }) => getMyDevices(signal) });
}

/**
 * {@link getMyDevices} as a query (only while `enabled`); `queryConfig` adds per-use options ({@link QueryConfig}).
 */
export function useMyDevices(enabled = true, queryConfig?: QueryConfig<typeof getMyDevicesQueryOptions>) {
  return useQuery({ ...getMyDevicesQueryOptions(), enabled, ...queryConfig });
}
