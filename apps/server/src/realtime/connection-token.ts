import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from "node:crypto";
import type { Redis } from "ioredis";
import type { HubName } from "./connection.ts";

/**
 * What a negotiate connection token says: which hub, whose, which sign-in,
 * which connection, and until when. Any process holding the same key can check it, so the WebSocket may open on
 * another process than the negotiate.
 */
export interface ConnectionClaims {
  hub: HubName;
  userId: string;
  /** The session (sign-in) of the access token that negotiated; null for tokens without one (tests). */
  sessionId: string | null;
  /** The connection id negotiate answered (version 1) — logs and single use key on it. */
  connectionId: string;
  /** When negotiate issued it, ms since the epoch. */
  issuedAt: number;
  /** When it stops being accepted, ms since the epoch (issuedAt + the negotiate timeout, 15 s by default). */
  expiresAt: number;
}

/** The wire form of the claims: short names, version first. */
interface WireClaims {
  v: 1;
  h: HubName;
  u: string;
  s: string | null;
  c: string;
  i: number;
  e: number;
}

const HUBS: readonly string[] = ["deviceChange", "message"];

/** HKDF info string of the hub token key: a key of its own, derived from the JWT signing key (never the same). */
const KEY_INFO = "aquapilot/hub-connection-token/v1";

/**
 * The key of the connection tokens, derived with HKDF-SHA256 from the server's JWT signing key
 * (`DATA_DIR/jwt-signing-key`, auth/auth-service.ts), so every process that signs and verifies the same access tokens
 * also agrees on connection tokens, and no new secret needs to be shared (docs/deploy.md). 32 bytes.
 */
export function deriveConnectionTokenKey(jwtSigningKey: Uint8Array): Uint8Array {
  return new Uint8Array(hkdfSync("sha256", jwtSigningKey, new Uint8Array(0), KEY_INFO, 32));
}

/**
 * Signs and checks negotiate connection tokens: `base64url(JSON claims) "." base64url(HMAC-SHA256(key, first part))`.
 * Stateless: nothing is stored when a token is issued. The key is 32 random bytes per instance when none is given
 * (one process alone: tests).
 */
export class ConnectionTokens {
  private readonly key: Uint8Array;
  /** @param key the HMAC key ({@link deriveConnectionTokenKey}); at least 32 bytes. @throws when shorter. */
  constructor(key: Uint8Array = randomBytes(32)) {
    if (key.length < 32) throw new Error("connection token key: at least 32 bytes");
    this.key = key;
  }

  /** The token of `claims` (a URL-safe string of about 200 characters). */
  sign(claims: ConnectionClaims): string {
    const wire: WireClaims = {
      v: 1,
      h: claims.hub,
      u: claims.userId,
      s: claims.sessionId,
      c: claims.connectionId,
      i: claims.issuedAt,
      e: claims.expiresAt,
    };
    const body = Buffer.from(JSON.stringify(wire)).toString("base64url");
    return `${body}.${this.mac(body)}`;
  }

  /**
   * The claims of `token` when its signature is this key's and it has not expired at `now` (ms); null otherwise
   * (malformed, forged, altered, another key's, expired). Never throws.
   */
  verify(token: string, now = Date.now()): ConnectionClaims | null {
    if (token.length > 1024 || !/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(token)) return null;
    const dot = token.indexOf(".");
    const body = token.slice(0, dot);
    const given = Buffer.from(token.slice(dot + 1), "base64url");
    const expected = Buffer.from(this.mac(body), "base64url");
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    let wire: WireClaims;
    try {
      wire = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as WireClaims;
    } catch {
      return null;
    }
    if (
      wire?.v !== 1 ||
      !HUBS.includes(wire.h) ||
      typeof wire.u !== "string" ||
      (wire.s !== null && typeof wire.s !== "string") ||
      typeof wire.c !== "string" ||
      typeof wire.i !== "number" ||
      typeof wire.e !== "number"
    ) {
      return null;
    }
    if (now >= wire.e) return null;
    return {
      hub: wire.h,
      userId: wire.u,
      sessionId: wire.s,
      connectionId: wire.c,
      issuedAt: wire.i,
      expiresAt: wire.e,
    };
  }

  private mac(body: string): string {
    return createHmac("sha256", this.key).update(body).digest("base64url");
  }
}

/**
 * Single use of connection tokens across processes: `claim` answers true for the first caller of a connection id and
 * false for every later one until `ttlMs` has passed (the token has expired by then).
 */
export interface ConnectionTokenClaims {
  /** @throws when the store cannot answer (the hubs then rely on the local check and log a warning). */
  claim(connectionId: string, ttlMs: number): Promise<boolean>;
}

/** Prefix of the single-use keys in Redis. */
export const HUB_TOKEN_KEY_PREFIX = "aquapilot-hub-token:";

/**
 * {@link ConnectionTokenClaims} in Redis: `SET aquapilot-hub-token:<connectionId> 1 PX ttl NX`, so a token attaches
 * on one process of the cluster only. Answers within `timeoutMs` (default 1 s) or throws.
 */
export function redisConnectionTokenClaims(redis: Redis, timeoutMs = 1_000): ConnectionTokenClaims {
  return {
    async claim(connectionId, ttlMs) {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`Redis did not answer within ${timeoutMs} ms`)), timeoutMs);
      });
      try {
        const set = redis.set(`${HUB_TOKEN_KEY_PREFIX}${connectionId}`, "1", "PX", Math.max(1, ttlMs), "NX");
        // A late rejection after the timeout has nobody to tell.
        set.catch(() => undefined);
        return (await Promise.race([set, timeout])) === "OK";
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
