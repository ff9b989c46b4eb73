import { type Kysely, sql } from "kysely";

/** Initial schema (see db/schema.ts for the conventions shared by SQLite and PostgreSQL). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("users")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_name", "text", (c) => c.notNull().unique())
    .addColumn("name", "text")
    .addColumn("email", "text", (c) => c.unique())
    .addColumn("phone_number", "text", (c) => c.unique())
    .addColumn("country_code", "text")
    .addColumn("password_hash", "text", (c) => c.notNull())
    .addColumn("service_region", "integer", (c) => c.notNull())
    .addColumn("language_type", "text", (c) => c.notNull().defaultTo("zh-Hans"))
    .addColumn("avatar", "text")
    .addColumn("security_stamp", "text", (c) => c.notNull())
    .addColumn("is_deleted", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("creation_time", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("families")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("address", "text")
    .addColumn("longitude", "double precision")
    .addColumn("latitude", "double precision")
    .addColumn("avatar", "text")
    .addColumn("creator_id", "text", (c) => c.notNull().references("users.id"))
    .addColumn("creation_time", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("family_members")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("family_id", "text", (c) => c.notNull().references("families.id").onDelete("cascade"))
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("is_admin", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("creation_time", "text", (c) => c.notNull())
    .addUniqueConstraint("family_members_family_user", ["family_id", "user_id"])
    .execute();
  await db.schema.createIndex("family_members_user").on("family_members").column("user_id").execute();

  await db.schema
    .createTable("devices")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("mac", "text", (c) => c.notNull().unique())
    .addColumn("secret_hash", "text", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("image", "text")
    .addColumn("model", "text")
    .addColumn("device_serial_number", "text")
    .addColumn("serial_number", "text")
    .addColumn("firmware_version", "text")
    .addColumn("family_id", "text", (c) => c.references("families.id").onDelete("set null"))
    .addColumn("sort", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("creation_time", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("devices_family").on("devices").columns(["family_id", "sort"]).execute();

  await db.schema
    .createTable("device_state")
    .addColumn("device_id", "text", (c) => c.primaryKey().references("devices.id").onDelete("cascade"))
    .addColumn("online", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("station", "integer")
    .addColumn("station_remaining_seconds", "double precision")
    .addColumn("remaining_water_l", "double precision")
    .addColumn("capacity_l", "double precision")
    .addColumn("flow_rate_lpm", "double precision")
    .addColumn("total_water_l", "double precision")
    .addColumn("vacation", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("close_reason", "integer")
    .addColumn("regeneration_count", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("settings_json", "text")
    .addColumn("last_report_time", "text")
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("device_events")
    .addColumn("id", "text", (c) => c.notNull())
    .addColumn("device_id", "text", (c) => c.notNull().references("devices.id").onDelete("cascade"))
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("close_reason", "integer")
    .addColumn("station", "integer")
    .addColumn("ts", "text", (c) => c.notNull())
    .addColumn("received_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("device_events_pk", ["device_id", "id"])
    .execute();

  await db.schema
    .createTable("device_telemetry")
    .addColumn("device_id", "text", (c) => c.notNull().references("devices.id").onDelete("cascade"))
    .addColumn("ts", "text", (c) => c.notNull())
    .addColumn("total_water_l", "double precision", (c) => c.notNull())
    .addColumn("flow_rate_lpm", "double precision", (c) => c.notNull())
    .addColumn("interval_water_l", "double precision", (c) => c.notNull())
    .addPrimaryKeyConstraint("device_telemetry_pk", ["device_id", "ts"])
    .execute();

  await db.schema
    .createTable("device_commands")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("device_id", "text", (c) => c.notNull().references("devices.id").onDelete("cascade"))
    .addColumn("user_id", "text")
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("params_json", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("error", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("acked_at", "text")
    .execute();

  await db.schema
    .createTable("verification_codes")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("purpose", "text", (c) => c.notNull())
    .addColumn("target", "text", (c) => c.notNull())
    .addColumn("code_hash", "text", (c) => c.notNull())
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("consumed_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("verification_codes_target")
    .on("verification_codes")
    .columns(["purpose", "target", "created_at"])
    .execute();

  await db.schema
    .createTable("refresh_tokens")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("token_hash", "text", (c) => c.notNull().unique())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("revoked_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("outbox")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("channel", "text", (c) => c.notNull())
    .addColumn("recipient", "text", (c) => c.notNull())
    .addColumn("subject", "text", (c) => c.notNull())
    .addColumn("body", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  void sql;
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of [
    "outbox",
    "refresh_tokens",
    "verification_codes",
    "device_commands",
    "device_telemetry",
    "device_events",
    "device_state",
    "devices",
    "family_members",
    "families",
    "users",
  ]) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
