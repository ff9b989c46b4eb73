import { endpoints } from "@aquapilot/contract/wire";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../api/client.ts";
import { queryKeys } from "../api/query-keys.ts";
import { getItem, setItem } from "../storage/index.ts";

/**
 * Push registration and the push switch (spec §7 push-service jpush and is_open_jpush__message; spec §4 Logout;
 * spec §8 "Push bind/unbind failures ignored").
 */

/** `POST /api/push-service/app/jpush/app-device-unbinding` (the contract's entry; kept under this name for imports). */
export const appDeviceUnbinding = endpoints.appDeviceUnbinding;

/**
 * This installation's random id (issue 11): 16 random bytes, base64url, created on first use and kept in storage
 * (`pushInstallationId`, across sign-out and cache clears). The server keeps only its hash; presenting it is how a
 * push registration bound to another account on this same phone moves to the account signed in now.
 */
export function pushInstallationId(): string {
  const stored = getItem("pushInstallationId");
  if (stored) return stored;
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  const id = btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
  setItem("pushInstallationId", id);
  return id;
}

/**
 * Binds this phone's JPush registration (from the native config's `pushRegistrationId`) to the signed-in user:
 * `POST …/jpush/app-device-binding?registrationId=&platform=&installationId=` ({@link pushInstallationId}). Failures
 * are ignored (spec §8) and resolve false — including the server's refusal of a registration another account holds
 * when this installation cannot prove it is the same one (409, issue 11).
 */
export async function bindPush(registrationId: string, platform?: "android" | "ios" | null): Promise<boolean> {
  try {
    await api(endpoints.appDeviceBinding, {
      query: { registrationId, ...(platform ? { platform } : {}), installationId: pushInstallationId() },
    });
    return true;
  } catch (err) {
    console.info("[push] bind failed (ignored)", err);
    return false;
  }
}

/** Unbinds the push registration (spec §4 Logout); failures are ignored (spec §8) and resolve false. */
export async function unbindPush(registrationId: string): Promise<boolean> {
  try {
    await api(endpoints.appDeviceUnbinding, { query: { registrationId } });
    return true;
  } catch (err) {
    console.info("[push] unbind failed (ignored)", err);
    return false;
  }
}

/** Whether push messages are on for the signed-in user: `GET …/is_open_jpush__message/` (true by default). */
export function getPushSwitch(signal?: AbortSignal): Promise<boolean> {
  return api(endpoints.getPushSwitch, { signal });
}

/** Turns push messages on or off: `POST …/is_open_jpush__message/?isOpen=`; resolves with the stored value. */
export function setPushSwitch(isOpen: boolean): Promise<boolean> {
  return api(endpoints.setPushSwitch, { query: { isOpen }, loading: true });
}

/** The push switch of the home tab's "push management" as a query. */
export function usePushSwitch(enabled = true) {
  return useQuery({
    queryKey: queryKeys.pushSwitch,
    queryFn: ({ signal }) => getPushSwitch(signal),
    enabled,
  });
}

/** Sets the push switch; the cached value follows at once and is rolled back when the call fails. */
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
