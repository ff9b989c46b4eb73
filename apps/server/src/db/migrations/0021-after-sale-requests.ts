import { type Kysely, sql } from "kysely";

/**
 * The after-sales table takes the code's name for the concept (docs/glossary.md "Names in code"): `after_sales`
 * becomes `after_sale_requests`, its indexes `after_sale_requests_user_time` and `after_sale_requests_handled_time`.
 * The rows are copied into a new table, not renamed in place, so every name the engine derives from the table (the
 * primary key and the foreign key on PostgreSQL, the automatic index on SQLite) follows it, with the same SQL on
 * both engines; the columns are those of migration 0007, every row is kept.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await createRequestsTable(db, "after_sale_requests");
  await sql`INSERT INTO after_sale_requests (${sql.raw(COLUMNS)}) SELECT ${sql.raw(COLUMNS)} FROM after_sales`.execute(
    db,
  );
  await db.schema.dropTable("after_sales").execute();
  await createRequestsIndexes(db, "after_sale_requests");
}

/** Reverts {@link up}: the rows go back to `after_sales` with the indexes of migration 0007. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await createRequestsTable(db, "after_sales");
  await sql`INSERT INTO after_sales (${sql.raw(COLUMNS)}) SELECT ${sql.raw(COLUMNS)} FROM after_sale_requests`.execute(
    db,
  );
  await db.schema.dropTable("after_sale_requests").execute();
  await createRequestsIndexes(db, "after_sales");
}

/** Every column of the table, in its order (a fixed list: the copy never depends on what the engine reports). */
const COLUMNS = [
  "id",
  "user_id",
  "device_id",
  "device_name",
  "family_id",
  "description",
  "photos_json",
  "contact_phone",
  "handled",
  "handled_time",
  "reply",
  "diagnostics_json",
  "creation_time",
  "last_modification_time",
].join(", ");

/** The after-sales table as migration 0007 defined it, under `name`. */
async function createRequestsTable(db: Kysely<unknown>, name: string): Promise<void> {
  await db.schema
    .createTable(name)
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
}

/** The two indexes of the after-sales table (the owner's list, the service team's list), named after `table`. */
async function createRequestsIndexes(db: Kysely<unknown>, table: string): Promise<void> {
  await db.schema.createIndex(`${table}_user_time`).on(table).columns(["user_id", "creation_time"]).execute();
  await db.schema.createIndex(`${table}_handled_time`).on(table).columns(["handled", "creation_time"]).execute();
}
