import type { TMessage } from "@aquapilot/contract/wire";
import { getUserMessageList } from "../../../shared/api/get-user-message-list.ts";
import type { PageAnswer, PageRequest } from "../../../shared/ui/paged-list.tsx";
import type { MessageFilter } from "./keys.ts";

/** The `isRead` query value of a filter: absent for all, true for read, false for unread. */
export function isReadFor(filter: MessageFilter): boolean | undefined {
  return filter === "all" ? undefined : filter === "read";
}

/**
 * One page of the caller's messages, newest first: `GET /api/push-service/app/message/get-user-message-list`
 * with `skipCount`, `maxResultCount` (15, spec §9) and `isRead` for the read / unread filters (spec §2), through the
 * endpoint's one fetcher (shared/api/get-user-message-list.ts).
 * Resolves `{items, totalCount}` (or a bare array from older servers). Errors: ApiError as for `api()`.
 */
export function getUserMessagePage(
  filter: MessageFilter,
  page: PageRequest,
  signal?: AbortSignal,
): Promise<PageAnswer<TMessage>> {
  const isRead = isReadFor(filter);
  return getUserMessageList({ ...page, ...(isRead === undefined ? {} : { isRead }) }, signal);
}
