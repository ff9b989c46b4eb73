import { DEFAULT_UNIT_PREFERENCES, endpoints, type TUnitPreferences } from "@aquapilot/contract/wire";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../api/client.ts";
import type { QueryConfig } from "../../api/query-config.ts";
import { unitPreferencesKey } from "./keys.ts";

/**
 * The owner's display units, kept per user on the server: `GET /api/RunLuckyIot/appuser_setting/app/setting/units`
 * (extension of spec §7): `{volumeUnit: "L" | "gal", hardnessUnit: "mgL" | "dH" | "fH" | "gpg"}`.
 * Errors: ApiError from the client.
 */
export function getUnitPreferences(signal?: AbortSignal): Promise<TUnitPreferences> {
  return api(endpoints.getUnitPreferences, { signal });
}

/** Query options of {@link getUnitPreferences} (5 minutes fresh: they change only on the Setting screen). */
export function getUnitPreferencesQueryOptions() {
  return queryOptions({
    queryKey: unitPreferencesKey,
    queryFn: ({ signal }) => getUnitPreferences(signal),
    staleTime: 5 * 60_000,
  });
}

/**
 * The owner's units for display: the stored ones once read, the defaults (L, mg/L CaCO₃) until then. `ready` tells
 * whether the stored ones have arrived (screens that convert typed values wait for it, so a value typed in one unit
 * is never read in another); `isError` whether the read failed (the defaults stay). `queryConfig` adds per-use options
 * ({@link QueryConfig}).
 */
export function useUnitPreferences(
  queryConfig?: QueryConfig<typeof getUnitPreferencesQueryOptions>,
): TUnitPreferences & { ready: boolean; isError: boolean } {
  const query = useQuery({ ...getUnitPreferencesQueryOptions(), ...queryConfig });
  return {
    ...(query.data ?? DEFAULT_UNIT_PREFERENCES),
    ready: query.data !== undefined || query.isError,
    isError: query.isError,
  };
}
