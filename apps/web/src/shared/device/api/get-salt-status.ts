import { endpoints, type TSaltStatus } from "@aquapilot/contract/wire";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../api/client.ts";
import { refetchOnMountUnlessPrefetched } from "../../api/query-client.ts";
import type { QueryConfig } from "../../api/query-config.ts";
import { deviceKeys } from "./keys.ts";

/**
 * `GET …/device-control/get-salt-status?deviceId`: salt level, "salt runs out in N days" and the clock drift
 * (seconds, device − server) the server measured. Errors: ApiError from the client.
 */
export function getSaltStatus(deviceId: string, signal?: AbortSignal): Promise<TSaltStatus> {
  return api(endpoints.getSaltStatus, { query: { deviceId }, signal });
}

/** The salt status' query options: refetched every minute; a start-up call stands in for the first mount's. */
export function getSaltStatusQueryOptions(deviceId: string) {
  return queryOptions({
    queryKey: deviceKeys.salt(deviceId),
    queryFn: ({ signal }) => getSaltStatus(deviceId, signal),
    enabled: Boolean(deviceId),
    refetchInterval: 60_000,
    refetchOnMount: refetchOnMountUnlessPrefetched,
  });
}

/** The salt status as a query; `queryConfig` adds per-use options ({@link QueryConfig}). */
export function useSaltStatus(deviceId: string, queryConfig?: QueryConfig<typeof getSaltStatusQueryOptions>) {
  return useQuery({ ...getSaltStatusQueryOptions(deviceId), ...queryConfig });
}
