import { endpoints, type TDeviceWithData } from "@aquapilot/contract/wire";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../../shared/api/client.ts";
import type { QueryConfig } from "../../../shared/api/query-config.ts";
import { deviceSettingsKeys } from "./keys.ts";

/**
 * A device with its live state, reported advanced settings and model: `GET
 * /api/run-lucky/device/app/device/get-device-with--data?deviceId=` (spec §7). Errors: ApiError (404 unknown or not theirs).
 */
export async function getDevice(deviceId: string, signal?: AbortSignal): Promise<TDeviceWithData> {
  return api(endpoints.getDeviceWithData, { query: { deviceId }, signal });
}

/** Query options of {@link getDevice}; disabled without an id. */
export function getDeviceQueryOptions(deviceId: string | null | undefined) {
  return queryOptions({
    queryKey: deviceSettingsKeys.device(deviceId ?? ""),
    queryFn: ({ signal }) => getDevice(deviceId ?? "", signal),
    enabled: Boolean(deviceId),
  });
}

/** The device as a query; `queryConfig` adds per-use options ({@link QueryConfig}). */
export function useDevice(
  deviceId: string | null | undefined,
  queryConfig?: QueryConfig<typeof getDeviceQueryOptions>,
) {
  return useQuery({ ...getDeviceQueryOptions(deviceId), ...queryConfig });
}
