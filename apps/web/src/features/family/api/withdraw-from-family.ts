import { endpoints } from "@aquapilot/contract/wire";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../shared/api/client.ts";
import { forgetFamily } from "./forget-family.ts";

/**
 * Leaves a family (spec §6 member): `POST /api/run-lucky/device/app/family/withdraw-from-family?familyId=` (§7).
 * The last administrator is refused by the server with its own message (transfer or delete first).
 */
export async function withdrawFromFamily(familyId: string): Promise<void> {
  await api(endpoints.withdrawFromFamily, { query: { familyId }, loading: true });
}

/** {@link withdrawFromFamily} as a mutation; the family and its devices leave the cache at once. */
export function useWithdrawFromFamily() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { silent: true },
    mutationFn: withdrawFromFamily,
    onSuccess: (_, familyId) => forgetFamily(queryClient, familyId),
  });
}
