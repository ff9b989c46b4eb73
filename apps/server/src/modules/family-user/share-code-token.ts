import { createHmac, timingSafeEqual } from "node:crypto";
import { LIMITS } from "@aquapilot/contract";
import { AppError, ErrorCode } from "../../http/errors.ts";

// The household share code itself (spec §4 "Family QR code valid 15 minutes, refreshable"): its signed form, its
// checks and its clock, without the database; share-codes.ts keeps the rows behind the codes.

/** The only purpose a share code has; a code signed for anything else is refused. */
export const SHARE_PURPOSE = "join-family";
/** Share code validity (spec §4, §9 "QR validity 15 minutes"), seconds. */
export const SHARE_CODE_SECONDS = LIMITS.qrValidityMinutes * 60;
/**
 * A visit to the share screen shows the administrator's current code again while it has at least this long left,
 * seconds, instead of adding a new entry to "my shares" at every visit; with less, a new one is made.
 */
export const SHARE_CODE_REUSE_MIN_SECONDS = 3 * 60;
const VERSION = "AQF1";

/** What a share code carries (signed, not encrypted: nothing secret is inside). */
export interface ShareClaims {
  /** purpose: always "join-family" */
  p: string;
  /** family id */
  f: string;
  /** inviter (administrator) user id */
  i: string;
  /** random id of the family_share_codes row */
  j: string;
  /** expiry, Unix seconds */
  e: number;
}

/** The signed text of `claims`: `AQF1.<base64url JSON claims>.<base64url HMAC-SHA256 of the first two parts>`. */
export function signShareCode(secret: Uint8Array, claims: ShareClaims): string {
  const body = `${VERSION}.${Buffer.from(JSON.stringify(claims)).toString("base64url")}`;
  return `${body}.${shareMac(secret, body)}`;
}

function shareMac(secret: Uint8Array, text: string): string {
  return createHmac("sha256", secret).update(text).digest("base64url");
}

/**
 * The claims of a scanned share code (surrounding white space ignored), once its form, signature, purpose and
 * expiry are checked (spec §4 "Family QR code valid 15 minutes"; revocation is the database's to tell).
 * @param now the current time; a code expiring at this very second is expired.
 * @throws AppError InvalidCode (400) family.codeInvalid for a malformed, tampered, foreign-keyed or foreign-purpose
 *   code; family.codeExpired for an expired one.
 */
export function verifyShareCode(secret: Uint8Array, code: string, now: Date): ShareClaims {
  const invalid = () => new AppError(ErrorCode.InvalidCode, "family.codeInvalid");
  const parts = code.trim().split(".");
  if (parts.length !== 3 || parts[0] !== VERSION) throw invalid();
  const expected = Buffer.from(shareMac(secret, `${parts[0]}.${parts[1]}`));
  const given = Buffer.from(parts[2]);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalid();
  let claims: ShareClaims;
  try {
    claims = JSON.parse(Buffer.from(parts[1], "base64url").toString("utf8")) as ShareClaims;
  } catch {
    throw invalid();
  }
  if (claims.p !== SHARE_PURPOSE || typeof claims.f !== "string" || typeof claims.j !== "string") throw invalid();
  if (typeof claims.e !== "number" || claims.e * 1000 <= now.getTime()) {
    throw new AppError(ErrorCode.InvalidCode, "family.codeExpired");
  }
  return claims;
}

/** The claims a family_share_codes row's code carries (expiry in whole Unix seconds). */
export function shareClaimsOf(row: {
  id: string;
  family_id: string;
  inviter_id: string;
  expires_at: string;
}): ShareClaims {
  return {
    p: SHARE_PURPOSE,
    f: row.family_id,
    i: row.inviter_id,
    j: row.id,
    e: Math.floor(Date.parse(row.expires_at) / 1000),
  };
}

/**
 * When a code issued at `issued` expires, Unix ms: {@link SHARE_CODE_SECONDS} later, rounded up to a whole second
 * so the expiry in the code (seconds) and in the row agree exactly.
 */
export function shareCodeExpiryMs(issued: Date): number {
  return Math.ceil((issued.getTime() + SHARE_CODE_SECONDS * 1000) / 1000) * 1000;
}

/** Whole seconds from `issued` until `expiresMs` (Unix ms), rounded down: the validSeconds of a TShareCode. */
export function shareValidSeconds(expiresMs: number, issued: Date): number {
  return Math.floor((expiresMs - issued.getTime()) / 1000);
}

/**
 * The earliest expiry (ISO 8601) a current code may have to be shown again at `issued` rather than replaced: it must
 * have more than {@link SHARE_CODE_REUSE_MIN_SECONDS} left.
 */
export function shareReuseCutoff(issued: Date): string {
  return new Date(issued.getTime() + SHARE_CODE_REUSE_MIN_SECONDS * 1000).toISOString();
}

/** A listed code's state at `atMs` (Unix ms): expired from its expiry on, revoked once revoked_at is set. */
export function shareState(
  row: { expires_at: string; revoked_at: string | null },
  atMs: number,
): { expired: boolean; revoked: boolean } {
  return { expired: Date.parse(row.expires_at) <= atMs, revoked: row.revoked_at !== null };
}
