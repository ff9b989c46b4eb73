import type { Db } from "../db/index.ts";

/** How long a key is remembered: a repeat within this window replays the first answer, ms (24 h). */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;
/** A first request that has not answered after this long is taken as lost (its process crashed), ms. */
export const IDEMPOTENCY_ABANDONED_MS = 60_000;

/** Who sent a keyed request, the key and its request's fingerprint. */
export interface IdempotencyClaim {
  caller: string;
  key: string;
  fingerprint: string;
}

/**
 * What {@link claimIdempotencyKey} found: the key is this request's to run ("claimed"), the first request's answer
 * to send again ("replay"), the first request still running ("running"), or the key already used for a different
 * request ("mismatch").
 */
export type ClaimOutcome =
  | { kind: "claimed" }
  | { kind: "replay"; status: number; body: string }
  | { kind: "running" }
  | { kind: "mismatch" };

/** The stored state of a key that {@link judgeStoredKey} decides on (a row of idempotency_keys). */
export interface StoredKey {
  fingerprint: string;
  /** ISO 8601. */
  created_at: string;
  response_status: number | null;
  response_body: string | null;
}

/**
 * What a repeated claim of a stored key gets (the rule of {@link claimIdempotencyKey}, without the database): within
 * {@link IDEMPOTENCY_WINDOW_MS} of the stored claim, a different request (`fingerprint`) is a "mismatch", a stored
 * answer is replayed, and a first request still running is "running" until it is {@link IDEMPOTENCY_ABANDONED_MS}
 * old; a forgotten key (older than the window) or an abandoned one is to be taken over ("takeOver") for this request.
 * @param now the current time.
 */
export function judgeStoredKey(
  row: StoredKey,
  fingerprint: string,
  now: Date,
): Exclude<ClaimOutcome, { kind: "claimed" }> | { kind: "takeOver" } {
  const age = now.getTime() - Date.parse(row.created_at);
  const forgotten = age > IDEMPOTENCY_WINDOW_MS;
  if (!forgotten) {
    if (row.fingerprint !== fingerprint) return { kind: "mismatch" };
    if (row.response_status !== null && row.response_body !== null)
      return { kind: "replay", status: row.response_status, body: row.response_body };
    if (age < IDEMPOTENCY_ABANDONED_MS) return { kind: "running" };
  }
  return { kind: "takeOver" };
}

/**
 * Claims `claim.key` for `claim.caller` (the same key from the same caller within 24 h gets the first answer
 * replayed). The insert relies on the primary key, so of two processes claiming one key at once exactly one wins. A
 * row older than {@link IDEMPOTENCY_WINDOW_MS} counts as forgotten, and a running row older than
 * {@link IDEMPOTENCY_ABANDONED_MS} as abandoned: either is taken over by a conditional update (again one winner).
 * Forgotten rows are deleted by {@link purgeIdempotencyKeys}, not here.
 * @param now the current time.
 */
export async function claimIdempotencyKey(db: Db, claim: IdempotencyClaim, now: Date): Promise<ClaimOutcome> {
  const inserted = await db
    .insertInto("idempotency_keys")
    .values({ ...claim, created_at: now.toISOString(), response_status: null, response_body: null })
    .onConflict((oc) => oc.columns(["caller", "key"]).doNothing())
    .returning("key")
    .executeTakeFirst();
  if (inserted) return { kind: "claimed" };

  const row = await db
    .selectFrom("idempotency_keys")
    .selectAll()
    .where("caller", "=", claim.caller)
    .where("key", "=", claim.key)
    .executeTakeFirst();
  // Purged in between (forgotten at this very moment): the caller may simply try again.
  if (!row) return { kind: "running" };
  const verdict = judgeStoredKey(row, claim.fingerprint, now);
  if (verdict.kind !== "takeOver") return verdict;
  const taken = await db
    .updateTable("idempotency_keys")
    .set({ fingerprint: claim.fingerprint, created_at: now.toISOString(), response_status: null, response_body: null })
    .where("caller", "=", claim.caller)
    .where("key", "=", claim.key)
    .where("created_at", "=", row.created_at)
    .executeTakeFirst();
  return Number(taken.numUpdatedRows) === 1 ? { kind: "claimed" } : { kind: "running" };
}

/** Deletes keys older than {@link IDEMPOTENCY_WINDOW_MS} (housekeeping; a forgotten key no longer replays anyway). */
export async function purgeIdempotencyKeys(db: Db, now: Date): Promise<void> {
  const cutoff = new Date(now.getTime() - IDEMPOTENCY_WINDOW_MS).toISOString();
  await db.deleteFrom("idempotency_keys").where("created_at", "<", cutoff).execute();
}

/** Stores the answer of a claimed key (HTTP status and the body text) so repeats replay it. */
export async function completeIdempotencyKey(
  db: Db,
  ref: { caller: string; key: string },
  status: number,
  body: string,
): Promise<void> {
  await db
    .updateTable("idempotency_keys")
    .set({ response_status: status, response_body: body })
    .where("caller", "=", ref.caller)
    .where("key", "=", ref.key)
    .execute();
}

/** Forgets a claimed key whose request failed on the server's side (5xx), so a retry runs it again. */
export async function releaseIdempotencyKey(db: Db, ref: { caller: string; key: string }): Promise<void> {
  await db
    .deleteFrom("idempotency_keys")
    .where("caller", "=", ref.caller)
    .where("key", "=", ref.key)
    .where("response_status", "is", null)
    .execute();
}
