import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/**
 * Stateless activation nonces (docs/device-protocol.md §13.4 step 1): `<expiry ms>.<salt>.<signature>`, where the
 * signature is HMAC-SHA256 (key from DATA_DIR/activation.secret) over the MAC, the expiry and 8 random bytes of salt,
 * base64url. Nothing is stored: step two checks the signature, the MAC and the expiry. A nonce only ties step two to a
 * recent step one for the same device; it is not single use (the factory secret is what step two proves).
 */

/** File in DATA_DIR holding the nonce key (32 random bytes, mode 0600, created on first start). */
export const ACTIVATION_KEY_FILE = "activation.secret";

const DOMAIN = "aquapilot/activation-nonce/v1";

function sign(key: Uint8Array, mac: string, expiresMs: number, salt: string): Buffer {
  return createHmac("sha256", key).update(`${DOMAIN}\n${mac}\n${expiresMs}\n${salt}`).digest();
}

/**
 * A nonce for `mac` (12 upper-case hex digits) that expires at `expiresAt`.
 * @returns about 66 ASCII characters.
 */
export function signNonce(key: Uint8Array, mac: string, expiresAt: Date): string {
  const expiresMs = expiresAt.getTime();
  const salt = randomBytes(8).toString("base64url");
  return `${expiresMs}.${salt}.${sign(key, mac, expiresMs, salt).toString("base64url")}`;
}

/**
 * Whether `nonce` was signed with `key` for `mac` and is still valid at `now`: not expired and not expiring more than
 * `maxLifetimeMs` (+1 s) after `now` (so a nonce from a clock set back cannot live longer). Never throws.
 */
export function verifyNonce(key: Uint8Array, mac: string, nonce: string, now: Date, maxLifetimeMs: number): boolean {
  const parts = nonce.split(".");
  if (parts.length !== 3 || !/^\d{1,15}$/.test(parts[0])) return false;
  const expiresMs = Number(parts[0]);
  const nowMs = now.getTime();
  if (expiresMs <= nowMs || expiresMs > nowMs + maxLifetimeMs + 1000) return false;
  const given = Buffer.from(parts[2], "base64url");
  const expected = sign(key, mac, expiresMs, parts[1]);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
