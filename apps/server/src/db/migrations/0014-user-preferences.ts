import type { Kysely } from "kysely";

/**
 * The owner's display units, kept per user: volume (L or US gal) and water hardness (mg/L CaCO₃,
 * °dH, °fH or gpg). A user without a row uses the defaults (contract DEFAULT_UNIT_PREFERENCES). Same SQL on SQLite
 * and PostgreSQL (ISO 8601 UTC text times: no per-engine types, and text order is time order).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("user_preferences")
    .addColumn("user_id", "text", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("volume_unit", "text", (c) => c.notNull())
    .addColumn("hardness_unit", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
}

/** Reverts {@link up}. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("user_preferences").ifExists().execute();
}
