import { endpoints, type TAfterSale } from "@aquapilot/contract/wire";
import { api } from "../../../shared/api/client.ts";
import type { PageAnswer, PageRequest } from "../../../shared/ui/paged-list.tsx";

/**
 * One page of the caller's after-sales requests, newest first: `GET /api/run-lucky/device/app/post-sale/?skipCount=
 * &maxResultCount=&handled=` (spec §7; AfterSaleList tabs unhandled / handled). Errors: ApiError as for `api()`.
 */
export function getAfterSalePage(
  handled: boolean,
  page: PageRequest,
  signal?: AbortSignal,
): Promise<PageAnswer<TAfterSale>> {
  return api(endpoints.getAfterSaleList, { query: { ...page, handled }, signal });
}
