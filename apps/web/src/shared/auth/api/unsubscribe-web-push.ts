import { endpoints } from "@aquapilot/contract/wire";
import { api } from "../../api/client.ts";

/**
 * Tells the server to forget this browser's push subscription:
 * `POST /api/push-service/app/web-push/unsubscribe` with `{endpoint}` (the subscription's endpoint URL). Errors:
 * ApiError from the client (callers ignore it, spec §8 "Push bind/unbind failures ignored").
 */
export function unsubscribeWebPush(endpoint: string) {
  return api(endpoints.webPushUnsubscribe, { body: { endpoint } });
}
