/**
 * Who calls a hub: the access token of a negotiate or a WebSocket upgrade (the `Authorization` header, or the
 * `access_token` query value browsers must use for WebSockets), resolved to its user and session.
 */
import type { HubAuth } from "./hub-auth.ts";

/** Who a connection or negotiation belongs to: the user and the session (sign-in) of its access token. */
export interface Caller {
  userId: string;
  sessionId: string | null;
}

/**
 * Tells whether the caller's access ended (bus `user.revoked` or `session.ended`) since the negotiation or upgrade
 * asking began: revocations.ts `Revocations.guarded` hands one to each.
 */
export type RevokedSince = (caller: Caller) => boolean;

/**
 * The token of an `Authorization: Bearer <token>` header (RFC 6750 §2.1; scheme in any case, one token, trailing
 * spaces allowed), or null when the header is absent or of another shape.
 */
export function bearerToken(authorization: string | undefined): string | null {
  const match = authorization ? /^Bearer\s+(\S+)\s*$/i.exec(authorization) : null;
  return match ? match[1] : null;
}

/**
 * Resolves `token` to its user and session through `auth` (spec §7 hubs: the same check as every REST call). Answers
 * null when there is no token, the account system refuses it, or `revoked` says the caller's access ended while the
 * check ran. Rejects only when `auth.authenticate` does.
 */
export async function authenticateCaller(
  auth: Pick<HubAuth, "authenticate">,
  token: string | null,
  revoked: RevokedSince,
): Promise<Caller | null> {
  if (!token) return null;
  const user = await auth.authenticate(token);
  if (!user) return null;
  const caller = { userId: user.userId, sessionId: user.sessionId ?? null };
  return revoked(caller) ? null : caller;
}
