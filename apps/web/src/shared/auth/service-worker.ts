import { afterFirstScreen, nextTask } from "../../first-paint/scheduling.ts";
import { getNativeConfig } from "../bridge/index.ts";

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

/** How long the page's network must stay quiet before the worker is registered, ms ({@link whenNetworkQuiet}). */
export const SERVICE_WORKER_QUIET_MS = 2_000;

/** The longest the worker's registration waits for a quiet network after the first screen, ms. */
export const SERVICE_WORKER_QUIET_MAX_MS = 15_000;

/**
 * Calls `onResource` for each resource the page finishes loading (the Resource Timing entries: files and calls, not
 * WebSocket messages); returns the unsubscribe. Nothing where the browser has no such observer.
 */
function observeResources(onResource: () => void): () => void {
  const Observer = typeof PerformanceObserver === "function" ? PerformanceObserver : null;
  if (!Observer || !(Observer.supportedEntryTypes ?? []).includes("resource")) return () => {};
  const observer = new Observer(() => onResource());
  observer.observe({ type: "resource" });
  return () => observer.disconnect();
}

/**
 * Resolves once no resource of the page has finished loading for `quietMs` (the first screen's follow-up calls, the
 * hub's negotiation, the statistics and the chunks they bring are done), at the latest after `maxMs`.
 * @param quietMs the quiet time asked for, ms
 * @param maxMs the longest wait, ms
 * @param observe subscribes to finished resources ({@link observeResources}; tests pass their own)
 */
export function whenNetworkQuiet(
  quietMs: number,
  maxMs: number,
  observe: (onResource: () => void) => () => void = observeResources,
): Promise<void> {
  return new Promise((resolve) => {
    let quiet: ReturnType<typeof setTimeout> | undefined;
    const done = () => {
      clearTimeout(quiet);
      clearTimeout(limit);
      stop();
      resolve();
    };
    const restart = () => {
      clearTimeout(quiet);
      quiet = setTimeout(done, quietMs);
    };
    const limit = setTimeout(done, maxMs);
    const stop = observe(restart);
    restart();
  });
}

/**
 * Registers the service worker (public/sw.js: the app shell offline, so a repeat start fetches no code over the
 * network, and Web Push) once the page has loaded, the first screen is in and the page's network has been quiet for
 * {@link SERVICE_WORKER_QUIET_MS} (at most {@link SERVICE_WORKER_QUIET_MAX_MS} after the first screen): installing
 * fetches and stores the whole shell (some 220 files, ~650 KB compressed), which must not share the phone's network and
 * cores with the first screen's own calls, hub and charts (beside them it lengthened every task of the start), in a
 * task of its own (registering costs the main thread too: not in the task of the first render); ignored where
 * unsupported or inside a native shell (which ships its own files and uses JPush); errors logged, never thrown. The
 * worker's file is always checked with the server (`updateViaCache: "none"`). When a new build's worker takes over a
 * page an older one controlled, the page reloads once, so the app runs the code the worker now serves (the first worker
 * taking over an uncontrolled page changes nothing on it: no reload).
 */
export async function registerServiceWorker(): Promise<void> {
  // Even the first look at `navigator.serviceWorker` costs several ms: not in the task that shows the first screen.
  await nextTask();
  if (!serviceWorkerSupported() || (await getNativeConfig()).pushRegistrationId) return;
  const container = navigator.serviceWorker;
  // A page an older worker controls reloads when a new one takes over, at once: the browser may find the new build's
  // worker (its own update check, a navigation) before this page registers.
  if (container.controller) {
    container.addEventListener("controllerchange", () => window.location.reload(), { once: true });
  }
  await pageLoaded();
  await afterFirstScreen();
  await whenNetworkQuiet(SERVICE_WORKER_QUIET_MS, SERVICE_WORKER_QUIET_MAX_MS);
  await nextTask();
  try {
    await container.register(SERVICE_WORKER_URL, { updateViaCache: "none" });
  } catch (err) {
    console.info("[sw] service worker not registered", err);
  }
}
