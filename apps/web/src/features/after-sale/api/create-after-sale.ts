import { endpoints, type TAfterSale, type TAfterSaleCreate } from "@aquapilot/contract/wire";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../shared/api/client.ts";
import { afterSaleKeys } from "./keys.ts";

/**
 * Files an after-sales request: `POST /api/run-lucky/device/app/post-sale/` with `{deviceId, description (5–500),
 * photos (≤ 6 uploaded paths), contactPhone?, attachDiagnostics}`. Resolves the stored request.
 */
export function createAfterSale(body: TAfterSaleCreate): Promise<TAfterSale> {
  return api(endpoints.createAfterSale, { body, loading: true });
}

/** {@link createAfterSale} as a mutation; refreshes every after-sales query. */
export function useCreateAfterSale() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { silent: true },
    mutationFn: createAfterSale,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: afterSaleKeys.all }),
  });
}
