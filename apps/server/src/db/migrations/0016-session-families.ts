import { type Kysely, sql } from "kysely";

/**
 * Sessions as refresh-token families: each sign-in starts a `sessions` row; every refresh token
 * of that sign-in carries its `session_id`, and every access token carries it as the `sid` claim. Ending a session
 * (logout, a replayed rotated refresh token, password change, deletion) sets `ended_at` and `ended_reason`, which
 * refuses its access tokens on the next call and its refresh tokens at once.
 * Existing refresh tokens become one session each (their own id, ended when the token was revoked), so a signed-in
 * app keeps its refresh token across the upgrade. Same SQL on SQLite and PostgreSQL
 * (ISO 8601 UTC text times: no per-engine types, and text order is time order).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("sessions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("ended_at", "text")
    .addColumn("ended_reason", "text")
    .execute();
  await db.schema.createIndex("sessions_user").on("sessions").column("user_id").execute();
  await db.schema
    .alterTable("refresh_tokens")
    .addColumn("session_id", "text", (c) => c.references("sessions.id").onDelete("cascade"))
    .execute();
  await db.schema.createIndex("refresh_tokens_session").on("refresh_tokens").column("session_id").execute();
  await sql`INSERT INTO sessions (id, user_id, created_at, ended_at, ended_reason)
    SELECT id, user_id, created_at, revoked_at, CASE WHEN revoked_at IS NULL THEN NULL ELSE 'migrated' END
    FROM refresh_tokens`.execute(db);
  await sql`UPDATE refresh_tokens SET session_id = id WHERE session_id IS NULL`.execute(db);
}

/** Reverts {@link up}. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("refresh_tokens_session").ifExists().execute();
  await db.schema.alterTable("refresh_tokens").dropColumn("session_id").execute();
  await db.schema.dropIndex("sessions_user").ifExists().execute();
  await db.schema.dropTable("sessions").ifExists().execute();
}
