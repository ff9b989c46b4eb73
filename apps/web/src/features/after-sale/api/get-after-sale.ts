import { endpoints, type TAfterSale } from "@aquapilot/contract/wire";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../../shared/api/client.ts";
import type { QueryConfig } from "../../../shared/api/query-config.ts";
import { isWithdrawn } from "./delete-after-sale.ts";
import { afterSaleKeys } from "./keys.ts";

/** One of the caller's requests: `GET /api/run-lucky/device/app/post-sale/{id}`. Errors: ApiError (404, 403). */
export function getAfterSale(id: string, signal?: AbortSignal): Promise<TAfterSale> {
  return api(endpoints.getAfterSale, { params: { id }, signal });
}

/**
 * Query options of {@link getAfterSale}: asked again on every visit; disabled without an id and once the request is
 * withdrawn ({@link isWithdrawn}: it would answer 404).
 */
export function getAfterSaleQueryOptions(id: string | undefined) {
  return queryOptions({
    queryKey: afterSaleKeys.detail(id ?? ""),
    queryFn: ({ signal }) => getAfterSale(id ?? "", signal),
    enabled: () => Boolean(id) && !isWithdrawn(id ?? ""),
    refetchOnMount: "always",
  });
}

/**
 * The request AfterSaleCreate edits (with `{id}`) as a query; `queryConfig` adds per-use options
 * ({@link QueryConfig}).
 */
export function useAfterSale(id: string | undefined, queryConfig?: QueryConfig<typeof getAfterSaleQueryOptions>) {
  return useQuery({ ...getAfterSaleQueryOptions(id), ...queryConfig });
}
