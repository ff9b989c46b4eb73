import { createHash, randomUUID } from "node:crypto";
import type { Db } from "../../db/index.ts";

/**
 * Queries of `device_activations` (migration 0009; docs/device-protocol.md §13.4). Every function takes a `Db` or a
 * transaction (a Kysely `Transaction` is a `Db`). Times are ISO 8601 UTC text, compared as text (text order is time
 * order on both engines).
 */

/** SHA-256 of a pairing-code token as 64 lower-case hex digits: the only form in which a token is stored. */
export function hashActivationToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/**
 * Stores a new pairing code of `deviceId` (only `tokenHash`) and first deletes that device's spent rows (used, or
 * expired at `createdAt`), so a device keeps at most the codes of its last 10 minutes. Run it in a transaction.
 * @returns the new row's id.
 */
export async function insertActivation(
  db: Db,
  input: { deviceId: string; tokenHash: string; createdAt: string; expiresAt: string },
): Promise<string> {
  await db
    .deleteFrom("device_activations")
    .where("device_id", "=", input.deviceId)
    .where((eb) => eb.or([eb("used_at", "is not", null), eb("expires_at", "<=", input.createdAt)]))
    .execute();
  const id = randomUUID();
  await db
    .insertInto("device_activations")
    .values({
      id,
      device_id: input.deviceId,
      token_hash: input.tokenHash,
      created_at: input.createdAt,
      expires_at: input.expiresAt,
      used_at: null,
      used_by: null,
    })
    .execute();
  return id;
}

/**
 * The unused, unexpired pairing code of `deviceId` whose token is `token` (matched by its SHA-256), or undefined —
 * for an unknown, used or expired token alike.
 * @param now ISO 8601 UTC; the code must expire after it.
 */
export async function findUsableActivation(
  db: Db,
  deviceId: string,
  token: string,
  now: string,
): Promise<{ id: string } | undefined> {
  return db
    .selectFrom("device_activations")
    .select("id")
    .where("token_hash", "=", hashActivationToken(token))
    .where("device_id", "=", deviceId)
    .where("used_at", "is", null)
    .where("expires_at", ">", now)
    .executeTakeFirst();
}

/**
 * Consumes pairing code `id` for `userId` at `now` — only while it is still unused and unexpired (one conditional
 * UPDATE, so of two concurrent consumers exactly one succeeds; on PostgreSQL the second waits for the first's
 * transaction and then matches nothing).
 * @returns true when this call consumed it.
 */
export async function consumeActivation(db: Db, id: string, userId: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable("device_activations")
    .set({ used_at: now, used_by: userId })
    .where("id", "=", id)
    .where("used_at", "is", null)
    .where("expires_at", ">", now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Withdraws every still-unused pairing code of device `deviceId` (docs/device-protocol.md §13.4): once a household
 * has claimed the device, codes issued for earlier setup attempts must not move it again.
 * @returns how many codes were withdrawn.
 */
export async function revokeUnusedActivations(db: Db, deviceId: string): Promise<number> {
  const result = await db
    .deleteFrom("device_activations")
    .where("device_id", "=", deviceId)
    .where("used_at", "is", null)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
