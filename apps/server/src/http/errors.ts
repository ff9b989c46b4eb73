import { ErrorCode, type TValidationError } from "@aquapilot/contract";
import type { MessageKey } from "./messages.ts";

/**
 * The one table of the domain error codes (spec §8): for each {@link ErrorCode} of the
 * contract, the HTTP status an AppError with it is answered with and what it means to a client. docs/errors.md is
 * generated from it, with every message key the server answers under each code (`npm run generate:errors -w
 * apps/server`).
 */
export const DOMAIN_ERRORS: Readonly<Record<ErrorCode, { status: number; meaning: string }>> = {
  Validation: { status: 400, meaning: "The input breaks a rule of the contract or of the domain; nothing changed." },
  InvalidCode: {
    status: 400,
    meaning: "A verification code, share code, pairing code or ticket is wrong, expired, used up or revoked.",
  },
  Unauthorized: { status: 401, meaning: "No, an invalid or an expired bearer token (unAuthorizedRequest true)." },
  Forbidden: {
    status: 403,
    meaning: "Signed in, but not allowed: a member who is not the administrator, or a permission not held.",
  },
  NotFound: {
    status: 404,
    meaning: "Unknown object, or one the caller has no part in: another household's or user's (indistinguishable).",
  },
  Conflict: { status: 409, meaning: "The object's current state refuses the change (taken, handled, in progress)." },
  TooManyRequests: { status: 429, meaning: "A rate limit; Retry-After says how many seconds to wait." },
  DeviceOffline: { status: 409, meaning: "The device must be online for this and is not." },
  Internal: {
    status: 500,
    meaning: "An unexpected failure or a delivery that failed; nothing was half-written. Try again later.",
  },
};

/** HTTP status for each error code ({@link DOMAIN_ERRORS}; the one error handler writes the ABP envelope with it). */
export const ERROR_STATUS: Readonly<Record<ErrorCode, number>> = Object.fromEntries(
  Object.entries(DOMAIN_ERRORS).map(([code, { status }]) => [code, status]),
) as Record<ErrorCode, number>;

/**
 * The one error type services throw. `messageKey` is a key of the server's message catalogue (http/messages.ts
 * {@link MessageKey}: a key no catalogue part defines does not compile), so the error envelope is written in the
 * caller's language; `params` fill its {placeholders}.
 * `cause` (optional) is logged by the error handler for 5xx answers, never sent to the client.
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly messageKey: MessageKey;
  readonly params: Record<string, string | number>;
  readonly validationErrors: TValidationError[] | null;
  constructor(
    code: ErrorCode,
    messageKey: MessageKey,
    params: Record<string, string | number> = {},
    validationErrors: TValidationError[] | null = null,
    cause?: unknown,
  ) {
    super(messageKey, cause === undefined ? undefined : { cause });
    this.messageKey = messageKey;
    this.params = params;
    this.validationErrors = validationErrors;
    this.name = "AppError";
    this.code = code;
    this.status = ERROR_STATUS[code];
  }

  /** The same as `status`, under the name Fastify and scoped error handlers read (e.g. device activation's). */
  get statusCode(): number {
    return this.status;
  }
}

export { ErrorCode };
