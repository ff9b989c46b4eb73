// AquaPilot service worker: Web Push notifications for the installed web app (issue 5). The server's Web Push
// provider sends JSON {title, body, messageId, deviceId, type, event}; a tap opens that message in the app.
self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

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
