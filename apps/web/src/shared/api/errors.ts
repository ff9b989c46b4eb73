/**
 * Error codes of spec §8 produced on the client side (the server's own codes are strings from `ErrorCode`).
 * -1: an answer without success flag and without error object; -2: a network failure without a response.
 */
export const ClientErrorCode = { NoEnvelope: -1, Network: -2 } as const;

/**
 * The one error every API call rejects with (spec §8). `code` is the server's `error.code`, the OAuth `error`,
 * a client code of {@link ClientErrorCode}, or the HTTP status; `status` is the HTTP status when there was a response.
 */
export class ApiError extends Error {
  readonly code: string | number;
  readonly status: number | null;
  readonly validationErrors: string[];

  constructor(message: string, code: string | number, status: number | null, validationErrors: string[] = []) {
    super(message);
    this.name = "ApiError";
    this.code = code;
    this.status = status;
    this.validationErrors = validationErrors;
  }
}

/** Whether an error is the HTTP 401 "Login expired" of spec §8. */
export function isUnauthorized(err: unknown): boolean {
  return err instanceof ApiError && err.status === 401;
}

/** The text to show for an error, or `fallback` when it carries none (call sites add a localised fallback). */
export function errorMessage(err: unknown, fallback: string): string {
  if (err instanceof Error && err.message) return err.message;
  return fallback;
}
