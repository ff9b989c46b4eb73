import type { Kysely } from "kysely";

/**
 * Device activation (docs/device-protocol.md §13.4): the single-use pairing codes `MAC:TOKEN` a module
 * receives from `POST /iot/v1/activation/complete`. Only the token's SHA-256 (hex) is stored; a row is valid until
 * `expires_at` (10 minutes) and consumed once by the binding call (`used_at`, `used_by`). Same SQL on SQLite and
 * PostgreSQL (text ids, ISO 8601 UTC text times: no per-engine types, and text order is time order).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("device_activations")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("device_id", "text", (c) => c.notNull().references("devices.id").onDelete("cascade"))
    .addColumn("token_hash", "text", (c) => c.notNull().unique())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("used_at", "text")
    .addColumn("used_by", "text", (c) => c.references("users.id").onDelete("set null"))
    .execute();
  await db.schema
    .createIndex("device_activations_device")
    .on("device_activations")
    .columns(["device_id", "expires_at"])
    .execute();
}

/** Reverts {@link up}. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("device_activations").ifExists().execute();
}
