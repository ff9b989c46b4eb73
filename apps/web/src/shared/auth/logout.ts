import type { QueryClient } from "@tanstack/react-query";
import { revokeRefreshToken } from "../api/token.ts";
import { getNativeConfig } from "../bridge/index.ts";
import { PATHS } from "../navigation/index.ts";
import { deviceChannel } from "../realtime/index.ts";
import { messageChannel } from "../realtime/message-channel.ts";
import { unbindPush } from "./api/unbind-push.ts";
import { clearEnding } from "./ending.ts";
import { signOut } from "./session.ts";
import { disableWebPush } from "./web-push.ts";

/**
 * Logout of spec §4 (after the confirm dialog), shared by the My tab and Setting: unbinds the push registration when
 * the native config has one, else this browser's Web Push subscription (failures ignored); stops both hubs; revokes
 * the refresh token at `POST /connect/revocation` (failures ignored); clears permissions, device, token and login info,
 * drops all cached queries, then goes to Login and reloads the page. The hubs stop before the revocation because it
 * ends the session's hub connections, and a running hub told so asks for a new token with the revoked one. The local
 * session ends only after the revocation (which needs the access token), right before the reload: a screen still
 * shown whose cache is dropped reads again at once, and would do so signed out.
 */
export async function logout(queryClient: QueryClient, reload: () => void = () => window.location.reload()) {
  const { pushRegistrationId } = await getNativeConfig();
  if (pushRegistrationId) await unbindPush(pushRegistrationId);
  else await disableWebPush().catch(() => undefined);
  await Promise.all([deviceChannel().stop(), messageChannel().stop()]);
  await revokeRefreshToken();
  endSession(queryClient);
  clearEnding(); // signed out by choice: Login has nothing to explain
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
