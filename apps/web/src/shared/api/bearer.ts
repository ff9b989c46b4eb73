import { ensureFreshToken, renewAfterUnauthorized } from "./token.ts";
import { commonHeaders } from "./transport.ts";

/**
 * The bearer token on an API call (spec §7 headers, §8 401): the headers every call carries with the access token,
 * refreshed first when about to expire, and after a 401 the headers to send the call once more with a renewed token.
 * The token itself (storage, refresh, revocation) lives in token.ts.
 */

const BEARER = "Bearer ";

/**
 * The request headers of spec §7: bearer token (refreshed first when about to expire), Accept-Language, project-id;
 * plus the phone's time zone (the server cuts days at the owner's local midnight) and the
 * native shell's tenant (see transport.ts `commonHeaders`). Without `withToken`, or signed out, no Authorization.
 */
export async function requestHeaders(withToken: boolean): Promise<Record<string, string>> {
  const headers = commonHeaders();
  if (withToken) {
    const token = await ensureFreshToken();
    if (token) headers.Authorization = `${BEARER}${token}`;
  }
  return headers;
}

/**
 * After an answer to a call sent with `headers` (spec §8): when it is a 401 to a call that carried a token, the
 * same headers with a renewed token (token.ts `renewAfterUnauthorized`: one refresh shared by every caller, or the
 * token another call renewed meanwhile); null when the answer stands (not a 401, no token sent, no renewal).
 */
export async function headersAfterUnauthorized(
  status: number,
  headers: Record<string, string>,
): Promise<Record<string, string> | null> {
  const sent = headers.Authorization?.slice(BEARER.length);
  if (status !== 401 || !sent) return null;
  const renewed = await renewAfterUnauthorized(sent);
  return renewed ? { ...headers, Authorization: `${BEARER}${renewed}` } : null;
}
