import type { Kysely } from "kysely";

/**
 * Idempotency keys (every submit takes effect once; http/idempotency.ts): one row per caller and
 * `Idempotency-Key`, holding the fingerprint of the first request and, once it was answered, its HTTP status and
 * body, replayed for a repeat within 24 hours. Same SQL on SQLite and PostgreSQL (ISO 8601 UTC text times: no
 * per-engine types, and text order is time order). The primary key makes two processes racing on one key agree on a
 * single winner.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("idempotency_keys")
    .addColumn("caller", "text", (c) => c.notNull())
    .addColumn("key", "text", (c) => c.notNull())
    .addColumn("fingerprint", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("response_status", "integer")
    .addColumn("response_body", "text")
    .addPrimaryKeyConstraint("idempotency_keys_pk", ["caller", "key"])
    .execute();
  await db.schema.createIndex("idempotency_keys_created").on("idempotency_keys").column("created_at").execute();
}

/** Reverts {@link up}. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("idempotency_keys").ifExists().execute();
}
