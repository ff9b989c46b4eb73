import { createHash, randomBytes, randomUUID } from "node:crypto";
import type { TTokenResponse } from "@aquapilot/contract";
import { errors as joseErrors, jwtVerify, SignJWT } from "jose";
import type { Selectable } from "kysely";
import type { Bus, BusEvent } from "../bus.ts";
import type { Db } from "../db/index.ts";
import type { UsersTable } from "../db/schema.ts";
import { verifyPassword } from "./passwords.ts";
import { DEFAULT_AUTH_CACHE_MS, InvalidatedCache, sessionTag, userTag } from "./request-cache.ts";
import { loadOrCreateSecret } from "./secrets.ts";
import { endSession, type SessionEndReason, startSession } from "./sessions.ts";

/** Access token lifetime: 1 h (seconds). */
export const ACCESS_TOKEN_SECONDS = 3600;
/** Refresh token lifetime: 30 days (seconds). */
export const REFRESH_TOKEN_SECONDS = 30 * 24 * 3600;
/** File in DATA_DIR holding the HS256 signing key (mode 0600). */
export const JWT_KEY_FILE = "jwt-signing-key";
const ISSUER = "aquapilot";

/** The signed-in caller as the REST routes see it (`request.user`). */
export interface AuthUser {
  id: string;
  userName: string;
  name: string | null;
  email: string | null;
  phoneNumber: string | null;
  /** Interface language stored for the user (spec §1 codes). */
  languageType: string;
  /** 1 China, 2 Europe (spec §3), fixed at registration. */
  serviceRegion: number;
  /** A device master (spec §6): holds every permission, and alone holds "master" (users.is_master). */
  isMaster: boolean;
  /** The session (sign-in) the access token belongs to: its `sid` claim, so ending it ends the token. */
  sessionId: string;
}

/** Issues and checks tokens (docs/architecture.md "auth"). One instance per app: `app.auth`. */
export interface AuthService {
  /**
   * Verifies a bearer access token: signature, expiry, that the user still exists, is not deleted and has the
   * security stamp the token carries, and that the token's session (`sid`) has not ended (logout, replay).
   * One indexed query, or none when this process checked the same token within `cacheMs` (the answer is
   * kept per token until then, and dropped at once by bus `user.revoked`, `session.ended` or `user.changed`; the
   * token's expiry is checked on every call). The realtime hubs use this. Never throws for a bad token; null when
   * anything is wrong.
   */
  verifyAccessToken(token: string): Promise<{ userId: string; userName: string; sessionId: string } | null>;
  /** Like {@link verifyAccessToken} but answers the full {@link AuthUser} (used for `request.user`). */
  authenticate(token: string): Promise<AuthUser | null>;
  /**
   * The live account a sign-in name designates: an e-mail (any case), else a phone number (with or without "+"),
   * else a user name; null when none. Lets the caller throttle by account before the password is checked.
   */
  findAccount(username: string): Promise<SignInUser | null>;
  /**
   * OAuth 2.0 password grant: `username` is an e-mail, phone number or user name. Null on bad credentials; an
   * unknown account still spends one argon2 verification (passwords.ts), so timing does not tell it apart. `found`
   * is the result of {@link findAccount} when the caller already looked the account up.
   */
  passwordGrant(username: string, password: string, found?: SignInUser | null): Promise<TTokenResponse | null>;
  /**
   * OAuth 2.0 refresh_token grant with rotation inside the token's session (a refresh-token family): the
   * presented token is spent and a new pair of the same session is issued. A token presented after it was already
   * spent (a replay: it leaked, or the legitimate client and a thief both hold it) ends the whole session — every
   * refresh token and access token of it — and publishes bus `session.ended`. Null when invalid, expired, replayed
   * or the session has ended.
   */
  refreshGrant(refreshToken: string): Promise<TTokenResponse | null>;
  /**
   * Why a refresh token no longer works, for the token endpoint's refusal: the reason its session ended
   * (sessions.ts {@link SessionEndReason}), or null when the token is unknown or its session is live (expired,
   * malformed). Never reveals anything about a token it does not know.
   */
  endedReasonOf(refreshToken: string): Promise<SessionEndReason | null>;
  /**
   * Issues a fresh access + refresh token pair for a user row: in `sessionId`, or in a new session (a sign-in)
   * when it is omitted.
   */
  issueTokens(
    user: { id: string; user_name: string; security_stamp: string },
    sessionId?: string,
  ): Promise<TTokenResponse>;
  /**
   * Ends the session a token belongs to (RFC 7009 `/connect/revocation`, the app's logout): a refresh token of the
   * session (live or already rotated) or one of its valid access tokens. Its access tokens are refused from the next
   * call, its refresh tokens at once, and bus `session.ended` closes its hub connections. Unknown or foreign tokens
   * and ended sessions are ignored; answers whether a live session ended.
   */
  revokeToken(token: string): Promise<boolean>;
  /**
   * Ends one session for `reason` and publishes bus `session.ended` when it was live, so its hub connections close.
   * Answers whether this call ended it.
   */
  endSession(sessionId: string, reason: SessionEndReason): Promise<boolean>;
  /**
   * Empties the cache of token checks (every token is checked against the database again): for when bus events may
   * have been missed, e.g. after a gap in the Redis backplane (system.ts).
   */
  forgetCachedChecks(): void;
  /** Stops following the bus (the cache of token checks is then emptied and no longer fed). Call once, at shutdown. */
  close(): void;
  /** Token checks held in this process's cache now (for tests and diagnostics; never the tokens themselves). */
  readonly cachedTokenChecks: number;
}

/** A users row as sign-in finds it. */
export type SignInUser = Selectable<UsersTable>;

/** The {@link AuthUser} of a users row joined with the token's session. */
function toAuthUser(user: Selectable<UsersTable> & { sessionId: string }): AuthUser {
  return {
    id: user.id,
    userName: user.user_name,
    name: user.name,
    email: user.email,
    phoneNumber: user.phone_number,
    languageType: user.language_type,
    serviceRegion: user.service_region,
    isMaster: user.is_master === 1,
    sessionId: user.sessionId,
  };
}

/**
 * Drops the cached token checks a bus event makes stale: `user.revoked` (password change or reset,
 * deletion) and `user.changed` (profile fields of {@link AuthUser}) drop the user's, `session.ended` the session's.
 */
function forget(checks: InvalidatedCache<unknown>, event: BusEvent): void {
  switch (event.type) {
    case "user.revoked":
    case "user.changed":
      checks.invalidate(userTag(event.userId));
      return;
    case "session.ended":
      checks.invalidate(sessionTag(event.sessionId));
      return;
  }
}

/** SHA-256 hex of an opaque token; only this is stored (refresh_tokens.token_hash). */
export function sha256Hex(value: string): string {
  return createHash("sha256").update(value).digest("hex");
}

/**
 * Creates the {@link AuthService}. The HS256 key is read from `dataDir/jwt-signing-key`, generated on first start,
 * so tokens stay valid across restarts. `now` is the clock (tests move it); `bus` receives `session.ended` when a
 * session ends (logout, replay), so the hubs close its connections; `log` notes replays (ids only, never tokens).
 *
 * Token checks are cached per process for `cacheMs` (AUTH_CACHE_MS; default 5,000 ms) when `bus` can also be
 * subscribed to: `user.revoked` and `user.changed` drop a user's checks, `session.ended` a session's
 * (auth/request-cache.ts). Without a subscribable bus, or with `cacheMs` 0, every call reads the database. `clock` is
 * the cache's monotonic clock in ms (default `performance.now`).
 *
 * The hubs reach it through the built app: `app.auth.verifyAccessToken(t)` (realtime/hub-auth.ts).
 */
export function createAuthService(opts: {
  db: Db;
  dataDir: string;
  now?: () => Date;
  bus?: Pick<Bus, "publish"> & Partial<Pick<Bus, "subscribe">>;
  log?: { warn(obj: object, msg: string): void };
  cacheMs?: number;
  clock?: () => number;
}): AuthService {
  const { db } = opts;
  const now = opts.now ?? (() => new Date());
  const key = loadOrCreateSecret(opts.dataDir, JWT_KEY_FILE);
  const subscribe = opts.bus?.subscribe?.bind(opts.bus);
  /** token → the caller it designated and the token's expiry (epoch s); only valid tokens are kept. */
  const checks = new InvalidatedCache<{ user: AuthUser; exp: number } | null>({
    ttlMs: subscribe ? (opts.cacheMs ?? DEFAULT_AUTH_CACHE_MS) : 0,
    clock: opts.clock,
  });
  const unsubscribe = checks.enabled && subscribe ? subscribe((event) => forget(checks, event)) : () => {};

  /** The verified claims of an access token, or null (bad signature, issuer, expiry or shape). */
  async function claimsOf(token: string): Promise<{ sub: string; stamp: string; sid: string; exp: number } | null> {
    try {
      const { payload } = await jwtVerify(token, key, {
        algorithms: ["HS256"],
        issuer: ISSUER,
        currentDate: now(),
      });
      const { sub, security_stamp: stamp, sid, exp } = payload;
      // Tokens issued before sessions existed carry no sid: refused, the app refreshes
      // (docs/adr/0007-sessions-as-refresh-token-families.md).
      if (typeof sub !== "string" || typeof stamp !== "string" || typeof sid !== "string") return null;
      if (typeof exp !== "number") return null;
      return { sub, stamp, sid, exp };
    } catch (err) {
      if (err instanceof joseErrors.JOSEError) return null;
      throw err;
    }
  }

  /**
   * The caller a token designates: from the cache when this process checked the token within `cacheMs` (its expiry
   * checked again against `now`), else from {@link loadUser}, kept when valid.
   */
  async function userOf(token: string): Promise<AuthUser | null> {
    const entry = await checks.getOrLoad(
      token,
      async () => {
        const loaded = await loadUser(token);
        return loaded && { user: Object.freeze(toAuthUser(loaded)), exp: loaded.exp };
      },
      (e) => e && [userTag(e.user.id), sessionTag(e.user.sessionId)],
    );
    if (!entry || Math.floor(now().getTime() / 1000) >= entry.exp) return null;
    return entry.user;
  }

  async function loadUser(token: string) {
    const claims = await claimsOf(token);
    if (!claims) return null;
    // One query: the user and the token's session, both by primary key.
    const user = await db
      .selectFrom("users")
      .innerJoin("sessions", "sessions.user_id", "users.id")
      .selectAll("users")
      .select("sessions.ended_at as session_ended_at")
      .where("users.id", "=", claims.sub)
      .where("users.is_deleted", "=", 0)
      .where("sessions.id", "=", claims.sid)
      .executeTakeFirst();
    if (!user || user.security_stamp !== claims.stamp || user.session_ended_at !== null) return null;
    return { ...user, sessionId: claims.sid, exp: claims.exp };
  }

  async function finish(sessionId: string, reason: SessionEndReason): Promise<boolean> {
    const ended = await endSession(db, sessionId, reason, now());
    if (!ended) return false;
    opts.bus?.publish({ type: "session.ended", userId: ended.userId, sessionId });
    return true;
  }

  const service: AuthService = {
    async verifyAccessToken(token) {
      const user = await userOf(token);
      return user ? { userId: user.id, userName: user.userName, sessionId: user.sessionId } : null;
    },

    authenticate(token) {
      return userOf(token);
    },

    async issueTokens(user, existingSession) {
      const sessionId = existingSession ?? (await startSession(db, user.id, now()));
      const issuedAt = Math.floor(now().getTime() / 1000);
      const accessToken = await new SignJWT({
        preferred_username: user.user_name,
        security_stamp: user.security_stamp,
        sid: sessionId,
      })
        .setProtectedHeader({ alg: "HS256", typ: "JWT" })
        .setSubject(user.id)
        .setIssuer(ISSUER)
        .setIssuedAt(issuedAt)
        .setExpirationTime(issuedAt + ACCESS_TOKEN_SECONDS)
        .setJti(randomUUID())
        .sign(key);
      const refreshToken = randomBytes(32).toString("base64url");
      await db
        .insertInto("refresh_tokens")
        .values({
          id: randomUUID(),
          user_id: user.id,
          token_hash: sha256Hex(refreshToken),
          expires_at: new Date(now().getTime() + REFRESH_TOKEN_SECONDS * 1000).toISOString(),
          revoked_at: null,
          created_at: now().toISOString(),
          session_id: sessionId,
        })
        .execute();
      return {
        access_token: accessToken,
        token_type: "Bearer",
        expires_in: ACCESS_TOKEN_SECONDS,
        refresh_token: refreshToken,
      };
    },

    async findAccount(username) {
      const login = username.trim();
      const candidates = await db
        .selectFrom("users")
        .selectAll()
        .where("is_deleted", "=", 0)
        .where((eb) =>
          eb.or([
            eb("email", "=", login.toLowerCase()),
            eb("phone_number", "=", login.replace(/^\+/, "")),
            eb("user_name", "=", login),
          ]),
        )
        .limit(3)
        .execute();
      // One login string may match different accounts in different columns: e-mail, then phone, then user name.
      return (
        candidates.find((u) => u.email === login.toLowerCase()) ??
        candidates.find((u) => u.phone_number === login.replace(/^\+/, "")) ??
        candidates.find((u) => u.user_name === login) ??
        null
      );
    },

    async passwordGrant(username, password, found) {
      const user = found !== undefined ? found : await service.findAccount(username);
      if (!(await verifyPassword(user?.password_hash ?? null, password)) || !user) return null;
      return service.issueTokens(user);
    },

    async refreshGrant(refreshToken) {
      const row = await db
        .selectFrom("refresh_tokens")
        .innerJoin("users", "users.id", "refresh_tokens.user_id")
        .leftJoin("sessions", "sessions.id", "refresh_tokens.session_id")
        .select([
          "refresh_tokens.id as tokenId",
          "refresh_tokens.session_id",
          "refresh_tokens.expires_at",
          "refresh_tokens.revoked_at",
          "sessions.ended_at as session_ended_at",
          "users.id",
          "users.user_name",
          "users.security_stamp",
          "users.is_deleted",
        ])
        .where("refresh_tokens.token_hash", "=", sha256Hex(refreshToken))
        .executeTakeFirst();
      if (!row?.session_id) return null;
      const sessionId = row.session_id;
      const replayed = async () => {
        // Spent already: a copy is in other hands. End the family, so neither copy's successors work.
        if (await finish(sessionId, "replay")) {
          opts.log?.warn({ userId: row.id, sessionId }, "auth: rotated refresh token replayed; session ended");
        }
        return null;
      };
      if (row.session_ended_at !== null) return null;
      if (row.revoked_at !== null) return replayed();
      if (row.is_deleted !== 0 || row.expires_at <= now().toISOString()) return null;
      // Spend it first and only if nobody else did: of two uses at once, one wins and the other is a replay.
      const spent = await db
        .updateTable("refresh_tokens")
        .set({ revoked_at: now().toISOString() })
        .where("id", "=", row.tokenId)
        .where("revoked_at", "is", null)
        .executeTakeFirst();
      if (Number(spent.numUpdatedRows) !== 1) return replayed();
      return service.issueTokens(row, sessionId);
    },

    async endedReasonOf(refreshToken) {
      const row = await db
        .selectFrom("refresh_tokens")
        .innerJoin("sessions", "sessions.id", "refresh_tokens.session_id")
        .select(["sessions.ended_at", "sessions.ended_reason"])
        .where("refresh_tokens.token_hash", "=", sha256Hex(refreshToken))
        .executeTakeFirst();
      if (!row || row.ended_at === null || row.ended_reason === null) return null;
      return row.ended_reason as SessionEndReason;
    },

    async revokeToken(token) {
      const claims = token.includes(".") ? await claimsOf(token) : null;
      if (claims) return finish(claims.sid, "logout");
      const row = await db
        .selectFrom("refresh_tokens")
        .select("session_id")
        .where("token_hash", "=", sha256Hex(token))
        .executeTakeFirst();
      return row?.session_id ? finish(row.session_id, "logout") : false;
    },

    endSession(sessionId, reason) {
      return finish(sessionId, reason);
    },

    forgetCachedChecks() {
      checks.clear();
    },

    close() {
      unsubscribe();
      checks.clear();
    },

    get cachedTokenChecks() {
      return checks.size;
    },
  };
  return service;
}
