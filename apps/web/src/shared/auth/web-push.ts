import { getNativeConfig } from "../bridge/index.ts";
import { getWebPushPublicKey } from "./api/get-web-push-public-key.ts";
import { subscribeWebPush } from "./api/subscribe-web-push.ts";
import { unsubscribeWebPush } from "./api/unsubscribe-web-push.ts";
import { SERVICE_WORKER_URL, serviceWorkerSupported } from "./service-worker.ts";

/**
 * Web Push for the installed web app (server: Web Push provider with VAPID). The native shells use JPush
 * instead (their config carries a pushRegistrationId). State of this browser: "unsupported" (no service worker or
 * Push API, not a secure context, or inside a native shell), "denied" (notifications blocked for the site), "on" (a
 * subscription exists) or "off".
 */
export type WebPushState = "unsupported" | "denied" | "on" | "off";

/** Whether this browser can receive Web Push here (service worker + Push API + Notification, secure context). */
export function webPushSupported(): boolean {
  return serviceWorkerSupported() && "PushManager" in window && "Notification" in window;
}

/** Decodes a base64url VAPID public key into the bytes `pushManager.subscribe` takes. */
export function vapidKeyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const padded = base64url.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (base64url.length % 4)) % 4);
  const raw = atob(padded);
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

/** This browser's push subscription of the app's service worker, or null (no worker registered, none subscribed). */
async function currentSubscription(): Promise<PushSubscription | null> {
  const registration = await navigator.serviceWorker.getRegistration(SERVICE_WORKER_URL);
  return (await registration?.pushManager.getSubscription()) ?? null;
}

/** This browser's Web Push state (see {@link WebPushState}). */
export async function webPushState(): Promise<WebPushState> {
  if (!webPushSupported() || (await getNativeConfig()).pushRegistrationId) return "unsupported";
  if (Notification.permission === "denied") return "denied";
  return (await currentSubscription()) ? "on" : "off";
}

/**
 * Turns Web Push on for the signed-in user: asks for the notification permission (call from a tap), subscribes with
 * the server's VAPID key (`GET …/web-push/public-key`) and stores the subscription (`POST …/web-push/subscribe`).
 * Resolves the new state. Errors: Error("web-push-off") when the server has no VAPID key; ApiError from the calls;
 * the browser's own errors from subscribe.
 */
export async function enableWebPush(): Promise<WebPushState> {
  if (!webPushSupported()) return "unsupported";
  const permission = await Notification.requestPermission();
  if (permission !== "granted") return permission === "denied" ? "denied" : "off";
  const { publicKey } = await getWebPushPublicKey();
  if (!publicKey) throw new Error("web-push-off");
  const registration =
    (await navigator.serviceWorker.getRegistration(SERVICE_WORKER_URL)) ??
    (await navigator.serviceWorker.register(SERVICE_WORKER_URL, { updateViaCache: "none" }));
  await navigator.serviceWorker.ready;
  const subscription = await registration.pushManager.subscribe({
    userVisibleOnly: true,
    applicationServerKey: vapidKeyBytes(publicKey),
  });
  const json = subscription.toJSON();
  await subscribeWebPush({
    endpoint: subscription.endpoint,
    expirationTime: json.expirationTime ?? null,
    keys: { p256dh: json.keys?.p256dh ?? "", auth: json.keys?.auth ?? "" },
  });
  return "on";
}

/**
 * Turns Web Push off in this browser: tells the server to forget the subscription (failures ignored, spec §8 "Push
 * bind/unbind failures ignored") and unsubscribes. Used by the switch and by logout. Resolves the new state.
 */
export async function disableWebPush(): Promise<WebPushState> {
  if (!webPushSupported()) return "unsupported";
  const subscription = await currentSubscription().catch(() => null);
  if (subscription) {
    await unsubscribeWebPush(subscription.endpoint).catch((err: unknown) =>
      console.info("[push] web push unsubscribe failed (ignored)", err),
    );
    await subscription.unsubscribe().catch(() => false);
  }
  return Notification.permission === "denied" ? "denied" : "off";
}
