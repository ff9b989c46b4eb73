import { endpoints } from "@aquapilot/contract/wire";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../api/client.ts";
import type { QueryConfig } from "../../api/query-config.ts";
import { deviceKeys } from "./keys.ts";

/**
 * `GET …/device-control/device-station-maxworktime-cache?deviceId`: station → configured seconds (stations without a
 * duration left out). Never throws: a failure answers `{}`.
 */
export async function getStationDurations(deviceId: string, signal?: AbortSignal): Promise<Record<number, number>> {
  try {
    const list = await api(endpoints.deviceStationMaxWorkTimeCache, { query: { deviceId }, signal });
    return Object.fromEntries(
      list.filter((s) => s.maxWorkTimeSeconds > 0).map((s) => [s.station, s.maxWorkTimeSeconds]),
    );
  } catch {
    return {};
  }
}

/** The station durations' query options (long-lived: they change only with the settings). */
export function getStationDurationsQueryOptions(deviceId: string) {
  return queryOptions({
    queryKey: deviceKeys.durations(deviceId),
    queryFn: ({ signal }) => getStationDurations(deviceId, signal),
    enabled: Boolean(deviceId),
    staleTime: 5 * 60_000,
  });
}

/** The station durations as a query; `queryConfig` adds per-use options ({@link QueryConfig}). */
export function useStationDurations(
  deviceId: string,
  queryConfig?: QueryConfig<typeof getStationDurationsQueryOptions>,
) {
  return useQuery({ ...getStationDurationsQueryOptions(deviceId), ...queryConfig });
}
