import type { Kysely } from "kysely";

/**
 * Schema changes: after-sales requests and help articles. after_sales keeps device and household ids as
 * plain text (no foreign keys) so deleting a device or a household never breaks the owner's old requests.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("after_sales")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("device_id", "text", (c) => c.notNull())
    .addColumn("device_name", "text", (c) => c.notNull())
    .addColumn("family_id", "text", (c) => c.notNull())
    .addColumn("description", "text", (c) => c.notNull())
    .addColumn("photos_json", "text", (c) => c.notNull())
    .addColumn("contact_phone", "text")
    .addColumn("handled", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("handled_time", "text")
    .addColumn("reply", "text")
    .addColumn("diagnostics_json", "text")
    .addColumn("creation_time", "text", (c) => c.notNull())
    .addColumn("last_modification_time", "text")
    .execute();
  await db.schema
    .createIndex("after_sales_user_time")
    .on("after_sales")
    .columns(["user_id", "creation_time"])
    .execute();
  await db.schema
    .createIndex("after_sales_handled_time")
    .on("after_sales")
    .columns(["handled", "creation_time"])
    .execute();

  await db.schema
    .createTable("articles")
    .addColumn("id", "text", (c) => c.notNull())
    .addColumn("language", "text", (c) => c.notNull())
    .addColumn("category", "text", (c) => c.notNull())
    .addColumn("sort", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("summary", "text", (c) => c.notNull())
    .addColumn("content", "text", (c) => c.notNull())
    .addColumn("search_text", "text", (c) => c.notNull())
    .addColumn("content_hash", "text", (c) => c.notNull())
    .addColumn("last_modification_time", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("articles_pk", ["id", "language"])
    .execute();
  await db.schema.createIndex("articles_language_sort").on("articles").columns(["language", "sort"]).execute();
}

/** Reverts {@link up}. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("articles").ifExists().execute();
  await db.schema.dropTable("after_sales").ifExists().execute();
}
