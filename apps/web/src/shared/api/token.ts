import {
  REVOCATION_PATH,
  TOKEN_ENDED_REASONS,
  TOKEN_PATH,
  type TTokenEndedReason,
  type TTokenRequest,
  type TTokenResponse,
} from "@aquapilot/contract/wire";
import { endingOfReason, noteEnding } from "../auth/ending.ts";
import { i18n } from "../i18n/index.ts";
import { getItem, removeItem, type StoredToken, setItem } from "../storage/index.ts";
import { ApiError, ClientErrorCode } from "./errors.ts";
import { emitUnauthorized } from "./events.ts";
import { commonHeaders, formBody, transmit } from "./transport.ts";

/**
 * OAuth 2.0 token calls of `POST /connect/token` (form-urlencoded; password and refresh_token grants) and the
 * refresh-before-expiry rule. Errors come back as `{error, error_description}` (not the ABP envelope). They go over the
 * same wire as `api()` (transport.ts: form body, language, time-zone, project and tenant headers, network failures as
 * code -2) but not through it: they carry no bearer token and answer no envelope, and `api()` itself waits on them.
 */

/** Refresh this long before the access token expires, ms. */
export const REFRESH_MARGIN_MS = 60_000;

let tokenBaseUrl = "";
let refreshing: Promise<StoredToken | null> | null = null;

/** Sets the host of the token endpoint ("" = same origin). */
export function setTokenBaseUrl(url: string): void {
  tokenBaseUrl = url.replace(/\/+$/, "");
}

/**
 * A refused token request ({@link ApiError}) with, for a refresh token whose session ended, why it ended (the token
 * endpoint's `ended_reason`; null when not given).
 */
export class TokenRefusedError extends ApiError {
  readonly endedReason: TTokenEndedReason | null;
  constructor(message: string, code: string | number, status: number, endedReason: TTokenEndedReason | null) {
    super(message, code, status);
    this.endedReason = endedReason;
  }
}

/**
 * Posts one token request and returns the token as stored (expiry converted to an absolute time, ms).
 * Errors: {@link TokenRefusedError} with the OAuth `error` code (e.g. "invalid_grant"), `error_description` as
 * message and the `ended_reason` of a refused refresh; {@link ApiError} code -2 on a network failure.
 */
export async function requestToken(request: TTokenRequest, now: () => number = Date.now): Promise<StoredToken> {
  const response = await transmit(tokenBaseUrl + TOKEN_PATH, {
    method: "POST",
    headers: commonHeaders(),
    body: formBody(request),
  });
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const data = (body ?? {}) as { error?: unknown; error_description?: unknown; ended_reason?: unknown };
    const message =
      (typeof data.error_description === "string" && data.error_description) ||
      response.statusText ||
      i18n.t("errors.serverError");
    const code = typeof data.error === "string" ? data.error : response.status;
    const reason = TOKEN_ENDED_REASONS.find((r) => r === data.ended_reason) ?? null;
    throw new TokenRefusedError(message, code, response.status, reason);
  }
  if (!isTokenResponse(body)) throw new ApiError("", ClientErrorCode.NoEnvelope, response.status);
  return {
    accessToken: body.access_token,
    refreshToken: body.refresh_token,
    expiresAt: now() + body.expires_in * 1000,
  };
}

/**
 * Whether a token answer has the shape of the contract's `ZTokenResponse` (RFC 6749 §5.1): checked by hand, not by
 * the schema, because sign-in is on the first screen, which loads no zod (its size budget is tight).
 */
function isTokenResponse(body: unknown): body is TTokenResponse {
  const b = body as Partial<Record<keyof TTokenResponse, unknown>> | null;
  return (
    typeof b === "object" &&
    b !== null &&
    typeof b.access_token === "string" &&
    b.token_type === "Bearer" &&
    Number.isInteger(b.expires_in) &&
    typeof b.refresh_token === "string"
  );
}

/** Signs in with the password grant (spec §5 Login) and stores the token. Errors as {@link requestToken}. */
export async function loginWithPassword(username: string, password: string): Promise<StoredToken> {
  const token = await requestToken({ grant_type: "password", username, password });
  setItem("token", token);
  return token;
}

/** Name of the Web Lock that lets one tab at a time exchange the shared refresh token. */
export const REFRESH_LOCK = "aquapilot-token-refresh";

/**
 * Runs `exchange` holding the {@link REFRESH_LOCK} Web Lock, so tabs of the app (which share the stored token) never
 * present one refresh token twice: the server takes a spent refresh token presented again for a stolen one and ends
 * the whole session. Without the Web Locks API (old WebViews) it runs at once.
 */
function withRefreshLock<T>(exchange: () => Promise<T>): Promise<T> {
  const locks = typeof navigator === "undefined" ? undefined : navigator.locks;
  return locks ? locks.request(REFRESH_LOCK, exchange) : exchange();
}

/**
 * Exchanges the stored refresh token for a new token pair (single flight: concurrent callers share one request;
 * across tabs, one at a time under a Web Lock — a tab that finds the pair already renewed by another uses it as is).
 * A refused refresh (HTTP 400/401) clears the token and, unless `emit` is false, emits the unauthorised event;
 * returns null then. A network failure keeps the token and rethrows.
 */
export function refreshAccessToken(options: { emit?: boolean } = {}): Promise<StoredToken | null> {
  if (refreshing) return refreshing;
  const stored = getItem("token");
  if (!stored) return Promise.resolve(null);
  const emit = options.emit ?? true;
  refreshing = (async () => {
    try {
      return await withRefreshLock(async () => {
        const current = getItem("token");
        // Signed out, or another tab renewed the pair while this one waited: never present a spent refresh token.
        if (!current || current.refreshToken !== stored.refreshToken) return current;
        const token = await requestToken({ grant_type: "refresh_token", refresh_token: current.refreshToken });
        setItem("token", token);
        const info = getItem("loginInfo");
        if (info) setItem("loginInfo", { ...info, token: token.accessToken });
        return token;
      });
    } catch (err) {
      if (err instanceof ApiError && err.status !== null && err.status >= 400 && err.status < 500) {
        removeItem("token");
        // Why it ended, for Login to say; the 401 that follows a refusal without `emit` finds it there.
        noteEnding(endingOfReason(err instanceof TokenRefusedError ? err.endedReason : null));
        if (emit) emitUnauthorized();
        return null;
      }
      throw err;
    } finally {
      refreshing = null;
    }
  })();
  return refreshing;
}

/**
 * After a call carrying `sentToken` was answered 401: the access token to retry with ONCE, or null to give up
 * (spec §8 "HTTP 401: Login expired"). When the stored token already differs (another call refreshed it meanwhile)
 * that one is returned; otherwise the refresh token is exchanged. Never emits the unauthorised event itself: the
 * caller's final 401 does. A refused refresh clears the token; a network failure gives null and keeps it.
 */
export async function renewAfterUnauthorized(sentToken: string): Promise<string | null> {
  const stored = getItem("token");
  if (!stored) return null;
  if (stored.accessToken !== sentToken) return stored.accessToken;
  try {
    return (await refreshAccessToken({ emit: false }))?.accessToken ?? null;
  } catch {
    return null;
  }
}

/**
 * Revokes the stored refresh token at `POST /connect/revocation` (form: `token`, `token_type_hint=refresh_token`;
 * RFC 7009) so it cannot mint new access tokens after logout. Resolves true when the server
 * answered 2xx; every failure (no token, network, HTTP error) is ignored and resolves false. Leaves storage alone.
 */
export async function revokeRefreshToken(): Promise<boolean> {
  const stored = getItem("token");
  if (!stored?.refreshToken) return false;
  try {
    const response = await transmit(tokenBaseUrl + REVOCATION_PATH, {
      method: "POST",
      headers: { ...commonHeaders(), Authorization: `Bearer ${stored.accessToken}` },
      body: formBody({ token: stored.refreshToken, token_type_hint: "refresh_token" }),
    });
    return response.ok;
  } catch (err) {
    console.info("[token] revocation failed (ignored)", err);
    return false;
  }
}

/**
 * The access token to send, refreshed first when it expires within {@link REFRESH_MARGIN_MS}; null when signed out.
 * A refresh that fails on the network falls back to the current token (the server then answers 401 if needed).
 */
export async function ensureFreshToken(now: () => number = Date.now): Promise<string | null> {
  const stored = getItem("token");
  if (!stored) return null;
  if (stored.expiresAt - now() > REFRESH_MARGIN_MS) return stored.accessToken;
  try {
    const token = await refreshAccessToken();
    return token?.accessToken ?? null;
  } catch {
    return stored.accessToken;
  }
}
