import { queryKeys } from "../../../shared/api/query-keys.ts";
import { currentLanguage } from "../../../shared/i18n/index.ts";

/** Read filter of the message centre (spec §2 "Message tab: filter all, read, unread"). */
export type MessageFilter = "all" | "read" | "unread";

/** The three filters in tab order. */
export const MESSAGE_FILTERS: readonly MessageFilter[] = ["all", "read", "unread"];

/**
 * Query keys of the message screens. Every key starts with `queryKeys.messageAll` (["message"]), so one invalidation
 * refreshes lists, details and the unread badge together (after ReceiveMessage, reads and reconnects). Lists and
 * details carry the interface language: the server words messages in the reader's current language, so switching
 * it fetches them again in the new one.
 */
export const messageKeys = {
  all: queryKeys.messageAll,
  /** One filter's paged list. */
  list: (filter: MessageFilter) => [...queryKeys.messageAll, "list", filter, currentLanguage()] as const,
  /** `get-message-detail?id=`. */
  detail: (id: string) => [...queryKeys.messageAll, "detail", id, currentLanguage()] as const,
  unreadCount: queryKeys.unreadMessageCount,
};
