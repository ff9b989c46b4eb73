import { endpoints } from "@aquapilot/contract/wire";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../shared/api/client.ts";
import { familyKeys } from "./keys.ts";

/** Revokes one of the caller's share codes: `DELETE …/family-user/revoke-share-code?id=` (this server's extension). */
export async function revokeShareCode(id: string): Promise<void> {
  await api(endpoints.revokeShareCode, { query: { id }, loading: true });
}

/** {@link revokeShareCode} as a mutation; refreshes the share list. */
export function useRevokeShareCode() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { silent: true },
    mutationFn: revokeShareCode,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: familyKeys.shares }),
  });
}
