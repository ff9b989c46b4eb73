/**
 * What the hub server remembers of ended access (bus `user.revoked`, `session.ended`), so that neither a negotiation
 * or upgrade already past its token check nor a connection token issued earlier can outlive it. The connections
 * themselves are closed by access-ended.ts.
 */
import type { Caller, RevokedSince } from "./caller.ts";
import type { ConnectionClaims } from "./connection-token.ts";

/**
 * Two memories of revocations:
 * - while negotiations or upgrades are in flight ({@link guarded}), which users and sessions were revoked since each
 *   began, so a connection cannot slip in between a revocation and its own token check;
 * - for as long as a connection token issued before it could still be presented (`tokenLifetimeMs`, the negotiate
 *   timeout), when each user or session was revoked ({@link tokenRevoked}): such a token is refused on every process,
 *   since every process hears the bus event.
 */
export class Revocations {
  /** Bumped on every revocation; `revokedAt` (keys `user:<id>`, `session:<id>`) keeps them only while in flight. */
  private seq = 0;
  private readonly revokedAt = new Map<string, number>();
  private inFlight = 0;
  /** `user:<id>` / `session:<id>` → when its revocation arrived (ms), oldest first. */
  private readonly revokedTokensAt = new Map<string, number>();

  private readonly tokenLifetimeMs: number;
  /** @param tokenLifetimeMs how long a connection token is accepted after it is issued (ms): the negotiate timeout. */
  constructor(tokenLifetimeMs: number) {
    this.tokenLifetimeMs = tokenLifetimeMs;
  }

  /**
   * Runs `body` (a negotiation or an upgrade, from its token check to its attach) while revocations are remembered:
   * `revoked(caller)` tells whether a `user.revoked` for that user or a `session.ended` for that session arrived since
   * it began. Answers (or rejects with) what `body` does.
   */
  async guarded<T>(body: (revoked: RevokedSince) => Promise<T>): Promise<T> {
    this.inFlight++;
    const startSeq = this.seq;
    const revoked = (caller: Caller) =>
      (this.revokedAt.get(`user:${caller.userId}`) ?? 0) > startSeq ||
      (caller.sessionId !== null && (this.revokedAt.get(`session:${caller.sessionId}`) ?? 0) > startSeq);
    try {
      return await body(revoked);
    } finally {
      this.inFlight--;
      if (this.inFlight === 0) this.revokedAt.clear();
    }
  }

  /** Bus `user.revoked` (password change or reset, account deletion): every access of the user ended now. */
  userRevoked(userId: string): void {
    this.revoke(`user:${userId}`);
  }

  /** Bus `session.ended` (logout, replayed refresh token): the access of that sign-in ended now. */
  sessionEnded(sessionId: string): void {
    this.revoke(`session:${sessionId}`);
  }

  /**
   * Whether a user.revoked of the token's user or a session.ended of its session arrived at or after the token was
   * issued (the token's own negotiation may have been answered by another process).
   */
  tokenRevoked(claims: ConnectionClaims): boolean {
    const user = this.revokedTokensAt.get(`user:${claims.userId}`);
    const session = claims.sessionId === null ? undefined : this.revokedTokensAt.get(`session:${claims.sessionId}`);
    return (user !== undefined && user >= claims.issuedAt) || (session !== undefined && session >= claims.issuedAt);
  }

  /** Forgets the revocations kept for tokens (shutdown: no token is accepted any more). */
  clear(): void {
    this.revokedTokensAt.clear();
  }

  private revoke(key: string): void {
    this.seq++;
    if (this.inFlight > 0) this.revokedAt.set(key, this.seq);
    this.recordTokenRevocation(key);
  }

  /** Records a revocation for {@link tokenRevoked}; forgets those older than any unexpired token. */
  private recordTokenRevocation(key: string): void {
    const now = Date.now();
    for (const [k, at] of this.revokedTokensAt) {
      if (at > now - this.tokenLifetimeMs) break;
      this.revokedTokensAt.delete(k);
    }
    this.revokedTokensAt.delete(key);
    this.revokedTokensAt.set(key, now);
  }
}
