import { endpoints } from "@aquapilot/contract/wire";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../shared/api/client.ts";
import { messageKeys } from "./keys.ts";

/** Marks every message of the caller read: `POST /api/push-service/app/message/set-message-all-read`. */
export function setMessageAllRead(): Promise<{ updated: number }> {
  return api(endpoints.setMessageAllRead, { loading: true });
}

/** {@link setMessageAllRead} as a mutation: the badge goes to 0 at once, then every message query refreshes. */
export function useSetMessageAllRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setMessageAllRead,
    onSuccess: async () => {
      queryClient.setQueryData<number>(messageKeys.unreadCount, 0);
      await queryClient.invalidateQueries({ queryKey: messageKeys.all });
    },
  });
}
