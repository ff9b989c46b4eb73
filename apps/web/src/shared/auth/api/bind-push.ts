import { endpoints } from "@aquapilot/contract/wire";
import { api } from "../../api/client.ts";
import { getItem, setItem } from "../../storage/index.ts";

/**
 * This installation's random id: 16 random bytes, base64url, created on first use and kept in storage
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
 * `POST /api/push-service/app/jpush/app-device-binding?registrationId=&platform=&installationId=` (spec §7 push-service
 * jpush; {@link pushInstallationId}). Failures are ignored (spec §8 "Push bind/unbind failures ignored") and resolve
 * false — including the server's refusal of a registration another account holds when this installation cannot prove
 * it is the same one (409: a registration moves only with proof of the same installation). Never throws.
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
