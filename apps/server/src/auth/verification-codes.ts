import { createHmac, randomInt, randomUUID, timingSafeEqual } from "node:crypto";
import type { Db } from "../db/index.ts";
import { AppError, ErrorCode } from "../http/errors.ts";

/** A code is valid for 10 minutes. */
export const CODE_TTL_SECONDS = 600;
/** A new code for the same purpose and target no sooner than 60 s after the last. */
export const CODE_RESEND_SECONDS = 60;
/** Wrong tries one requester (client address) may make on one code; its further tries are refused unchecked. */
export const CODE_TRIES_PER_REQUESTER = 5;
/**
 * Wrong tries on one code from all requesters together, after which the code is dead for everyone: the owner's code
 * survives one stranger's five wrong tries (and a second's), while the guessing odds per code stay 15 in 10^6.
 */
export const CODE_MAX_ATTEMPTS = 15;
/** File in DATA_DIR holding the HMAC key codes are hashed with. */
export const CODE_KEY_FILE = "code-hmac-key";

/**
 * The client address checking codes, as the code service sees it (security/limits.ts `Guards.codeRequester` builds
 * one from a request, counting in the rate-limit store).
 */
export interface CodeRequester {
  /**
   * Counts one try of this requester on the code `codeId` and answers the requester's tries on it including this
   * one (kept as long as a code lives).
   */
  tryCode(codeId: string): Promise<number>;
}

/** What a code is for (verification_codes.purpose). */
export type CodePurpose = "register" | "reset-password" | "change-identity" | "delete-account";

/** Verification codes: 6 digits, stored as HMAC-SHA256, expiring, single use, rate limited (spec §5). */
export interface CodeService {
  /**
   * Creates a code for `target` (normalised e-mail or +countrycode phone) and answers it in clear, for sending.
   * @throws AppError TooManyRequests (429) when the last code for the same purpose and target is under 60 s old.
   */
  issue(purpose: CodePurpose, target: string): Promise<{ id: string; code: string }>;
  /** Removes a code that could not be delivered, so the user may ask again at once. */
  discard(id: string): Promise<void>;
  /**
   * Checks `code` against the newest live code for purpose and target (or any of several targets, e.g. the own
   * e-mail and phone of an account) and answers its id. Each try of `requester` is counted per code; past
   * {@link CODE_TRIES_PER_REQUESTER} its tries are refused without comparing, and the code lives on for others. A
   * wrong code counts one try on the code (committed at once); the {@link CODE_MAX_ATTEMPTS}th kills it for
   * everyone. Without a requester (a signed-in owner checking a code sent to their own account) the caller counts
   * as the code's only requester: its fifth wrong try kills the code.
   * @throws AppError InvalidCode (400): no live code (account.codeNotFound), wrong (account.codeWrong with
   *   {remaining}, the tries this requester has left) or dead, for everyone or for this requester
   *   (account.codeDead).
   */
  check(
    purpose: CodePurpose,
    target: string | readonly string[],
    code: string,
    requester?: CodeRequester,
  ): Promise<string>;
  /**
   * Marks a checked code used, inside the caller's transaction, so it is spent only if the whole operation commits.
   * @throws AppError InvalidCode when another request used it in the meantime.
   */
  consume(trx: Db, id: string): Promise<void>;
}

/**
 * Seconds a new code for the same purpose and target must still wait (spec §5: one code per minute), rounded up;
 * 0 when it may be sent now.
 * @param lastCreatedAt ISO 8601 creation time of the newest code for that purpose and target, undefined for none.
 */
export function resendWaitSeconds(lastCreatedAt: string | undefined, now: Date): number {
  if (lastCreatedAt === undefined) return 0;
  const waitMs = new Date(lastCreatedAt).getTime() + CODE_RESEND_SECONDS * 1000 - now.getTime();
  return waitMs > 0 ? Math.ceil(waitMs / 1000) : 0;
}

/** A new code: 6 decimal digits, uniformly random from a CSPRNG (leading zeros kept). */
export function newCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, "0");
}

/** When a code issued at `issued` expires ({@link CODE_TTL_SECONDS} later), ISO 8601. */
export function codeExpiresAt(issued: Date): string {
  return new Date(issued.getTime() + CODE_TTL_SECONDS * 1000).toISOString();
}

/**
 * The stored form of a code: hex HMAC-SHA256 under `secret` of `<id>:<code>`, so a leaked table reveals no code and
 * a hash cannot be moved to another row.
 */
export function codeHash(secret: Uint8Array, id: string, code: string): string {
  return createHmac("sha256", secret).update(`${id}:${code}`).digest("hex");
}

/** Whether `code` is the code stored in `row` (compared in constant time). */
export function codeMatches(secret: Uint8Array, row: { id: string; code_hash: string }, code: string): boolean {
  const expected = Buffer.from(row.code_hash, "hex");
  const given = Buffer.from(codeHash(secret, row.id, code), "hex");
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** Whether a code with `attempts` wrong tries (from all requesters) is dead ({@link CODE_MAX_ATTEMPTS}). */
export function isDeadCode(attempts: number): boolean {
  return attempts >= CODE_MAX_ATTEMPTS;
}

/**
 * The tries a requester has left on a code with `attempts` wrong tries from everyone, `requesterTries` of them the
 * requester's own: the fewer of what the code and what the requester may still take, never below 0.
 */
export function codeTriesLeft(attempts: number, requesterTries: number): number {
  return Math.max(0, Math.min(CODE_MAX_ATTEMPTS - attempts, CODE_TRIES_PER_REQUESTER - requesterTries));
}

/**
 * The error of a wrong code, given the code's wrong tries and the requester's tries, both counting this one:
 * account.codeWrong with the tries `remaining` to the requester, or account.codeDead when none remain.
 */
export function wrongCodeError(attempts: number, requesterTries: number): AppError {
  const remaining = codeTriesLeft(attempts, requesterTries);
  if (remaining === 0) return new AppError(ErrorCode.InvalidCode, "account.codeDead");
  return new AppError(ErrorCode.InvalidCode, "account.codeWrong", { remaining });
}

/** Creates the {@link CodeService}; `secret` is the HMAC key (see {@link CODE_KEY_FILE}). */
export function createCodeService(opts: { db: Db; secret: Uint8Array; now?: () => Date }): CodeService {
  const { db, secret } = opts;
  const now = opts.now ?? (() => new Date());

  return {
    async issue(purpose, target) {
      const t = now();
      const last = await db
        .selectFrom("verification_codes")
        .select("created_at")
        .where("purpose", "=", purpose)
        .where("target", "=", target)
        .orderBy("created_at", "desc")
        .limit(1)
        .executeTakeFirst();
      const seconds = resendWaitSeconds(last?.created_at, t);
      if (seconds > 0) throw new AppError(ErrorCode.TooManyRequests, "account.codeTooSoon", { seconds });
      const id = randomUUID();
      const code = newCode();
      await db
        .insertInto("verification_codes")
        .values({
          id,
          purpose,
          target,
          code_hash: codeHash(secret, id, code),
          attempts: 0,
          expires_at: codeExpiresAt(t),
          consumed_at: null,
          created_at: t.toISOString(),
        })
        .execute();
      return { id, code };
    },

    async discard(id) {
      await db.deleteFrom("verification_codes").where("id", "=", id).execute();
    },

    async check(purpose, target, code, requester) {
      const row = await db
        .selectFrom("verification_codes")
        .selectAll()
        .where("purpose", "=", purpose)
        .where("target", "in", typeof target === "string" ? [target] : target.length ? [...target] : [""])
        .where("consumed_at", "is", null)
        .where("expires_at", ">", now().toISOString())
        .orderBy("created_at", "desc")
        .limit(1)
        .executeTakeFirst();
      if (!row) throw new AppError(ErrorCode.InvalidCode, "account.codeNotFound");
      if (isDeadCode(row.attempts)) throw new AppError(ErrorCode.InvalidCode, "account.codeDead");
      // The requester's try is counted before the comparison, so concurrent tries cannot slip past its allowance.
      const tries = requester ? await requester.tryCode(row.id) : row.attempts + 1;
      if (tries > CODE_TRIES_PER_REQUESTER) throw new AppError(ErrorCode.InvalidCode, "account.codeDead");
      if (codeMatches(secret, row, code)) return row.id;
      await db
        .updateTable("verification_codes")
        .set((eb) => ({ attempts: eb("attempts", "+", 1) }))
        .where("id", "=", row.id)
        .execute();
      throw wrongCodeError(row.attempts + 1, tries);
    },

    async consume(trx, id) {
      const res = await trx
        .updateTable("verification_codes")
        .set({ consumed_at: now().toISOString() })
        .where("id", "=", id)
        .where("consumed_at", "is", null)
        .where("attempts", "<", CODE_MAX_ATTEMPTS)
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) !== 1) throw new AppError(ErrorCode.InvalidCode, "account.codeNotFound");
    },
  };
}
