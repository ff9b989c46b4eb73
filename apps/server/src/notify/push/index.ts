/** Push providers behind one interface (issue 5; docs/messages-push.md). */
export { JPUSH_INVALID_AUDIENCE, type JPushOptions, JPushSender, jpushBody } from "./jpush.js";
export { OutboxPushSender } from "./outbox.js";
export type { PushNotification, PushResult, PushSender, PushTarget } from "./types.js";
export {
  loadOrCreateVapidKeys,
  VAPID_KEY_FILE,
  type VapidKeys,
  type WebPushOptions,
  WebPushSender,
} from "./web-push.js";
