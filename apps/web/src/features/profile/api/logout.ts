import type { QueryClient } from "@tanstack/react-query";
import { signOut } from "../../../shared/auth/session.js";
import { getNativeConfig } from "../../../shared/bridge/index.js";
import { PATHS } from "../../../shared/navigation/index.js";
import { deviceChannel } from "../../../shared/realtime/index.js";
import { unbindPush } from "./unbind-push.js";

/**
 * Logout of spec §4 (after the confirm dialog): unbinds the push registration when the native config has one
 * (failures ignored), clears permissions, device, token and login info, drops all cached queries, stops hub 1,
 * then goes to Login and reloads the page.
 */
export async function logout(queryClient: QueryClient, reload: () => void = () => window.location.reload()) {
  const { pushRegistrationId } = await getNativeConfig();
  if (pushRegistrationId) await unbindPush(pushRegistrationId);
  signOut();
  queryClient.clear();
  await deviceChannel().stop();
  window.location.hash = `#${PATHS.Login}`;
  reload();
}
