import { hash, verify } from "@node-rs/argon2";

/**
 * argon2id parameters (OWASP minimum: 19 MiB memory, 2 iterations, 1 lane). The algorithm is left at the library's
 * default, Argon2id (its `Algorithm` is a const enum that isolated modules cannot read); passwords.test.ts checks it.
 */
const OPTIONS = { memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

/** Hashes a password (or a device secret) with argon2id; the PHC string carries salt and parameters. */
export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

let dummyHash: Promise<string> | undefined;

/**
 * Checks `password` against an argon2id PHC hash. With `hashed` null (unknown account) it still spends the same
 * time on a dummy hash, so response times do not tell which accounts exist. Never throws on a malformed hash.
 */
export async function verifyPassword(hashed: string | null, password: string): Promise<boolean> {
  if (hashed === null) {
    dummyHash ??= hashPassword("not-a-real-password");
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  try {
    return await verify(hashed, password);
  } catch {
    return false;
  }
}
