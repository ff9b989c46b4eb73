/**
 * Single use of negotiate connection tokens (connection-token.ts): a token attaches one WebSocket, once on this
 * process and, with a cluster store (`redisConnectionTokenClaims`), once in the cluster. A second use is answered
 * 409 while its connection lives and 404 after (upgrade.ts), as ASP.NET Core does for a connection id.
 */
import type { FastifyBaseLogger } from "fastify";
import type { ConnectionClaims, ConnectionTokenClaims } from "./connection-token.ts";

/** The connection ids whose tokens attached (or began to) here, and the cluster-wide claim. */
export class TokenUses {
  /** Connection id → when its token expires (ms since the epoch), oldest first; entries leave once expired. */
  private readonly usedIds = new Map<string, number>();
  private readonly claims: ConnectionTokenClaims | null;
  private readonly log: Pick<FastifyBaseLogger, "warn">;

  /**
   * @param claims the cluster-wide single-use store, or null for one process alone.
   * @param log where a store that cannot answer is reported.
   */
  constructor(claims: ConnectionTokenClaims | null, log: Pick<FastifyBaseLogger, "warn">) {
    this.claims = claims;
    this.log = log;
  }

  /** Whether the token of `connectionId` has been used on this process (and has not expired since). */
  has(connectionId: string): boolean {
    return this.usedIds.has(connectionId);
  }

  /** Remembers that the token of `connectionId` has been used here, until it expires; forgets expired ones. */
  markUsed(connectionId: string, expiresAt: number): void {
    const now = Date.now();
    for (const [id, expiry] of this.usedIds) {
      if (expiry > now) break;
      this.usedIds.delete(id);
    }
    this.usedIds.set(connectionId, expiresAt);
  }

  /**
   * Single use across processes (with Redis): true when this process is the first to attach the token's connection
   * id. When the store cannot answer, true with a warning: the upgrade has already checked the caller's access token
   * and that the token is theirs, so a second use could only give the same user a second connection. Never rejects.
   */
  async claimAcrossProcesses(claims: ConnectionClaims): Promise<boolean> {
    if (!this.claims) return true;
    try {
      return await this.claims.claim(claims.connectionId, claims.expiresAt - Date.now());
    } catch (error) {
      this.log.warn({ err: (error as Error).message }, "realtime: connection token single-use store unavailable");
      return true;
    }
  }

  /** Forgets every used id (shutdown). */
  clear(): void {
    this.usedIds.clear();
  }
}
