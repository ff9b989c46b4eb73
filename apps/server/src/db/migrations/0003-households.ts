import { type Kysely, sql } from "kysely";

/**
 * Households (spec §3 Family, §6 roles):
 * - families.province / city / district: the region path chosen with the address (region tree of
 *   travel-location-lookup), optional;
 * - family_members_one_admin: a partial unique index so a family can never have two administrators, on both
 *   engines (the "at least one" half is kept by the services' locked transactions, modules/family-user);
 * - family_share_codes: the signed QR share codes (spec §4 "Family QR code valid 15 minutes"), one row per code so
 *   the inviter can list ("my shares") and revoke them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("families").addColumn("province", "text").execute();
  await db.schema.alterTable("families").addColumn("city", "text").execute();
  await db.schema.alterTable("families").addColumn("district", "text").execute();

  // Literal DDL: both engines accept a partial index, and neither takes bound parameters in DDL.
  await sql`CREATE UNIQUE INDEX family_members_one_admin ON family_members (family_id) WHERE is_admin = 1`.execute(db);

  await db.schema
    .createTable("family_share_codes")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("family_id", "text", (c) => c.notNull().references("families.id").onDelete("cascade"))
    .addColumn("inviter_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("purpose", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("revoked_at", "text")
    .addColumn("join_count", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex("family_share_codes_inviter")
    .on("family_share_codes")
    .columns(["inviter_id", "created_at"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("family_share_codes").ifExists().execute();
  await sql`DROP INDEX IF EXISTS family_members_one_admin`.execute(db);
  await db.schema.alterTable("families").dropColumn("district").execute();
  await db.schema.alterTable("families").dropColumn("city").execute();
  await db.schema.alterTable("families").dropColumn("province").execute();
}
