import type { Kysely } from "kysely";

/**
 * Account flows (spec §6): `users.is_master` marks a device master (integer 0/1, default 0; granted only by
 * the operator script src/cli/set-master.ts), and an index so revoking a user's refresh tokens does not scan.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("users")
    .addColumn("is_master", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex("refresh_tokens_user").on("refresh_tokens").column("user_id").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("refresh_tokens_user").ifExists().execute();
  await db.schema.alterTable("users").dropColumn("is_master").execute();
}
