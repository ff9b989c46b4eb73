import { PERMISSIONS, type TMessage } from "@aquapilot/contract/wire";
import { useQuery } from "@tanstack/react-query";
import { useSyncExternalStore } from "react";
import { getUserMessageList } from "../api/get-user-message-list.ts";
import { queryKeys } from "../api/query-keys.ts";
import { checkPermission } from "../auth/permissions.ts";
import { getGrantedPolicies, subscribeSession } from "../auth/session.ts";
import { getAccessToken } from "../storage/index.ts";

/**
 * The unread-message badge (spec §2 home bell and My tab): the count query and its arithmetic. Kept apart from the
 * hub-2 channel (message-channel.ts) so the tabs show the badge without loading the channel.
 */

/** Largest number a badge shows; above it the badge reads "99+". */
export const BADGE_MAX = 99;

/** The badge text for an unread count: nothing for 0 or unknown, "1"…"99", then "99+". */
export function badgeText(count: number | null | undefined, max = BADGE_MAX): string | null {
  if (!count || count < 0) return null;
  return count > max ? `${max}+` : String(count);
}

/** The unread count after a message arrived over hub 2: +1 for an unread one; an unknown count stays unknown. */
export function unreadAfterReceive(count: number | undefined, message: Pick<TMessage, "isRead">): number | undefined {
  if (count === undefined) return undefined;
  return message.isRead ? count : count + 1;
}

/** The unread count after `marked` messages were marked read (never below 0); an unknown count stays unknown. */
export function unreadAfterRead(count: number | undefined, marked: number): number | undefined {
  if (count === undefined) return undefined;
  return Math.max(0, count - Math.max(0, marked));
}

/**
 * The caller's unread message count: `GET …/get-user-message-list?isRead=false&skipCount=0&maxResultCount=1` →
 * `totalCount` (a bare-array answer counts its length), through the endpoint's one fetcher. Errors: ApiError.
 */
export async function fetchUnreadCount(signal?: AbortSignal): Promise<number> {
  const result = await getUserMessageList({ isRead: false, skipCount: 0, maxResultCount: 1 }, signal);
  const list = result as unknown;
  if (Array.isArray(list)) return list.length;
  return result?.totalCount ?? 0;
}

/** Whether the signed-in user may see messages (spec §6 "Message"); false when signed out. */
function canSeeMessages(): boolean {
  return getAccessToken() !== null && checkPermission(getGrantedPolicies(), PERMISSIONS.message);
}

/** The session whose messages are shown: the access token when the user may see messages, else "". */
export function sessionKey(): string {
  return canSeeMessages() ? (getAccessToken() ?? "") : "";
}

/** Whether a user who may see messages is signed in, as React state (re-renders on sign-in and sign-out). */
export function useMessagesEnabled(): boolean {
  return useSyncExternalStore(subscribeSession, canSeeMessages, () => false);
}

/**
 * The unread badge count (home bell, My tab entry): a query under `queryKeys.unreadMessageCount`, refreshed on every
 * ReceiveMessage, after reads and after a reconnect (they invalidate `queryKeys.messageAll`). Silent on failure (a
 * badge is not worth a toast). `data` is undefined until loaded or when signed out.
 */
export function useUnreadMessageCount() {
  const enabled = useMessagesEnabled();
  return useQuery({
    queryKey: queryKeys.unreadMessageCount,
    queryFn: ({ signal }) => fetchUnreadCount(signal),
    enabled,
    meta: { silent: true },
    staleTime: 15_000,
  });
}
