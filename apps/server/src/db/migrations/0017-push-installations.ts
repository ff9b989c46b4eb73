import type { Kysely } from "kysely";

/**
 * Push bindings move only with proof, so nobody takes over another user's pushes silently:
 * `push_registrations.installation_hash` keeps the SHA-256 (hex) of the random installation id the app sent when it
 * bound the JPush registration; a registration held by another user moves only to a caller presenting the same
 * installation id. Null for rows bound by older apps (they never move).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("push_registrations").addColumn("installation_hash", "text").execute();
}

/** Reverts {@link up}. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("push_registrations").dropColumn("installation_hash").execute();
}
