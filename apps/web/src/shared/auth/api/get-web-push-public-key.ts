import { endpoints } from "@aquapilot/contract/wire";
import { api } from "../../api/client.ts";

/**
 * The server's VAPID public key for Web Push: `GET /api/push-service/app/web-push/public-key`. Resolves
 * `{publicKey}` (base64url; empty when the server has Web Push off). Errors: ApiError from the client.
 */
export function getWebPushPublicKey() {
  return api(endpoints.getWebPushPublicKey, {});
}
