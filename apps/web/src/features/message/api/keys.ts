import { queryKeys } from "../../../shared/api/query-keys.js";

/** Read filter of the message centre (spec §2 "Message tab: filter all, read, unread"). */
export type MessageFilter = "all" | "read" | "unread";

/** The three filters in tab order. */
export const MESSAGE_FILTERS: readonly MessageFilter[] = ["all", "read", "unread"];

/**
 * Query keys of the message screens. Every key starts with `queryKeys.messageAll` (["message"]), so one invalidation
 * refreshes lists, details and the unread badge together (after ReceiveMessage, reads and reconnects).
 */
export const messageKeys = {
  all: queryKeys.messageAll,
  /** One filter's paged list. */
  list: (filter: MessageFilter) => [...queryKeys.messageAll, "list", filter] as const,
  /** `get-message-detail?id=`. */
  detail: (id: string) => [...queryKeys.messageAll, "detail", id] as const,
  unreadCount: queryKeys.unreadMessageCount,
};
