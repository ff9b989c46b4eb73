import { headersAfterUnauthorized, requestHeaders } from "./bearer.ts";
import type { LooseOptions } from "./call-options.ts";
import { transmitKeyed } from "./idempotency.ts";
import type { RequestBody, WireRequest } from "./transport.ts";

/**
 * One exchange on the wire, up to the server's `Response`: headers (token, language, time zone, project, tenant,
 * idempotency key), a resend of a keyed call whose answer was lost, and one retry with a renewed token after a 401
 * (spec §7, §8). The caller reads the body: `api()` as an envelope, `apiStream()` piece by piece.
 * Errors: `ApiError` code -2 when the connection fails (after the resend of a keyed call); an `AbortError` when
 * `options.signal` aborts.
 */
export async function exchange(
  method: string,
  url: string,
  body: RequestBody | undefined,
  options: Pick<LooseOptions, "signal" | "onUploadProgress">,
  idempotencyKey: string | null,
): Promise<Response> {
  // The token goes along even to open calls: application-configuration answers the caller's grantedPolicies with it.
  const headers = await requestHeaders(true);
  if (idempotencyKey) headers["Idempotency-Key"] = idempotencyKey;
  const request: WireRequest = {
    method,
    headers,
    body,
    signal: options.signal,
    onUploadProgress: options.onUploadProgress,
  };
  const keyed = Boolean(idempotencyKey);
  const response = await transmitKeyed(url, request, keyed);
  // A 401 on a call that carried a token: refresh once and retry before giving up.
  const renewed = await headersAfterUnauthorized(response.status, headers);
  if (!renewed) return response;
  await response.body?.cancel().catch(() => undefined);
  return transmitKeyed(url, { ...request, headers: renewed }, keyed);
}
