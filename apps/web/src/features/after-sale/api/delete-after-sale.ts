import { endpoints } from "@aquapilot/contract/wire";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { api } from "../../../shared/api/client.ts";
import { afterSaleKeys } from "./keys.ts";

/**
 * Ids of requests withdrawn (or being withdrawn) while a screen still shows them. Their detail query stays disabled
 * ({@link isWithdrawn}): the screen that withdrew a request observes it until it has gone back, and a refresh in the
 * meantime — from the mutation's own invalidation or from the household's real-time "after-sale" event, which can
 * arrive before the DELETE's answer — would ask for a request that no longer exists and get 404.
 */
const withdrawn = new Set<string>();

/** Whether request `id` is withdrawn or being withdrawn in this page (its detail query must not be fetched). */
export function isWithdrawn(id: string): boolean {
  return withdrawn.has(id);
}

/** Withdraws one of the caller's unhandled requests: `DELETE /api/run-lucky/device/app/post-sale/{id}`. */
export async function deleteAfterSale(id: string): Promise<void> {
  await api(endpoints.deleteAfterSale, { params: { id }, loading: true });
}

/**
 * {@link deleteAfterSale} as a mutation: marks the request withdrawn before the call (unmarked if it fails), then
 * refreshes the lists. The request's own cache is dropped when its screen goes ({@link useDropWhenWithdrawn}).
 */
export function useDeleteAfterSale() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { silent: true },
    mutationFn: deleteAfterSale,
    onMutate: (id) => {
      withdrawn.add(id);
    },
    onError: (_err, id) => {
      withdrawn.delete(id);
    },
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: afterSaleKeys.all });
    },
  });
}

/**
 * For the screen showing request `id`: when it goes and the request was withdrawn, drops the request's cache and
 * forgets the mark, so a later link to that id asks the server again (and is told it is not found).
 */
export function useDropWhenWithdrawn(id: string): void {
  const queryClient = useQueryClient();
  useEffect(
    () => () => {
      if (!withdrawn.delete(id)) return;
      queryClient.removeQueries({ queryKey: afterSaleKeys.detail(id) });
    },
    [id, queryClient],
  );
}
