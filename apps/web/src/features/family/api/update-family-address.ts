import type { QueryOf, TFamily } from "@aquapilot/contract/wire";
import { endpoints } from "@aquapilot/contract/wire";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../shared/api/client.ts";
import { familyKeys } from "./keys.ts";

/** What the address update sends: `familyId`, the address text, its coordinates and region (all three of address,
 * longitude and latitude, spec §5). */
export type UpdateFamilyAddressInput = QueryOf<typeof endpoints.updateFamilyAddress>;

/** Moves a family to a new address (administrator): `PUT …/family/update-family-address` (spec §7 Q). */
export function updateFamilyAddress(input: UpdateFamilyAddressInput): Promise<TFamily> {
  return api(endpoints.updateFamilyAddress, { query: input, loading: true });
}

/** {@link updateFamilyAddress} as a mutation; refreshes every family query. */
export function useUpdateFamilyAddress() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { silent: true },
    mutationFn: updateFamilyAddress,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: familyKeys.all }),
  });
}
