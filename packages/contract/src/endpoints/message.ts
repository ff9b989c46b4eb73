import { z } from "zod";
import { PERMISSIONS } from "../constants.ts";
import { paged, ZPagedQuery } from "../envelope.ts";
import { ownerOf, SIGNED_IN } from "./access.ts";
import { endpoint, noQuery, ZBoolQuery, ZId, ZIsoTime, ZNumber, ZQueryInt, ZText, ZUrl } from "./define.ts";

// Messages and push (spec §7 /api/push-service/app/message, /api/push-service/app/jpush,
// /api/RunLuckyIot/appuser_setting/app/setting/is_open_jpush__message; hub 2 ReceiveMessage).

export const ZMessageTypeValue = z.union([z.literal(1), z.literal(2), z.literal(3)]);
export type TMessageTypeValue = z.infer<typeof ZMessageTypeValue>;

/**
 * What a device message is about (null for announcements). Alarms: "leak" (513), "excessive-flow" (1025),
 * "continuous-use" (769), "valve-button" (257), "offline"; notices: "regeneration-finished", "salt-low",
 * "ota-finished", "ota-failed", "after-sale-answered" (the service team answered an after-sales request about the
 * device); announcement-type notices of a household: "household-removed" (its administrator removed the recipient),
 * "household-deleted" (its administrator deleted it), "administrator-transferred" (the recipient became, or handed
 * over, its administration).
 */
export const MESSAGE_EVENTS = [
  "leak",
  "excessive-flow",
  "continuous-use",
  "valve-button",
  "offline",
  "regeneration-finished",
  "salt-low",
  "ota-finished",
  "ota-failed",
  "after-sale-answered",
  "household-removed",
  "household-deleted",
  "administrator-transferred",
] as const;
export const ZMessageEvent = z.enum(MESSAGE_EVENTS);
export type TMessageEvent = z.infer<typeof ZMessageEvent>;

/** One message of a user (spec §3 Message: read or unread). Title and content are in the recipient's language. */
export const ZMessage = z.object({
  id: z.string(),
  type: ZMessageTypeValue,
  title: z.string(),
  content: z.string(),
  isRead: z.boolean(),
  readTime: ZIsoTime.nullable(),
  creationTime: ZIsoTime,
  /** The device a device message is about (opens the Device screen); null for announcements. */
  deviceId: z.string().nullable(),
  deviceName: z.string().nullable(),
  familyId: z.string().nullable(),
  event: ZMessageEvent.nullable(),
  /** System close reason (spec §3: 257, 513, 769, 1025) for alarms that carry one. */
  closeReason: z.number().int().nullable(),
});
export type TMessage = z.infer<typeof ZMessage>;

/** One entry of get-message-type-list: the type value and its name in the caller's language. */
export const ZMessageType = z.object({ value: ZMessageTypeValue, name: z.string() });
export type TMessageType = z.infer<typeof ZMessageType>;

/** Query of get-user-message-list: page, optional read filter (absent = all), optional type. */
export const ZMessageListQuery = ZPagedQuery.extend({
  isRead: ZBoolQuery.optional(),
  type: ZQueryInt(1, 3).optional(),
});

/** Body of set-message-read: the ids to mark read (the caller's own; others' ids are refused). */
export const ZSetMessageRead = z.object({ ids: z.array(ZId).min(1).max(500) });

/** A standard Web Push subscription (PushSubscription.toJSON()). */
export const ZWebPushSubscription = z.object({
  endpoint: ZUrl(2048),
  /** When the subscription expires, ms since 1970 (a JavaScript time; at most the largest Date). */
  expirationTime: ZNumber(0, 8.64e15).nullable().optional(),
  keys: z.object({ p256dh: ZText(512, { min: 1 }), auth: ZText(512, { min: 1 }) }),
});
export type TWebPushSubscription = z.infer<typeof ZWebPushSubscription>;

export const messageEndpoints = {
  getMessageTypeList: endpoint({
    method: "GET",
    access: { caller: PERMISSIONS.message },
    path: "/api/push-service/app/message/get-message-type-list",
    query: noQuery,
    body: undefined,
    result: z.array(ZMessageType),
    summary: "Message types with their names in the caller's language",
  }),
  getUserMessageList: endpoint({
    method: "GET",
    access: { caller: PERMISSIONS.message },
    path: "/api/push-service/app/message/get-user-message-list",
    query: ZMessageListQuery,
    body: undefined,
    result: paged(ZMessage),
    summary: "The caller's messages, newest first, paged; filter read/unread and type",
  }),
  getMessageDetail: endpoint({
    method: "GET",
    access: ownerOf("message", "query.id", PERMISSIONS.message),
    path: "/api/push-service/app/message/get-message-detail",
    query: z.object({ id: ZId }),
    body: undefined,
    result: ZMessage,
    summary: "One of the caller's messages",
  }),
  setMessageRead: endpoint({
    method: "POST",
    access: { caller: PERMISSIONS.message },
    path: "/api/push-service/app/message/set-message-read",
    query: noQuery,
    body: ZSetMessageRead,
    result: z.object({ updated: z.number().int() }),
    summary: "Mark the caller's messages read",
  }),
  setMessageAllRead: endpoint({
    method: "POST",
    access: { caller: PERMISSIONS.message },
    path: "/api/push-service/app/message/set-message-all-read",
    query: noQuery,
    body: undefined,
    result: z.object({ updated: z.number().int() }),
    summary: "Mark every message of the caller read",
  }),
  testSendMessage: endpoint({
    method: "POST",
    access: { caller: PERMISSIONS.message },
    path: "/api/push-service/app/message/test-send-message",
    query: noQuery,
    body: undefined,
    result: ZMessage,
    summary: "Send a test announcement to the caller (stored, hub 2, push)",
  }),

  appDeviceBinding: endpoint({
    method: "POST",
    access: SIGNED_IN,
    path: "/api/push-service/app/jpush/app-device-binding",
    query: z.object({
      registrationId: ZText(256, { trim: true, min: 1 }),
      /** The shell's platform; absent = unknown (treated as android by JPush). */
      platform: z.enum(["android", "ios"]).optional(),
      /**
       * This app installation's random id: the proof that lets a registration bound to another account move
       * here — only the installation that bound it knows it. Absent from older apps (they cannot take one over).
       */
      installationId: ZText(128, { min: 16 })
        .regex(/^[A-Za-z0-9_-]+$/)
        .optional(),
    }),
    body: undefined,
    result: z.null(),
    summary: "Bind this phone's JPush registration to the caller",
  }),
  appDeviceUnbinding: endpoint({
    method: "POST",
    access: SIGNED_IN,
    path: "/api/push-service/app/jpush/app-device-unbinding",
    query: z.object({ registrationId: ZText(256, { trim: true, min: 1 }) }),
    body: undefined,
    result: z.null(),
    summary: "Unbind this phone's JPush registration from the caller",
  }),
  getPushSwitch: endpoint({
    method: "GET",
    access: SIGNED_IN,
    path: "/api/RunLuckyIot/appuser_setting/app/setting/is_open_jpush__message/",
    query: noQuery,
    body: undefined,
    result: z.boolean(),
    summary: "Whether push messages are on for the caller (default on)",
  }),
  setPushSwitch: endpoint({
    method: "POST",
    access: SIGNED_IN,
    path: "/api/RunLuckyIot/appuser_setting/app/setting/is_open_jpush__message/",
    query: z.object({ isOpen: ZBoolQuery }),
    body: undefined,
    result: z.boolean(),
    summary: "Turn push messages on or off for the caller",
  }),

  // Web Push for the installed web app (our extension; standard VAPID).
  getWebPushPublicKey: endpoint({
    method: "GET",
    access: SIGNED_IN,
    path: "/api/push-service/app/web-push/public-key",
    query: noQuery,
    body: undefined,
    result: z.object({ publicKey: z.string().nullable() }),
    summary: "The server's VAPID public key (null when Web Push is off)",
  }),
  webPushSubscribe: endpoint({
    method: "POST",
    access: SIGNED_IN,
    path: "/api/push-service/app/web-push/subscribe",
    query: noQuery,
    body: ZWebPushSubscription,
    result: z.null(),
    summary: "Keep this browser's push subscription for the caller",
  }),
  webPushUnsubscribe: endpoint({
    method: "POST",
    access: SIGNED_IN,
    path: "/api/push-service/app/web-push/unsubscribe",
    query: noQuery,
    body: z.object({ endpoint: ZUrl(2048) }),
    result: z.null(),
    summary: "Forget this browser's push subscription",
  }),
} as const;
