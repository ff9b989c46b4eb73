import { endpoints, type TFault } from "@aquapilot/contract/wire";
import { queryOptions } from "@tanstack/react-query";
import { api } from "../../../shared/api/client.ts";
import { faultKeys } from "./keys.ts";

/**
 * `GET /api/run-lucky/device/app/fault/get-fault-list?deviceId` (contract getFaultList): the open
 * faults and the closes of the last 30 days of every device of the caller's households, or of `deviceId` alone; open
 * first, newest first, times in ISO UTC. Errors: ApiError (404 when the device is not in a household of the caller).
 */
export function getFaults(deviceId?: string, signal?: AbortSignal): Promise<TFault[]> {
  return api(endpoints.getFaultList, { query: deviceId ? { deviceId } : {}, signal });
}

/** Query options of {@link getFaults}: asked again whenever a screen opens (faults come and go while away). */
export function getFaultsQueryOptions(deviceId?: string) {
  return queryOptions({
    queryKey: faultKeys.list(deviceId),
    queryFn: ({ signal }) => getFaults(deviceId, signal),
    staleTime: 0,
  });
}
