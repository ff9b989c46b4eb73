import { DEFAULT_UNIT_PREFERENCES, endpoints, type TUnitPreferences } from "@aquapilot/contract/wire";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../api/client.ts";
import { unitPreferencesKey } from "./keys.ts";

/**
 * Chooses display units: `POST /api/RunLuckyIot/appuser_setting/app/setting/units` (extension of spec §7),
 * body with either or both of `volumeUnit` "L" | "gal" and `hardnessUnit` "mgL" | "dH" | "fH" | "gpg"; answers all
 * units as stored. Errors: ApiError (400 with the choices in the interface language for an unknown unit).
 */
export function setUnitPreferences(change: Partial<TUnitPreferences>): Promise<TUnitPreferences> {
  return api(endpoints.setUnitPreferences, { body: change });
}

/**
 * {@link setUnitPreferences} as a mutation: optimistic (the cache shows the choice at once), rolled back when the
 * server refuses, settled with the server's answer.
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
