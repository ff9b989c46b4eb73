// AquaPilot service worker: the installed web app's shell offline (a repeat start fetches no code over the network)
// and Web Push notifications.
//
// Shell: the build writes the list of its shell files (index.html, every file under assets/, the icon and the
// manifest) and a hash of their contents into SHELL below (apps/web/vite-delivery.ts). Installing stores them in the
// cache "aquapilot-shell-<hash>"; the app's page and code are then answered from that cache, without a network round
// trip. A new build is a new worker (its SHELL differs): it installs its own cache, takes over at once and deletes
// the older ones; the page reloads on the change (src/shared/auth/service-worker.ts). Missing entries (the app's "clear
// cache" empties every cache) are fetched from the network and stored again. Nothing else is ever cached: the API,
// /connect, the hubs, uploads, version.json and /dev always go to the network.
//
// Push: the server's Web Push provider sends JSON {title, body, messageId, deviceId, type, event}; a tap opens that
// message in the app.

const SHELL = /* shell-manifest */ { build: "development", urls: [] } /* end-shell-manifest */;

const CACHE_PREFIX = "aquapilot-shell-";
const CACHE_NAME = CACHE_PREFIX + SHELL.build;
const SCOPE = new URL(self.registration.scope);
const INDEX_URL = new URL("./index.html", SCOPE).href;
const SHELL_URLS = new Set(SHELL.urls.map((u) => new URL(u, SCOPE).href));
/** Paths (relative to the scope) that never come from, nor go into, the cache. */
const NETWORK_ONLY = ["api/", "connect/", "signalr-hubs/", "uploads/", "dev/", "iot/", "version.json"];

/** Fetches every shell file the cache lacks and stores it; a failed file is left for later (logged). */
async function fillShell() {
  const cache = await caches.open(CACHE_NAME);
  await Promise.all(
    [...SHELL_URLS].map(async (url) => {
      if (await cache.match(url)) return;
      try {
        // "no-cache": revalidated with the server (ETag), so a stale copy in the HTTP cache never enters the shell.
        const response = await fetch(url, { cache: "no-cache", credentials: "same-origin" });
        if (response.ok) await cache.put(url, response);
        else console.warn("[sw] shell file not stored", url, response.status);
      } catch (err) {
        console.warn("[sw] shell file not stored", url, err);
      }
    }),
  );
}

/** The cached answer to `request` (stored under `key`), else the network's, stored for next time when it is a 200. */
async function cacheFirst(event, request, key) {
  const cache = await caches.open(CACHE_NAME);
  const cached = await cache.match(key);
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok && response.type === "basic") event.waitUntil(cache.put(key, response.clone()));
  return response;
}

/**
 * The requests the browser sends straight to the network without this worker (the static routing API, where the
 * browser has it): the network-only paths and every request that is not a GET, which the fetch handler below would
 * pass through anyway. Without the routes, each of the app's calls waits for the worker to be started and to hand it
 * back (on the Device screen's start, the calls after the worker took over the page cost several times
 * more). Each group is added on its own, so a browser that lacks one kind of condition still takes the other.
 */
function networkRoutes(event) {
  if (typeof event.addRoutes !== "function") return [];
  const groups = [];
  if (typeof URLPattern === "function") {
    groups.push(
      NETWORK_ONLY.map((p) => ({
        condition: { urlPattern: new URLPattern({ pathname: `${SCOPE.pathname}${p}${p.endsWith("/") ? "*" : ""}` }) },
        source: "network",
      })),
    );
  }
  groups.push(
    ["POST", "PUT", "PATCH", "DELETE"].map((method) => ({ condition: { requestMethod: method }, source: "network" })),
  );
  return groups.map((rules) =>
    Promise.resolve()
      .then(() => event.addRoutes(rules))
      .catch((err) => console.info("[sw] routes not added", err)),
  );
}

self.addEventListener("install", (event) => {
  self.skipWaiting();
  event.waitUntil(Promise.all([...networkRoutes(event), fillShell()]));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      const names = await caches.keys();
      await Promise.all(
        names.filter((n) => n.startsWith(CACHE_PREFIX) && n !== CACHE_NAME).map((n) => caches.delete(n)),
      );
      await self.clients.claim();
    })(),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== SCOPE.origin || !url.pathname.startsWith(SCOPE.pathname)) return;
  const path = url.pathname.slice(SCOPE.pathname.length);
  if (NETWORK_ONLY.some((p) => path.startsWith(p))) return;
  if (request.mode === "navigate") {
    // The app's page (hash routes: every screen is "/" or "/index.html"); its query is not part of the shell.
    if (path !== "" && path !== "index.html") return;
    event.respondWith(
      (async () => {
        const cache = await caches.open(CACHE_NAME);
        const cached = await cache.match(INDEX_URL);
        if (cached) return cached;
        // Not in the cache (first visit before the install finished, or the caches were cleared): the network,
        // and the whole shell again in the background.
        event.waitUntil(fillShell());
        return fetch(request);
      })(),
    );
    return;
  }
  const key = url.origin + url.pathname;
  if (SHELL_URLS.has(key) || path.startsWith("assets/")) event.respondWith(cacheFirst(event, request, key));
});

self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data?.json() ?? {};
  } catch {
    data = { title: "AquaPilot", body: event.data?.text() ?? "" };
  }
  const title = data.title || "AquaPilot";
  event.waitUntil(
    self.registration.showNotification(title, {
      body: data.body || "",
      icon: "./favicon.svg",
      tag: data.messageId || undefined,
      data: { messageId: data.messageId || null },
    }),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const id = event.notification.data?.messageId;
  const params = id ? `&params=${encodeURIComponent(JSON.stringify({ id }))}` : "";
  const url = new URL(`./#/App?target=/MessageDetails${params}`, self.registration.scope).href;
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((list) => {
      for (const client of list) {
        if ("focus" in client) {
          if ("navigate" in client) client.navigate(url);
          return client.focus();
        }
      }
      return self.clients.openWindow(url);
    }),
  );
});
