import { endpoints, type QueryOf, type ResultOf } from "@aquapilot/contract/wire";
import { api } from "./client.ts";

/** Query of `get-user-message-list` (spec §7 push-service): `skipCount`, `maxResultCount`, `isRead` (absent: all). */
export type UserMessageListQuery = QueryOf<typeof endpoints.getUserMessageList>;

/**
 * One page of the caller's messages, newest first: `GET /api/push-service/app/message/get-user-message-list` (spec §7)
 * with `query`. The one fetcher of the endpoint: the message centre's pages and the unread badge's count read it.
 * Resolves `{items, totalCount}` (or a bare array from older servers). Errors: ApiError as for `api()`.
 */
export function getUserMessageList(
  query: UserMessageListQuery,
  signal?: AbortSignal,
): Promise<ResultOf<typeof endpoints.getUserMessageList>> {
  return api(endpoints.getUserMessageList, { query, signal });
}
