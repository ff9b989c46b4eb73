/**
 * The global unauthorised event of spec §4/§8: any call answered with HTTP 401 (or a refused token refresh) emits it;
 * the app shell listens, destroys cached pages and queries and goes to Login.
 */
const target = new EventTarget();
const UNAUTHORIZED = "unauthorized";

/** Emits the unauthorised event (spec §8 "HTTP 401 … global unauthorised event"). */
export function emitUnauthorized(): void {
  target.dispatchEvent(new Event(UNAUTHORIZED));
}

/** Subscribes to the unauthorised event; returns the unsubscribe function. */
export function onUnauthorized(listener: () => void): () => void {
  target.addEventListener(UNAUTHORIZED, listener);
  return () => target.removeEventListener(UNAUTHORIZED, listener);
}
