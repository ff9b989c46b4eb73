import { endpoints } from "@aquapilot/contract/wire";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../api/client.ts";
import type { QueryConfig } from "../../api/query-config.ts";
import { deviceKeys } from "./keys.ts";

/** How many regeneration cycles one call loads (the newest). */
const CYCLES_PAGE = 15;

/**
 * `GET …/device-control/get-regeneration-cycles?deviceId&skipCount&maxResultCount`: the device's regeneration cycles,
 * newest first, one page of 15. Errors: ApiError from the client.
 */
export function getRegenerationCycles(deviceId: string, signal?: AbortSignal) {
  return api(endpoints.getRegenerationCycles, {
    query: { deviceId, skipCount: 0, maxResultCount: CYCLES_PAGE },
    signal,
  });
}

/** Query options of {@link getRegenerationCycles}. */
export function getRegenerationCyclesQueryOptions(deviceId: string) {
  return queryOptions({
    queryKey: deviceKeys.cycles(deviceId),
    queryFn: ({ signal }) => getRegenerationCycles(deviceId, signal),
    enabled: Boolean(deviceId),
  });
}

/** The regeneration cycles as a query; `queryConfig` adds per-use options ({@link QueryConfig}). */
export function useRegenerationCycles(
  deviceId: string,
  queryConfig?: QueryConfig<typeof getRegenerationCyclesQueryOptions>,
) {
  return useQuery({ ...getRegenerationCyclesQueryOptions(deviceId), ...queryConfig });
}
