import { endpoints, type TFamily } from "@aquapilot/contract/wire";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../shared/api/client.ts";
import { familyKeys } from "./keys.ts";

/**
 * Renames a family (administrator, 1–32 characters): `PUT …/family/update-family-name?familyId=&name=` (spec §7 Q).
 * Resolves with the updated family.
 */
export function updateFamilyName(input: { familyId: string; name: string }): Promise<TFamily> {
  return api(endpoints.updateFamilyName, { query: input, loading: true });
}

/** {@link updateFamilyName} as a mutation; refreshes every family query. */
export function useUpdateFamilyName() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { silent: true },
    mutationFn: updateFamilyName,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: familyKeys.all }),
  });
}
