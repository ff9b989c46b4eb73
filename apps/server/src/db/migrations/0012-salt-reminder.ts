import type { Kysely } from "kysely";

/**
 * The low-salt reminder: per device, "remind me when salt runs out within N
 * days" (`days`), who set it and when. A device without a row uses the default (contract SALT_REMINDER_DAYS). Same
 * SQL on SQLite and PostgreSQL (ISO 8601 UTC text times: no per-engine types, and text order is time order).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("device_salt_reminder")
    .addColumn("device_id", "text", (c) => c.primaryKey().references("devices.id").onDelete("cascade"))
    .addColumn("days", "integer", (c) => c.notNull())
    .addColumn("updated_by", "text")
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
}

/** Reverts {@link up}. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("device_salt_reminder").ifExists().execute();
}
