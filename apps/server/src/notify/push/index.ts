/** Push providers behind one interface (docs/messages-push.md). */
export { JPUSH_INVALID_AUDIENCE, type JPushOptions, JPushSender, jpushBody } from "./jpush.ts";
export { OutboxPushSender } from "./outbox.ts";
export type { PushNotification, PushResult, PushSender, PushTarget } from "./types.ts";
export {
  loadOrCreateVapidKeys,
  VAPID_KEY_FILE,
  type VapidKeys,
  type WebPushOptions,
  WebPushSender,
} from "./web-push.ts";
