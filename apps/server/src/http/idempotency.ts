import { createHmac } from "node:crypto";
import type { FastifyInstance } from "fastify";
import type { Db } from "../db/index.ts";
import { AppError, ErrorCode } from "./errors.ts";
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  purgeIdempotencyKeys,
  releaseIdempotencyKey,
} from "./idempotency-store.ts";

/** The request header carrying the client's idempotency key (lower-case, as Node gives headers). */
export const IDEMPOTENCY_HEADER = "idempotency-key";
/** Set to "true" on an answer replayed for a repeated key. */
export const IDEMPOTENCY_REPLAYED_HEADER = "idempotency-replayed";
/** The secret file (in DATA_DIR) keying request fingerprints, so no stored fingerprint reveals a request's values. */
export const IDEMPOTENCY_KEY_FILE = "idempotency-fingerprint.key";
/** A repeat that arrives while the first request runs waits at most this long for its answer, ms. */
export const IDEMPOTENCY_WAIT_MS = 10_000;
const POLL_MS = 50;
/** Forgotten keys are deleted at most this often per process (not on every request), ms. */
const PURGE_EVERY_MS = 10 * 60_000;

/** 1–128 printable ASCII characters without spaces (a UUID is typical). */
const KEY_PATTERN = /^[\x21-\x7e]{1,128}$/;
const KEYED_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

declare module "fastify" {
  interface FastifyRequest {
    /** The idempotency key this request claimed (answer stored on send); null without one. */
    idempotency: { caller: string; key: string } | null;
  }
}

/**
 * The idempotency key a request carries, when it is one this server honours: only a POST, PUT, PATCH or DELETE with
 * an `Idempotency-Key` header is keyed (`header` is that header as Node gives it: a string, or an array when sent
 * twice). Answers the key, or null for an unkeyed request (another method, or no header).
 * @throws AppError Validation (400 idempotency.keyInvalid) for a key that is not 1–128 printable ASCII characters
 *   without spaces, or a header sent more than once.
 */
export function idempotencyKeyOf(method: string, header: string | string[] | undefined): string | null {
  if (!KEYED_METHODS.has(method)) return null;
  if (header === undefined) return null;
  if (typeof header !== "string" || !KEY_PATTERN.test(header))
    throw new AppError(ErrorCode.Validation, "idempotency.keyInvalid");
  return header;
}

/** Whose key space a keyed request uses: the signed-in user's id, or "anonymous" before sign-in. */
export function idempotencyCaller(user: { id: string } | null | undefined): string {
  return user?.id ?? "anonymous";
}

/**
 * The fingerprint of a keyed request, hex HMAC-SHA256 under `key` of its method, route pattern, path parameters,
 * query and body (a missing body as null): two requests with the same key are "the same request" when it is equal.
 * Keyed, so a stored fingerprint reveals none of the request's values.
 */
export function requestFingerprint(
  key: Uint8Array,
  request: { method: string; route: string | undefined; params: unknown; query: unknown; body: unknown },
): string {
  const { method, route, params, query, body } = request;
  return createHmac("sha256", key)
    .update(JSON.stringify([method, route, params, query, body ?? null]))
    .digest("hex");
}

/**
 * Whether an answer is kept for replay under its key: any answer below 500 with a text body (the envelope). A 5xx
 * is not kept, so a retry runs the request again; nor is a streamed body, which cannot be stored.
 * @param status the HTTP status; `payload` the body as Fastify's onSend hook sees it.
 */
export function keepsAnswer(status: number, payload: unknown): payload is string {
  return status < 500 && typeof payload === "string";
}

/** What {@link registerIdempotency} needs. */
export interface IdempotencyDeps {
  db: Db;
  /** HMAC-SHA256 key of request fingerprints (the same in every server process, like the token keys). */
  fingerprintKey: Uint8Array;
  /** The clock of the 24-hour window and of abandoned keys. */
  now: () => Date;
}

/**
 * Honours `Idempotency-Key` on every creating or commanding call, so every submit happens once: a POST, PUT,
 * PATCH or DELETE carrying the header is run once per caller (the user, or "anonymous" before sign-in) and key within
 * 24 hours; a repeat with the same request gets the first answer again (status and envelope, with
 * `Idempotency-Replayed: true`) and nothing is done twice. A repeat arriving while the first runs waits for its
 * answer (up to {@link IDEMPOTENCY_WAIT_MS}), so a double tap sees one success rather than an error. The keys live in
 * the database (idempotency_keys), so this holds on both engines and across server processes. Answers of 5xx are
 * not kept (a retry runs again); validation and authentication answer before a key is claimed.
 * Errors (envelope, caller's language): 400 `idempotency.keyInvalid` for a malformed key; 409
 * `idempotency.keyReused` when the key came with a different request; 409 `idempotency.inProgress` when the first
 * request is still running after the wait. Register once on the root app, before the routes.
 */
export function registerIdempotency(app: FastifyInstance, deps: IdempotencyDeps): void {
  const { db, fingerprintKey, now } = deps;
  app.decorateRequest("idempotency", null);
  let nextPurge = 0;

  app.addHook("preHandler", async (request, reply) => {
    const header = idempotencyKeyOf(request.method, request.headers[IDEMPOTENCY_HEADER]);
    if (header === null) return;
    const caller = idempotencyCaller(request.user);
    const fingerprint = requestFingerprint(fingerprintKey, {
      method: request.method,
      route: request.routeOptions.url,
      params: request.params,
      query: request.query,
      body: request.body,
    });
    const claim = { caller, key: header, fingerprint };
    if (Date.now() >= nextPurge) {
      nextPurge = Date.now() + PURGE_EVERY_MS;
      await purgeIdempotencyKeys(db, now());
    }
    const deadline = Date.now() + IDEMPOTENCY_WAIT_MS;
    for (;;) {
      const outcome = await claimIdempotencyKey(db, claim, now());
      if (outcome.kind === "claimed") {
        request.idempotency = { caller, key: header };
        return;
      }
      if (outcome.kind === "replay") {
        reply
          .code(outcome.status)
          .header(IDEMPOTENCY_REPLAYED_HEADER, "true")
          .type("application/json; charset=utf-8")
          .send(outcome.body);
        return reply;
      }
      if (outcome.kind === "mismatch") throw new AppError(ErrorCode.Conflict, "idempotency.keyReused");
      if (Date.now() >= deadline) throw new AppError(ErrorCode.Conflict, "idempotency.inProgress");
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  });

  app.addHook("onSend", async (request, reply, payload) => {
    const ref = request.idempotency;
    if (!ref) return payload;
    request.idempotency = null;
    try {
      if (keepsAnswer(reply.statusCode, payload)) await completeIdempotencyKey(db, ref, reply.statusCode, payload);
      else await releaseIdempotencyKey(db, ref);
    } catch (err) {
      // The answer itself stands; a repeat then waits for the abandoned key and runs again after a minute.
      request.log.error({ err }, "idempotency key not stored");
    }
    return payload;
  });
}
