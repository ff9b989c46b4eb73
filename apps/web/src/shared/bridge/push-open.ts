/**
 * Native → web event of spec §2 "The native side can open the message list when a push message arrives": when the
 * user taps a push notification, the Android/iOS shell calls `window.AquaPilotOpenMessages(payload?)`. `payload` is
 * optional: a message id, or JSON text / an object with `messageId` (or `id`) to open that message; without one the
 * message list opens. The call returns true when the web app took it. A call made before the app listens (cold start
 * from a notification) is kept and delivered to the first listener.
 */

declare global {
  interface Window {
    /** Called by native shells when a push notification is tapped; see {@link onPushMessageOpened}. */
    AquaPilotOpenMessages?: (payload?: unknown) => boolean;
  }
}

type Listener = (messageId: string | null) => void;

const listeners = new Set<Listener>();
let pending: { messageId: string | null } | null = null;

/** Reads the message id out of what a shell passes: an id, JSON text or an object with `messageId`/`id`. */
export function parsePushPayload(payload: unknown): string | null {
  let value = payload;
  if (typeof value === "string") {
    const text = value.trim();
    if (!text) return null;
    if (!text.startsWith("{")) return text.length <= 64 ? text : null;
    try {
      value = JSON.parse(text);
    } catch {
      return null;
    }
  }
  if (value && typeof value === "object") {
    const o = value as { messageId?: unknown; id?: unknown };
    const id = o.messageId ?? o.id;
    if ((typeof id === "string" && id) || typeof id === "number") return String(id);
  }
  return null;
}

/** Delivers one "push message opened" event (what `window.AquaPilotOpenMessages` does); true when someone listened. */
export function emitPushMessageOpened(payload?: unknown): boolean {
  const messageId = parsePushPayload(payload);
  if (listeners.size === 0) {
    pending = { messageId };
    return true;
  }
  for (const l of listeners) l(messageId);
  return true;
}

/**
 * Listens for taps on push notifications: `listener(messageId)` gets the message id, or null for "open the list".
 * A tap that came before any listener is delivered at once. Returns the unsubscribe function.
 */
export function onPushMessageOpened(listener: Listener): () => void {
  listeners.add(listener);
  if (pending) {
    const { messageId } = pending;
    pending = null;
    listener(messageId);
  }
  return () => listeners.delete(listener);
}

if (typeof window !== "undefined") {
  window.AquaPilotOpenMessages = (payload?: unknown) => emitPushMessageOpened(payload);
}
