import { endpoints } from "@aquapilot/contract/wire";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../api/client.ts";
import { refetchOnMountUnlessPrefetched } from "../../api/query-client.ts";
import type { QueryConfig } from "../../api/query-config.ts";
import { keepStationClock, type LiveDevice, toLiveDevice } from "../live-device.ts";
import { deviceKeys } from "./keys.ts";

/**
 * `POST …/device-control/query-device-info?deviceId` (spec §7): asks the device to report and answers its last state
 * as a {@link LiveDevice} received now. Errors: ApiError from the client (404 unknown or not theirs).
 */
export async function getDeviceInfo(deviceId: string, signal?: AbortSignal): Promise<LiveDevice> {
  return toLiveDevice(await api(endpoints.queryDeviceInfo, { query: { deviceId }, signal }));
}

/**
 * The live device as query options (patched by hub 1 through `useLiveDevice`; refetched whenever a screen mounts it).
 */
export function getDeviceInfoQueryOptions(deviceId: string) {
  return queryOptions({
    queryKey: deviceKeys.info(deviceId),
    queryFn: ({ signal }) => getDeviceInfo(deviceId, signal),
    enabled: Boolean(deviceId),
    // Live values: every screen that opens asks again (a close or station change may have come while no device
    // screen listened to hub 1), while the last answer shows meanwhile — except the first screen's first mount right
    // after its start-up call (features/device/prefetch.ts).
    staleTime: 0,
    refetchOnMount: refetchOnMountUnlessPrefetched,
    structuralSharing: keepStationClock,
  });
}

/** The live device as a query; `queryConfig` adds per-use options ({@link QueryConfig}). */
export function useDeviceInfo(deviceId: string, queryConfig?: QueryConfig<typeof getDeviceInfoQueryOptions>) {
  return useQuery({ ...getDeviceInfoQueryOptions(deviceId), ...queryConfig });
}
