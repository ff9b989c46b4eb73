import { type BodyOf, endpoints } from "@aquapilot/contract/wire";
import { api } from "../../api/client.ts";

/** Body of `web-push/subscribe`: the browser's push subscription (endpoint URL, expiry ms or null, p256dh and auth). */
export type WebPushSubscriptionBody = BodyOf<typeof endpoints.webPushSubscribe>;

/**
 * Stores this browser's push subscription for the signed-in user:
 * `POST /api/push-service/app/web-push/subscribe` with {@link WebPushSubscriptionBody}. Errors: ApiError from the
 * client.
 */
export function subscribeWebPush(body: WebPushSubscriptionBody) {
  return api(endpoints.webPushSubscribe, { body });
}
