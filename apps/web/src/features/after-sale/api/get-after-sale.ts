import { endpoints, type TAfterSale } from "@aquapilot/contract/wire";
import { useQuery } from "@tanstack/react-query";
import { api } from "../../../shared/api/client.ts";
import { afterSaleKeys } from "./keys.ts";

/** One of the caller's requests: `GET /api/run-lucky/device/app/post-sale/{id}`. Errors: ApiError (404, 403). */
export function getAfterSale(id: string, signal?: AbortSignal): Promise<TAfterSale> {
  return api(endpoints.getAfterSale, { params: { id }, signal });
}

/** The request AfterSaleCreate edits (with `{id}`); disabled without an id. */
export function useAfterSale(id: string | undefined) {
  return useQuery({
    queryKey: afterSaleKeys.detail(id ?? ""),
    queryFn: ({ signal }) => getAfterSale(id ?? "", signal),
    enabled: Boolean(id),
    refetchOnMount: "always",
  });
}
