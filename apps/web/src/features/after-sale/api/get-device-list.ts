import { endpoints, type TFamilyDevice } from "@aquapilot/contract/wire";
import { api } from "../../../shared/api/client.ts";
import type { PageAnswer, PageRequest } from "../../../shared/ui/paged-list.tsx";

/**
 * One page of the devices of every household of the caller: `GET
 * /api/run-lucky/device/app/device-lookup/get-device-list?skipCount=&maxResultCount=` (spec §7). Errors: ApiError
 * as for `api()`.
 */
export function getDeviceList(page: PageRequest, signal?: AbortSignal): Promise<PageAnswer<TFamilyDevice>> {
  return api(endpoints.getDeviceList, { query: page, signal });
}
