import { endpoints, type TMessage } from "@aquapilot/contract/wire";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../../shared/api/client.ts";
import type { QueryConfig } from "../../../shared/api/query-config.ts";
import { messageKeys } from "./keys.ts";

/** One of the caller's messages: `GET /api/push-service/app/message/get-message-detail?id=`. Errors: ApiError (404). */
export function getMessageDetail(id: string, signal?: AbortSignal): Promise<TMessage> {
  return api(endpoints.getMessageDetail, { query: { id }, signal });
}

/** Query options of MessageDetails with an id. */
export function getMessageDetailQueryOptions(id: string) {
  return queryOptions({
    queryKey: messageKeys.detail(id),
    queryFn: ({ signal }) => getMessageDetail(id, signal),
    refetchOnMount: "always",
  });
}

/**
 * One message (MessageDetails with `{id}`) as a query, disabled without an id; `queryConfig` adds per-use options
 * ({@link QueryConfig}).
 */
export function useMessageDetail(
  id: string | undefined,
  queryConfig?: QueryConfig<typeof getMessageDetailQueryOptions>,
) {
  return useQuery({ ...getMessageDetailQueryOptions(id ?? ""), enabled: Boolean(id), ...queryConfig });
}
