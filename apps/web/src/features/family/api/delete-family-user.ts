import { endpoints } from "@aquapilot/contract/wire";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../shared/api/client.ts";
import { familyKeys } from "./keys.ts";

/** Removes a member (administrator, spec §6): `DELETE /api/run-lucky/device/app/family-user/{id}` (§7). */
export async function deleteFamilyUser(id: string): Promise<void> {
  await api(endpoints.removeFamilyUser, { params: { id }, loading: true });
}

/** {@link deleteFamilyUser} as a mutation; refreshes the members and the family counts. */
export function useDeleteFamilyUser() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { silent: true },
    mutationFn: deleteFamilyUser,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: familyKeys.usersAll }),
        queryClient.invalidateQueries({ queryKey: familyKeys.all }),
      ]),
  });
}
