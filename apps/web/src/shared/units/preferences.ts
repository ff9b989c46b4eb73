import { DEFAULT_UNIT_PREFERENCES, endpoints, type TUnitPreferences } from "@aquapilot/contract/wire";
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../api/client.ts";

/** Query key of the owner's units (dropped with every other query at sign-out, so never shared between users). */
export const unitPreferencesKey = ["appuser-setting", "units"] as const;

/**
 * The owner's display units, kept per user on the server: `GET /api/RunLuckyIot/appuser_setting/app/setting/units`
 * (extension of spec §7, issue 10). Errors: ApiError.
 */
export function getUnitPreferences(signal?: AbortSignal): Promise<TUnitPreferences> {
  return api(endpoints.getUnitPreferences, { signal });
}

/**
 * Chooses display units (`POST …/setting/units`, body with either or both of `volumeUnit` "L" | "gal" and
 * `hardnessUnit` "mgL" | "dH" | "fH" | "gpg"); answers all units as stored. Errors: ApiError (400 with the choices in
 * the interface language for an unknown unit).
 */
export function setUnitPreferences(change: Partial<TUnitPreferences>): Promise<TUnitPreferences> {
  return api(endpoints.setUnitPreferences, { body: change });
}

/** Query options of {@link getUnitPreferences}. */
export function unitPreferencesQuery() {
  return queryOptions({
    queryKey: unitPreferencesKey,
    queryFn: ({ signal }) => getUnitPreferences(signal),
    staleTime: 5 * 60_000,
  });
}

/**
 * The owner's units for display: the stored ones once read, the defaults (L, mg/L CaCO₃) until then. `ready` tells
 * whether the stored ones have arrived (screens that convert typed values wait for it, so a value typed in one unit
 * is never read in another).
 */
export function useUnitPreferences(): TUnitPreferences & { ready: boolean; isError: boolean } {
  const query = useQuery(unitPreferencesQuery());
  return {
    ...(query.data ?? DEFAULT_UNIT_PREFERENCES),
    ready: query.data !== undefined || query.isError,
    isError: query.isError,
  };
}

/**
 * Changes the owner's units: optimistic (the cache shows the choice at once), rolled back when the server refuses,
 * settled with the server's answer.
 */
export function useSetUnitPreferences() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: setUnitPreferences,
    onMutate: async (change) => {
      await client.cancelQueries({ queryKey: unitPreferencesKey });
      const before = client.getQueryData<TUnitPreferences>(unitPreferencesKey);
      client.setQueryData<TUnitPreferences>(unitPreferencesKey, { ...(before ?? DEFAULT_UNIT_PREFERENCES), ...change });
      return { before };
    },
    onError: (_err, _change, context) => {
      if (context?.before) client.setQueryData(unitPreferencesKey, context.before);
      else void client.invalidateQueries({ queryKey: unitPreferencesKey });
    },
    onSuccess: (stored) => client.setQueryData(unitPreferencesKey, stored),
  });
}
