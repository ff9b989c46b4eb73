import { createHash, randomBytes, randomUUID } from "node:crypto";
import type { TTokenResponse } from "@aquapilot/contract";
import { errors as joseErrors, jwtVerify, SignJWT } from "jose";
import type { Selectable } from "kysely";
import type { Db } from "../db/index.js";
import type { UsersTable } from "../db/schema.js";
import { verifyPassword } from "./passwords.js";
import { loadOrCreateSecret } from "./secrets.js";

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
}

/** Issues and checks tokens (docs/architecture.md "auth"). One instance per app: `app.auth`. */
export interface AuthService {
  /**
   * Verifies a bearer access token: signature, expiry, and that the user still exists, is not deleted and has the
   * security stamp the token carries. The realtime hubs use this. Never throws; null when anything is wrong.
   */
  verifyAccessToken(token: string): Promise<{ userId: string; userName: string } | null>;
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
  /** OAuth 2.0 refresh_token grant: rotates the refresh token (the presented one is revoked). Null when invalid. */
  refreshGrant(refreshToken: string): Promise<TTokenResponse | null>;
  /** Issues a fresh access + refresh token pair for a user row. */
  issueTokens(user: { id: string; user_name: string; security_stamp: string }): Promise<TTokenResponse>;
  /** Revokes every refresh token of a user (logout everywhere, password change, deletion). */
  revokeRefreshTokens(userId: string): Promise<void>;
  /**
   * Revokes one refresh token given in clear (RFC 7009 `/connect/revocation`). Unknown, expired or already revoked
   * tokens are ignored; answers whether a live token was revoked.
   */
  revokeRefreshToken(refreshToken: string): Promise<boolean>;
}

/** A users row as sign-in finds it. */
export type SignInUser = Selectable<UsersTable>;

/** SHA-256 hex of an opaque token; only this is stored (refresh_tokens.token_hash). */
export function sha256Hex(value: string): string {
  return createHash("sha256").update(value).digest("hex");
}

/**
 * Creates the {@link AuthService}. The HS256 key is read from `dataDir/jwt-signing-key`, generated on first start,
 * so tokens stay valid across restarts. `now` is the clock (tests move it).
 *
 * The lead obtains it for the hubs from the built app: `const app = buildApp(deps); app.auth.verifyAccessToken(t)`.
 */
export function createAuthService(opts: { db: Db; dataDir: string; now?: () => Date }): AuthService {
  const { db } = opts;
  const now = opts.now ?? (() => new Date());
  const key = loadOrCreateSecret(opts.dataDir, JWT_KEY_FILE);

  async function loadUser(token: string) {
    try {
      const { payload } = await jwtVerify(token, key, {
        algorithms: ["HS256"],
        issuer: ISSUER,
        currentDate: now(),
      });
      if (typeof payload.sub !== "string" || typeof payload.security_stamp !== "string") return null;
      const user = await db
        .selectFrom("users")
        .selectAll()
        .where("id", "=", payload.sub)
        .where("is_deleted", "=", 0)
        .executeTakeFirst();
      if (!user || user.security_stamp !== payload.security_stamp) return null;
      return user;
    } catch (err) {
      if (err instanceof joseErrors.JOSEError) return null;
      throw err;
    }
  }

  const service: AuthService = {
    async verifyAccessToken(token) {
      const user = await loadUser(token);
      return user ? { userId: user.id, userName: user.user_name } : null;
    },

    async authenticate(token) {
      const user = await loadUser(token);
      if (!user) return null;
      return {
        id: user.id,
        userName: user.user_name,
        name: user.name,
        email: user.email,
        phoneNumber: user.phone_number,
        languageType: user.language_type,
        serviceRegion: user.service_region,
        isMaster: user.is_master === 1,
      };
    },

    async issueTokens(user) {
      const issuedAt = Math.floor(now().getTime() / 1000);
      const accessToken = await new SignJWT({ preferred_username: user.user_name, security_stamp: user.security_stamp })
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
        .select([
          "refresh_tokens.id as tokenId",
          "refresh_tokens.expires_at",
          "refresh_tokens.revoked_at",
          "users.id",
          "users.user_name",
          "users.security_stamp",
          "users.is_deleted",
        ])
        .where("refresh_tokens.token_hash", "=", sha256Hex(refreshToken))
        .executeTakeFirst();
      if (!row || row.revoked_at !== null || row.is_deleted !== 0 || row.expires_at <= now().toISOString()) return null;
      // Revoke first and only if nobody else did: a token used twice at once yields one new pair.
      const revoked = await db
        .updateTable("refresh_tokens")
        .set({ revoked_at: now().toISOString() })
        .where("id", "=", row.tokenId)
        .where("revoked_at", "is", null)
        .executeTakeFirst();
      if (Number(revoked.numUpdatedRows) !== 1) return null;
      return service.issueTokens(row);
    },

    async revokeRefreshTokens(userId) {
      await db
        .updateTable("refresh_tokens")
        .set({ revoked_at: now().toISOString() })
        .where("user_id", "=", userId)
        .where("revoked_at", "is", null)
        .execute();
    },

    async revokeRefreshToken(refreshToken) {
      const res = await db
        .updateTable("refresh_tokens")
        .set({ revoked_at: now().toISOString() })
        .where("token_hash", "=", sha256Hex(refreshToken))
        .where("revoked_at", "is", null)
        .executeTakeFirst();
      return Number(res.numUpdatedRows) === 1;
    },
  };
  return service;
}
