import { endpoints } from "@aquapilot/contract/wire";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../shared/api/client.ts";
import { afterSaleKeys } from "./keys.ts";

/** Withdraws one of the caller's unhandled requests: `DELETE /api/run-lucky/device/app/post-sale/{id}`. */
export async function deleteAfterSale(id: string): Promise<void> {
  await api(endpoints.deleteAfterSale, { params: { id }, loading: true });
}

/** {@link deleteAfterSale} as a mutation; drops the request's cache and refreshes the lists. */
export function useDeleteAfterSale() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { silent: true },
    mutationFn: deleteAfterSale,
    onSuccess: async (_v, id) => {
      queryClient.removeQueries({ queryKey: afterSaleKeys.detail(id) });
      await queryClient.invalidateQueries({ queryKey: afterSaleKeys.all });
    },
  });
}
