import { endpoints } from "@aquapilot/contract/wire";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "./client.ts";
import type { QueryConfig } from "./query-config.ts";

/**
 * The app configuration: `GET /api/business-basic-data/app/app-config-setting/` (spec §7; open): customer service
 * phone, map type and keys, privacy policy article id, latest Android/iOS versions and their download URLs, web
 * version.
 */
export function getAppConfig(signal?: AbortSignal) {
  return api(endpoints.appConfigSetting, { signal });
}

/** Query options of {@link getAppConfig}; the configuration changes rarely (10 minutes fresh). */
export function getAppConfigQueryOptions() {
  return queryOptions({
    queryKey: ["app-config-setting"],
    queryFn: ({ signal }) => getAppConfig(signal),
    staleTime: 10 * 60_000,
    meta: { silent: true },
  });
}

/**
 * The app configuration as a query (failures are silent: the screens fall back to the spec's constants);
 * `queryConfig` adds per-use options ({@link QueryConfig}).
 */
export function useAppConfig(queryConfig?: QueryConfig<typeof getAppConfigQueryOptions>) {
  return useQuery({ ...getAppConfigQueryOptions(), ...queryConfig });
}
