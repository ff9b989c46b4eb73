import type { QueryClient } from "@tanstack/react-query";
import { revokeRefreshToken } from "../api/token.ts";
import { getNativeConfig } from "../bridge/index.ts";
import { PATHS } from "../navigation/index.ts";
import { deviceChannel } from "../realtime/index.ts";
import { unbindPush } from "./api/unbind-push.ts";
import { clearEnding } from "./ending.ts";
import { signOut } from "./session.ts";
import { disableWebPush } from "./web-push.ts";

/**
 * Logout of spec §4 (after the confirm dialog), shared by the My tab and Setting: unbinds the push registration when
 * the native config has one, else this browser's Web Push subscription (failures ignored), revokes the refresh token at `POST /connect/revocation` (failures
 * ignored), clears permissions, device, token and login info, drops all cached queries, stops hub 1, then goes to
 * Login and reloads the page.
 */
export async function logout(queryClient: QueryClient, reload: () => void = () => window.location.reload()) {
  const { pushRegistrationId } = await getNativeConfig();
  if (pushRegistrationId) await unbindPush(pushRegistrationId);
  else await disableWebPush().catch(() => undefined);
  await revokeRefreshToken();
  endSession(queryClient);
  clearEnding(); // signed out by choice: Login has nothing to explain
  await deviceChannel().stop();
  window.location.hash = `#${PATHS.Login}`;
  reload();
}

/**
 * Ends the local session without calling the server (spec §4): used after the server already ended every session
 * (password change, account deletion). Clears permissions, device, token, login info and all cached queries.
 */
export function endSession(queryClient: QueryClient): void {
  signOut();
  queryClient.clear();
  void deviceChannel().stop();
}
