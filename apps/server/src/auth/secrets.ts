import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { ensurePrivateDir } from "../data-dir.ts";
import { isWeakKey } from "./secret-policy.ts";

/**
 * Reads the secret kept in `DATA_DIR/<fileName>`, creating it on first start (random `bytes` bytes, base64url,
 * file mode 0600) so the JWT signing key and the code HMAC key survive restarts. Creation uses an exclusive open,
 * so two processes starting together agree on one secret.
 * @throws when the folder cannot be created, the file is unreadable, or the key is weak (shorter than 32
 *   bytes or too repetitive to be random, secret-policy.ts `isWeakKey`; e.g. a hand-written placeholder). The message
 *   names the file, never the key.
 */
export function loadOrCreateSecret(dataDir: string, fileName: string, bytes = 32): Uint8Array {
  ensurePrivateDir(dataDir);
  const file = path.join(dataDir, fileName);
  try {
    fs.writeFileSync(file, randomBytes(bytes).toString("base64url"), { mode: 0o600, flag: "wx" });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
  }
  fs.chmodSync(file, 0o600);
  const key = Buffer.from(fs.readFileSync(file, "utf8").trim(), "base64url");
  if (key.length < 32) throw new Error(`Secret file ${file} is shorter than 32 bytes; delete it to regenerate`);
  if (isWeakKey(key))
    throw new Error(`Secret file ${file} is not random (a known or repetitive key); delete it to regenerate`);
  return new Uint8Array(key);
}
