import { i18n } from "../i18n/index.ts";
import { ApiError, ClientErrorCode } from "./errors.ts";
import { emitUnauthorized } from "./events.ts";

/**
 * The ABP answer envelope (spec §8): an answer's body read as JSON and turned into the call's result or an
 * {@link ApiError} with the server's message, code and validation messages; a 401 also tells the app the login
 * expired.
 */

interface EnvelopeLike {
  success?: unknown;
  result?: unknown;
  error?: { code?: unknown; message?: unknown; validationErrors?: unknown } | null;
  error_description?: unknown;
}

/** The texts of an ABP error's `validationErrors` (strings or `{message}` objects), empty ones left out. */
function validationMessages(error: EnvelopeLike["error"]): string[] {
  const list = error?.validationErrors;
  if (!Array.isArray(list)) return [];
  return list
    .map((v) => (typeof v === "string" ? v : String((v as { message?: unknown })?.message ?? "")))
    .filter(Boolean);
}

/**
 * Maps an HTTP answer to the result or an {@link ApiError} (spec §8): 401 → "Login expired" with code 401, after
 * emitting the global unauthorised event; any other non-2xx → the server's message (else `error_description`, else
 * the status text, else the generic server error) with the server's code (else the status); a 2xx without an envelope
 * → code -1 and no message; `success` not true → the server's message (else "request failed"). Answers the
 * envelope's `result`, null when it has none.
 */
export function unwrapResponse(status: number, statusText: string, body: unknown): unknown {
  const data = (body && typeof body === "object" ? body : {}) as EnvelopeLike;
  if (status === 401) {
    emitUnauthorized();
    throw new ApiError(i18n.t("errors.loginExpired"), 401, 401);
  }
  if (status < 200 || status >= 300) {
    const message =
      (typeof data.error?.message === "string" && data.error.message) ||
      (typeof data.error_description === "string" && data.error_description) ||
      statusText ||
      i18n.t("errors.serverError");
    const code = typeof data.error?.code === "string" && data.error.code ? data.error.code : status;
    throw new ApiError(message, code, status, validationMessages(data.error));
  }
  if (data.success === undefined && (data.error === undefined || data.error === null)) {
    throw new ApiError("", ClientErrorCode.NoEnvelope, status);
  }
  if (data.success !== true) {
    const message = (typeof data.error?.message === "string" && data.error.message) || i18n.t("errors.requestFailed");
    const code = typeof data.error?.code === "string" && data.error.code ? data.error.code : status;
    throw new ApiError(message, code, status, validationMessages(data.error));
  }
  return data.result ?? null;
}

/** An answer's body as JSON, or null when it is empty, unreadable or not JSON (never throws). */
export async function readJson(response: Response): Promise<unknown> {
  const text = await response.text().catch(() => "");
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
