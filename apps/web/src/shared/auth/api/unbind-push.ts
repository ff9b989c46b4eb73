import { endpoints } from "@aquapilot/contract/wire";
import { api } from "../../api/client.ts";

/**
 * Unbinds this phone's JPush registration at logout (spec §4 Logout):
 * `POST /api/push-service/app/jpush/app-device-unbinding?registrationId=` (spec §7 push-service jpush). Failures are
 * ignored (spec §8 "Push bind/unbind failures ignored") and resolve false. Never throws.
 */
export async function unbindPush(registrationId: string): Promise<boolean> {
  try {
    await api(endpoints.appDeviceUnbinding, { query: { registrationId } });
    return true;
  } catch (err) {
    console.info("[push] unbind failed (ignored)", err);
    return false;
  }
}
