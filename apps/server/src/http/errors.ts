import { ErrorCode, type TValidationError } from "@aquapilot/contract";
import type { MessageKey } from "./messages.ts";

/** HTTP status for each error code (the one error handler writes the ABP envelope with it). */
export const ERROR_STATUS: Record<ErrorCode, number> = {
  Validation: 400,
  InvalidCode: 400,
  Unauthorized: 401,
  Forbidden: 403,
  NotFound: 404,
  Conflict: 409,
  TooManyRequests: 429,
  DeviceOffline: 409,
  Internal: 500,
};

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
