import { getNativeConfig } from "../bridge/index.ts";
import { afterFirstScreen, nextTask } from "../scheduling/index.ts";

/** The service worker file, next to index.html (apps/web/public/sw.js). */
export const SERVICE_WORKER_URL = "./sw.js";

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
 * has loaded and the first screen is in, in a task of its own (registering costs the main thread too; issue 12: not
 * in the task of the first render); ignored where unsupported or inside a native shell (which ships its own files
 * and uses JPush); errors logged, never thrown. The worker's file is always checked with the server (`updateViaCache: "none"`). When a new
 * build's worker takes over a page an older one controlled, the page reloads once, so the app runs the code the
 * worker now serves (the first worker taking over an uncontrolled page changes nothing on it: no reload).
 */
export async function registerServiceWorker(): Promise<void> {
  if (!serviceWorkerSupported() || (await getNativeConfig()).pushRegistrationId) return;
  await pageLoaded();
  await afterFirstScreen();
  await nextTask();
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
