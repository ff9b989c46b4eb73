import { endpoints } from "@aquapilot/contract/wire";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../shared/api/client.ts";
import { familyKeys } from "./keys.ts";

/**
 * Hands the administrator role to another member (spec §6: exactly one administrator):
 * `DELETE …/family-user/transfer-administrator?familyId=&familyUserId=` (§7 Q). The caller becomes a member.
 */
export async function transferAdministrator(input: { familyId: string; familyUserId: string }): Promise<void> {
  await api(endpoints.transferAdministrator, { query: input, loading: true });
}

/** {@link transferAdministrator} as a mutation; refreshes members and families (the caller's `isAdmin` changes). */
export function useTransferAdministrator() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { silent: true },
    mutationFn: transferAdministrator,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: familyKeys.usersAll }),
        queryClient.invalidateQueries({ queryKey: familyKeys.all }),
      ]),
  });
}
