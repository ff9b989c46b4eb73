import { endpoints, type TAfterSale, type TAfterSaleUpdate } from "@aquapilot/contract/wire";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../shared/api/client.ts";
import { afterSaleKeys } from "./keys.ts";

/**
 * Edits one of the caller's unhandled requests: `PUT /api/run-lucky/device/app/post-sale/{id}` with the create body
 * minus the device. Errors: ApiError (Conflict once the request is handled).
 */
export function updateAfterSale(input: { id: string; body: TAfterSaleUpdate }): Promise<TAfterSale> {
  return api(endpoints.updateAfterSale, { params: { id: input.id }, body: input.body, loading: true });
}

/** {@link updateAfterSale} as a mutation; refreshes every after-sales query. */
export function useUpdateAfterSale() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { silent: true },
    mutationFn: updateAfterSale,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: afterSaleKeys.all }),
  });
}
