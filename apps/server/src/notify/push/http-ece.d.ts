/** Types of the part of `http_ece` (RFC 8188 encrypted content encoding) the Web Push tests use to decrypt. */
declare module "http_ece" {
  import type { ECDH } from "node:crypto";
  /** Decrypts an aes128gcm body with the subscriber's ECDH key and auth secret (base64url or Buffer). */
  export function decrypt(
    buffer: Buffer,
    params: { version: "aes128gcm" | "aesgcm"; privateKey: ECDH; authSecret: string | Buffer },
  ): Buffer;
  const ece: { decrypt: typeof decrypt };
  export default ece;
}
