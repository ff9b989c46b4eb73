import { randomUUID } from "node:crypto";
import type { Db } from "../db/index.js";

/**
 * Ends every session of a user inside the caller's transaction (password reset or change, account deletion):
 * a new security stamp — so every access token already issued is refused on the next REST call and by the hubs —
 * and every live refresh token revoked. The caller publishes bus `user.revoked` after the commit so the hubs close
 * the user's sockets at once. `now` stamps revoked_at.
 */
export async function endSessions(trx: Db, userId: string, now: Date): Promise<void> {
  await trx.updateTable("users").set({ security_stamp: randomUUID() }).where("id", "=", userId).execute();
  await trx
    .updateTable("refresh_tokens")
    .set({ revoked_at: now.toISOString() })
    .where("user_id", "=", userId)
    .where("revoked_at", "is", null)
    .execute();
}
