import { endpoints, type TFamilyDashboard } from "@aquapilot/contract/wire";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../../shared/api/client.ts";
import { refetchOnMountUnlessPrefetched } from "../../../shared/api/query-client.ts";
import type { QueryConfig } from "../../../shared/api/query-config.ts";
import { queryKeys } from "../../../shared/api/query-keys.ts";

/** How often Home asks for the dashboard again while it is shown (water used today grows; offline alarms start), ms. */
export const DASHBOARD_REFRESH_MS = 60_000;

/** Query key of a household's dashboard (under the family-device prefix, so a hub reconnect refreshes it too). */
export function dashboardKey(familyId: string) {
  return [...queryKeys.familyDevicesAll, "dashboard", familyId] as const;
}

/**
 * `GET …/family-device/dashboard?familyId`: the household's water used today (the phone's local day: the
 * client sends X-Time-Zone) and per device salt, water left, next regeneration and badges.
 * Errors: ApiError (404 when the caller is no longer a member: the household looks absent).
 */
export function getDashboard(familyId: string, signal?: AbortSignal): Promise<TFamilyDashboard> {
  return api(endpoints.getFamilyDashboard, { query: { familyId }, signal });
}

/**
 * Query options of {@link getDashboard}: asked again on every visit (unless the start-up prefetch just asked) and
 * every {@link DASHBOARD_REFRESH_MS}.
 */
export function dashboardQueryOptions(familyId: string | null | undefined) {
  return queryOptions({
    queryKey: dashboardKey(familyId ?? ""),
    queryFn: ({ signal }) => getDashboard(familyId ?? "", signal),
    enabled: Boolean(familyId),
    refetchOnMount: refetchOnMountUnlessPrefetched,
    refetchInterval: DASHBOARD_REFRESH_MS,
  });
}

/**
 * A household's dashboard as a query (patched live by useLiveDashboardUpdates);
 * `queryConfig` adds per-use options ({@link QueryConfig}).
 */
export function useDashboard(
  familyId: string | null | undefined,
  queryConfig?: QueryConfig<typeof dashboardQueryOptions>,
) {
  return useQuery({ ...dashboardQueryOptions(familyId), ...queryConfig });
}
