import { endpoints } from "@aquapilot/contract/wire";
import { api } from "../api/client.ts";
import { getNativeConfig } from "../bridge/index.ts";

/**
 * Web Push for the installed web app (issue 5; server: Web Push provider with VAPID). The native shells use JPush
 * instead (their config carries a pushRegistrationId). State of this browser: "unsupported" (no service worker or
 * Push API, not a secure context, or inside a native shell), "denied" (notifications blocked for the site), "on" (a
 * subscription exists) or "off".
 */
export type WebPushState = "unsupported" | "denied" | "on" | "off";

/** The service worker file, next to index.html (apps/web/public/sw.js). */
export const SERVICE_WORKER_URL = "./sw.js";

/** Whether this browser can receive Web Push here (service worker + Push API + Notification, secure context). */
export function webPushSupported(): boolean {
  return (
    typeof window !== "undefined" &&
    window.isSecureContext === true &&
    "serviceWorker" in navigator &&
    "PushManager" in window &&
    "Notification" in window
  );
}

/** Decodes a base64url VAPID public key into the bytes `pushManager.subscribe` takes. */
export function vapidKeyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const padded = base64url.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (base64url.length % 4)) % 4);
  const raw = atob(padded);
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

/** Whether this browser can run the app's service worker here (service worker API, secure context). */
export function serviceWorkerSupported(): boolean {
  return typeof window !== "undefined" && window.isSecureContext === true && "serviceWorker" in navigator;
}

/** Resolves once the page has loaded (at once when it has), so the worker's downloads never compete with it. */
function pageLoaded(): Promise<void> {
  if (document.readyState === "complete") return Promise.resolve();
  return new Promise((resolve) => window.addEventListener("load", () => resolve(), { once: true }));
}

/**
 * Registers the service worker (public/sw.js: the app shell offline, issue 12, and Web Push, issue 5) once the page
 * has loaded; ignored where unsupported or inside a native shell (which ships its own files and uses JPush); errors
 * logged. The worker's file is always checked with the server (`updateViaCache: "none"`). When a new build's worker
 * takes over a page an older one controlled, the page reloads once, so the app runs the code the worker now serves
 * (the first worker taking over an uncontrolled page changes nothing on it: no reload).
 */
export async function registerServiceWorker(): Promise<void> {
  if (!serviceWorkerSupported() || (await getNativeConfig()).pushRegistrationId) return;
  await pageLoaded();
  const container = navigator.serviceWorker;
  if (container.controller) {
    container.addEventListener("controllerchange", () => window.location.reload(), { once: true });
  }
  try {
    await container.register(SERVICE_WORKER_URL, { updateViaCache: "none" });
  } catch (err) {
    console.info("[sw] service worker not registered", err);
  }
}

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
  const { publicKey } = await api(endpoints.getWebPushPublicKey, {});
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
  await api(endpoints.webPushSubscribe, {
    body: {
      endpoint: subscription.endpoint,
      expirationTime: json.expirationTime ?? null,
      keys: { p256dh: json.keys?.p256dh ?? "", auth: json.keys?.auth ?? "" },
    },
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
    await api(endpoints.webPushUnsubscribe, { body: { endpoint: subscription.endpoint } }).catch((err: unknown) =>
      console.info("[push] web push unsubscribe failed (ignored)", err),
    );
    await subscription.unsubscribe().catch(() => false);
  }
  return Notification.permission === "denied" ? "denied" : "off";
}
