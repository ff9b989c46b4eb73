import { endpoints } from "@aquapilot/contract/wire";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../api/client.ts";
import type { QueryConfig } from "../../api/query-config.ts";
import { queryKeys } from "../../api/query-keys.ts";

/**
 * Whether push messages are on for the signed-in user (spec §7 is_open_jpush__message; true by default):
 * `GET /api/RunLuckyIot/appuser_setting/app/setting/is_open_jpush__message/`. Errors: ApiError from the client.
 */
export function getPushSwitch(signal?: AbortSignal): Promise<boolean> {
  return api(endpoints.getPushSwitch, { signal });
}

/** Query options of {@link getPushSwitch} (key `queryKeys.pushSwitch`, which the switch's mutation writes). */
export function getPushSwitchQueryOptions() {
  return queryOptions({ queryKey: queryKeys.pushSwitch, queryFn: ({ signal }) => getPushSwitch(signal) });
}

/**
 * The push switch of the home tab's "push management" (spec §2) as a query; `queryConfig` adds per-use options
 * ({@link QueryConfig}), e.g. `enabled` while the sheet is open.
 */
export function usePushSwitch(queryConfig?: QueryConfig<typeof getPushSwitchQueryOptions>) {
  return useQuery({ ...getPushSwitchQueryOptions(), ...queryConfig });
}
