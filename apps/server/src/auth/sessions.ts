import { randomUUID } from "node:crypto";
import type { Db } from "../db/index.ts";

/**
 * Why a session ended (sessions.ended_reason): `logout` (RFC 7009 revocation), `replay` (a rotated refresh token of
 * the session was presented again: it leaked, so the whole family goes), and for every session of a user at once:
 * `password-changed` (the password was changed while signed in), `password-reset` (reset by a code),
 * `account-deleted`. `all` is what rows written before the reasons were told apart say for the last three.
 * The token endpoint names the reason when it refuses the session's refresh token, so the app can say why.
 */
export type SessionEndReason = "logout" | "replay" | "all" | UserSessionsEndReason;

/** Why every session of a user ended at once ({@link endSessions}). */
export type UserSessionsEndReason = "password-changed" | "password-reset" | "account-deleted";

/**
 * Starts a session (a refresh-token family, which a replay ends whole) for `userId` at `now`: one row in `sessions`.
 * Every sign-in starts one; refresh rotation keeps it. Answers the new session id (the access tokens' `sid`).
 */
export async function startSession(db: Db, userId: string, now: Date): Promise<string> {
  const id = randomUUID();
  await db
    .insertInto("sessions")
    .values({ id, user_id: userId, created_at: now.toISOString(), ended_at: null, ended_reason: null })
    .execute();
  return id;
}

/**
 * Ends one session at `now` for `reason`: its access tokens are refused on the next call (their `sid`
 * is checked on every request and hub connect) and every refresh token of the family is revoked. Answers the
 * session's user when this call ended it, null when it was unknown or had already ended. The caller publishes bus
 * `session.ended` so the hubs close the session's connections.
 */
export async function endSession(
  db: Db,
  sessionId: string,
  reason: SessionEndReason,
  now: Date,
): Promise<{ userId: string } | null> {
  return db.transaction().execute(async (trx) => {
    const at = now.toISOString();
    const ended = await trx
      .updateTable("sessions")
      .set({ ended_at: at, ended_reason: reason })
      .where("id", "=", sessionId)
      .where("ended_at", "is", null)
      .returning("user_id")
      .executeTakeFirst();
    await trx
      .updateTable("refresh_tokens")
      .set({ revoked_at: at })
      .where("session_id", "=", sessionId)
      .where("revoked_at", "is", null)
      .execute();
    return ended ? { userId: ended.user_id } : null;
  });
}

/**
 * Ends every session of a user inside the caller's transaction (password reset or change, account deletion):
 * a new security stamp — so every access token already issued is refused on the next REST call and by the hubs —
 * every session ended (with `reason`) and every live refresh token revoked. The caller publishes bus `user.revoked`
 * after the commit so the hubs close the user's sockets at once. `now` stamps ended_at and revoked_at.
 */
export async function endSessions(trx: Db, userId: string, now: Date, reason: UserSessionsEndReason): Promise<void> {
  const at = now.toISOString();
  await trx.updateTable("users").set({ security_stamp: randomUUID() }).where("id", "=", userId).execute();
  await trx
    .updateTable("sessions")
    .set({ ended_at: at, ended_reason: reason })
    .where("user_id", "=", userId)
    .where("ended_at", "is", null)
    .execute();
  await trx
    .updateTable("refresh_tokens")
    .set({ revoked_at: at })
    .where("user_id", "=", userId)
    .where("revoked_at", "is", null)
    .execute();
}
