import { endpoints } from "@aquapilot/contract/wire";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../shared/api/client.ts";
import { unreadAfterRead } from "../../../shared/realtime/unread.ts";
import { messageKeys } from "./keys.ts";

/**
 * Marks messages read: `POST /api/push-service/app/message/set-message-read` with body `{ids}` (1–500 of the
 * caller's own). Resolves `{updated}` — how many were unread before.
 */
export function setMessageRead(ids: string[]): Promise<{ updated: number }> {
  return api(endpoints.setMessageRead, { body: { ids } });
}

/** {@link setMessageRead} as a mutation: the badge drops by `updated` at once, then every message query refreshes. */
export function useSetMessageRead() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { silent: true },
    mutationFn: setMessageRead,
    onSuccess: async ({ updated }) => {
      queryClient.setQueryData<number>(messageKeys.unreadCount, (count) => unreadAfterRead(count, updated));
      await queryClient.invalidateQueries({ queryKey: messageKeys.all });
    },
  });
}
