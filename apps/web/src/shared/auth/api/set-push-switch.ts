import { endpoints } from "@aquapilot/contract/wire";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../api/client.ts";
import { queryKeys } from "../../api/query-keys.ts";

/**
 * Turns push messages on or off for the signed-in user (spec §7 is_open_jpush__message):
 * `POST /api/RunLuckyIot/appuser_setting/app/setting/is_open_jpush__message/?isOpen=`, counted in the loading
 * indicator; resolves with the stored value. Errors: ApiError from the client.
 */
export function setPushSwitch(isOpen: boolean): Promise<boolean> {
  return api(endpoints.setPushSwitch, { query: { isOpen }, loading: true });
}

/**
 * {@link setPushSwitch} as a mutation: the cached switch (`queryKeys.pushSwitch`) follows at once, is rolled back when
 * the call fails and settles with the stored value.
 */
export function useSetPushSwitch() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setPushSwitch,
    onMutate: (isOpen) => {
      const before = queryClient.getQueryData<boolean>(queryKeys.pushSwitch);
      queryClient.setQueryData(queryKeys.pushSwitch, isOpen);
      return { before };
    },
    onError: (_err, _isOpen, context) => queryClient.setQueryData(queryKeys.pushSwitch, context?.before),
    onSuccess: (value) => queryClient.setQueryData(queryKeys.pushSwitch, value),
  });
}
