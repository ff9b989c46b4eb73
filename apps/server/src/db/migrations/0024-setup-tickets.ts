import type { Kysely } from "kysely";

/**
 * Setup tickets (docs/device-protocol.md §13.4 "Setup tickets"): a one-time value the app hands a module during network
 * setup and the module sends with activation step two, so the app can learn from the cloud which module it set up
 * when the module's firmware hands it no pairing code. Only the ticket's SHA-256 (hex) is stored. A ticket belongs to
 * the user who created it (`created_by`) for one household (`family_id`), is valid until `expires_at` (10 minutes) and
 * is taken by at most one device (`device_id`, set once at `activated_at`). Same SQL on SQLite and PostgreSQL (text
 * ids, ISO 8601 UTC text times).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("setup_tickets")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("ticket_hash", "text", (c) => c.notNull().unique())
    .addColumn("family_id", "text", (c) => c.notNull().references("families.id").onDelete("cascade"))
    .addColumn("created_by", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("device_id", "text", (c) => c.references("devices.id").onDelete("cascade"))
    .addColumn("activated_at", "text")
    .execute();
  await db.schema
    .createIndex("setup_tickets_creator")
    .on("setup_tickets")
    .columns(["created_by", "expires_at"])
    .execute();
}

/** Reverts {@link up}. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("setup_tickets").ifExists().execute();
}
