import type { RequestBody } from "./transport.ts";

/**
 * Joining identical creating or commanding calls (spec §7 idempotency): a call made while an identical one is under
 * way (a double tap) gets the first one's answer instead of being sent again. Identical means same method, URL, body
 * kind and body text; a body without a comparable text (multipart, binary) and a call its owner may cancel are never
 * joined.
 */

/** Creating or commanding calls under way, by method, URL and body: an identical one joins the first. */
const inFlight = new Map<string, Promise<unknown>>();

/**
 * Runs `start` unless an identical call is under way, and then answers that call's promise instead (same result,
 * same error). The call is forgotten once it settles, so a later identical call is sent again.
 * Never joined, `start` runs: a body whose `signature` is null (multipart, binary) and any call with a `signal`.
 */
export async function joinIdentical<T>(
  method: string,
  url: string,
  body: RequestBody | undefined,
  signal: AbortSignal | undefined,
  start: () => Promise<T>,
): Promise<T> {
  // A call its owner may cancel (a query's read sent as POST) is never joined: the one joined would share the first
  // caller's cancellation, and a refetch that replaces a cancelled read would get its abort instead of an answer.
  if ((body && body.signature === null) || signal) return start();
  const sameCall = `${method} ${url} ${body?.kind ?? ""} ${body?.signature ?? ""}`;
  const running = inFlight.get(sameCall);
  if (running) return running as Promise<T>;
  const call = start();
  inFlight.set(sameCall, call);
  try {
    return await call;
  } finally {
    inFlight.delete(sameCall);
  }
}
