import {
  createHmac,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
  sign,
  timingSafeEqual,
  verify,
} from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { ensurePrivateDir, PRIVATE_FILE_MODE } from "../../data-dir.ts";

/**
 * Firmware signatures (docs/device-protocol.md §3.7 "Firmware update"): Ed25519 (RFC 8032, pure Ed25519, as Node's
 * `crypto.sign(null, …)` makes it) over the image's 32-byte SHA-256 digest, not over the image itself, so a device
 * hashes the image while it streams it to flash and verifies 32 bytes at the end without holding the image in memory.
 * The signature travels base64 (64 bytes).
 */

/** Folder under DATA_DIR of the development vendor key pair. */
export const DEV_SIGNING_DIR = "firmware-signing";
/** File of the development vendor's private key (PKCS #8 PEM, mode 0600) under {@link DEV_SIGNING_DIR}. */
export const DEV_SIGNING_KEY_FILE = "vendor-dev.key";

/** A SHA-256 digest as text: 64 hex digits (lower case once normalised). */
export const SHA256_HEX = /^[0-9a-f]{64}$/;

/**
 * Reads one vendor public key: a PEM public key (SPKI) or the raw 32-byte key in base64 / base64url.
 * @throws Error when the text is neither, or the key is not Ed25519.
 */
export function parsePublicKey(text: string): KeyObject {
  const trimmed = text.trim();
  let key: KeyObject;
  if (trimmed.startsWith("-----BEGIN")) {
    key = createPublicKey(trimmed);
  } else {
    const raw = Buffer.from(trimmed, "base64");
    if (raw.length !== 32) throw new Error("a raw Ed25519 public key is 32 bytes in base64");
    key = createPublicKey({ key: { kty: "OKP", crv: "Ed25519", x: raw.toString("base64url") }, format: "jwk" });
  }
  if (key.asymmetricKeyType !== "ed25519") throw new Error("firmware signing keys are Ed25519");
  return key;
}

/**
 * The trusted vendor keys of `FIRMWARE_SIGNING_PUBLIC_KEYS`: comma-separated PEM or base64 raw keys (empty entries
 * skipped), so a new key can be trusted before the old one is retired.
 * @throws Error naming the entry's position when one is not an Ed25519 public key.
 */
export function parseTrustedKeys(list: string): KeyObject[] {
  return list
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)
    .map((entry, i) => {
      try {
        return parsePublicKey(entry);
      } catch (err) {
        throw new Error(`FIRMWARE_SIGNING_PUBLIC_KEYS entry ${i + 1}: ${(err as Error).message}`);
      }
    });
}

/** The raw 32-byte Ed25519 public key in base64 (the form devices pin and the configuration accepts). */
export function rawPublicKeyBase64(key: KeyObject): string {
  const jwk = key.export({ format: "jwk" }) as { x?: string };
  return Buffer.from(jwk.x ?? "", "base64url").toString("base64");
}

/**
 * The development vendor key pair, created once in DATA_DIR/firmware-signing/vendor-dev.key (PKCS #8 PEM, mode 0600,
 * exclusive create so two processes agree on one key). The private key is never logged.
 * @throws when the folder or file cannot be created or read, or the file holds no Ed25519 private key.
 */
export function loadOrCreateDevSigningKey(dataDir: string): { privateKey: KeyObject; publicKey: KeyObject } {
  const dir = path.join(dataDir, DEV_SIGNING_DIR);
  ensurePrivateDir(dir);
  const file = path.join(dir, DEV_SIGNING_KEY_FILE);
  if (!fs.existsSync(file)) {
    const pair = generateKeyPairSync("ed25519");
    const pem = pair.privateKey.export({ format: "pem", type: "pkcs8" }) as string;
    try {
      fs.writeFileSync(file, pem, { mode: PRIVATE_FILE_MODE, flag: "wx" });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
  }
  return readSigningKey(file);
}

/**
 * Reads a vendor private key file (PKCS #8 PEM, as {@link loadOrCreateDevSigningKey} writes and `openssl genpkey
 * -algorithm ed25519` makes) and its public key.
 * @throws when the file is unreadable or holds no Ed25519 private key (the message never quotes the file).
 */
export function readSigningKey(file: string): { privateKey: KeyObject; publicKey: KeyObject } {
  const privateKey = createPrivateKey(fs.readFileSync(file, "utf8"));
  if (privateKey.asymmetricKeyType !== "ed25519") throw new Error(`${file} is not an Ed25519 private key`);
  return { privateKey, publicKey: createPublicKey(privateKey) };
}

/** The vendor's signature of an image with SHA-256 `sha256` (hex): Ed25519 over the 32-byte digest, base64. */
export function signFirmwareDigest(privateKey: KeyObject, sha256: string): string {
  return sign(null, Buffer.from(sha256, "hex"), privateKey).toString("base64");
}

/**
 * True when `signature` (base64, 64 bytes) is an Ed25519 signature over the 32-byte digest `sha256` (hex) by one of
 * `keys`. Malformed input answers false.
 */
export function verifyFirmwareDigest(keys: readonly KeyObject[], sha256: string, signature: string): boolean {
  if (!SHA256_HEX.test(sha256)) return false;
  const sig = Buffer.from(signature, "base64");
  if (sig.length !== 64) return false;
  const digest = Buffer.from(sha256, "hex");
  return keys.some((key) => verify(null, digest, key, sig));
}

/** File under DATA_DIR of the HMAC key of the download tokens (32 random bytes, loadOrCreateSecret). */
export const DOWNLOAD_KEY_FILE = "firmware-download.secret";
/** How long a download URL of an `ota` command stays valid, s (1 h: a slow download resumes well within it). */
export const DOWNLOAD_TOKEN_SECONDS = 3600;

function tokenMac(key: Uint8Array, deviceId: string, sha256: string, expires: number): string {
  return createHmac("sha256", key).update(`firmware\n${deviceId}\n${sha256}\n${expires}`).digest("base64url");
}

/**
 * A download token for one device and one image: `{expires}.{HMAC-SHA256(key, device, sha256, expires)}`, expires in
 * Unix seconds. The `ota` command's URL carries it with the device id, so only the commanded device's URL works.
 */
export function downloadToken(key: Uint8Array, deviceId: string, sha256: string, expiresAt: Date): string {
  const expires = Math.floor(expiresAt.getTime() / 1000);
  return `${expires}.${tokenMac(key, deviceId, sha256, expires)}`;
}

/** Why a download token is refused: "invalid" (malformed or not for this device and image) or "expired". */
export type DownloadTokenProblem = "invalid" | "expired";

/** Checks a {@link downloadToken} for `deviceId` and `sha256` at `now`: null when valid, else the problem. */
export function checkDownloadToken(
  key: Uint8Array,
  token: string,
  deviceId: string,
  sha256: string,
  now: Date,
): DownloadTokenProblem | null {
  const m = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!m) return "invalid";
  const expires = Number(m[1]);
  const expected = Buffer.from(tokenMac(key, deviceId, sha256, expires));
  const given = Buffer.from(m[2]);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return "invalid";
  return now.getTime() >= expires * 1000 ? "expired" : null;
}
