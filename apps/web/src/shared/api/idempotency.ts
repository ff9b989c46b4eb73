import { ApiError } from "./errors.ts";
import { transmit, type WireRequest } from "./transport.ts";

/**
 * Idempotency keys (spec §7 creating and commanding calls): which calls carry an `Idempotency-Key`, the key itself,
 * and the one thing a key makes safe, sending a call once more when its answer was lost. The server runs a key once
 * per caller within 24 h and replays its first answer to a repeat, so a resend is never done twice.
 */

/** Methods that create or command: they carry an `Idempotency-Key`, so a resend is never done twice. */
export const KEYED_METHODS: ReadonlySet<string> = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** A fresh idempotency key: a random v4 UUID. */
export function newIdempotencyKey(): string {
  return crypto.randomUUID();
}

/**
 * The `Idempotency-Key` a call to `method` carries: `given` or a fresh one for a creating or commanding method
 * ({@link KEYED_METHODS}), null for a read.
 */
export function idempotencyKeyFor(method: string, given: string | undefined): string | null {
  return KEYED_METHODS.has(method) ? (given ?? newIdempotencyKey()) : null;
}

/**
 * Sends `request` to `url` and answers the `Response`; a keyed call (`keyed` true) whose answer was lost on the
 * network ({@link ApiError}, code -2) is sent once more with the same key, which the server runs once. Errors: the
 * second attempt's error, or the first one's for an unkeyed call or anything but a lost answer (an abort, say).
 */
export async function transmitKeyed(url: string, request: WireRequest, keyed: boolean): Promise<Response> {
  try {
    return await transmit(url, request);
  } catch (err) {
    if (!keyed || !(err instanceof ApiError)) throw err;
    return transmit(url, request);
  }
}
