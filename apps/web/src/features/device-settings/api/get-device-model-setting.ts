import { endpoints, type TDeviceModelSetting } from "@aquapilot/contract/wire";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../../shared/api/client.ts";
import type { QueryConfig } from "../../../shared/api/query-config.ts";
import { deviceSettingsKeys } from "./keys.ts";

/**
 * Which advanced settings the device's model has, with units and bounds: `GET
 * /api/run-lucky/device/app/device-lookup/get-device-model-setting?deviceId=` (spec §7; bounds in wire units —
 * minutes, L, kg, L/min, mg/L CaCO₃, days).
 */
export async function getDeviceModelSetting(deviceId: string, signal?: AbortSignal): Promise<TDeviceModelSetting> {
  return api(endpoints.getDeviceModelSetting, { query: { deviceId }, signal });
}

/**
 * Query options of the model's settings: kept for the session once the answer names a model (a model's bounds do not
 * change); an answer without one (the device has not told its model yet, so every field of spec §3) is asked again
 * on the next screen that needs it.
 */
export function getDeviceModelSettingQueryOptions(deviceId: string | null | undefined) {
  return queryOptions({
    queryKey: deviceSettingsKeys.modelSetting(deviceId ?? ""),
    queryFn: ({ signal }) => getDeviceModelSetting(deviceId ?? "", signal),
    enabled: Boolean(deviceId),
    staleTime: (query) => (query.state.data?.deviceModel ? Number.POSITIVE_INFINITY : 0),
  });
}

/** The model's settings as a query; `queryConfig` adds per-use options ({@link QueryConfig}). */
export function useDeviceModelSetting(
  deviceId: string | null | undefined,
  queryConfig?: QueryConfig<typeof getDeviceModelSettingQueryOptions>,
) {
  return useQuery({ ...getDeviceModelSettingQueryOptions(deviceId), ...queryConfig });
}
