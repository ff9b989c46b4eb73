import type { Kysely } from "kysely";

/**
 * Schema changes for device control: hourly and daily water rollups of device_telemetry (statistics),
 * the salt level the owner resets when refilling, the firmware update in progress, and the measured clock drift.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("device_water_hourly")
    .addColumn("device_id", "text", (c) => c.notNull().references("devices.id").onDelete("cascade"))
    .addColumn("hour_start", "text", (c) => c.notNull())
    .addColumn("water_l", "double precision", (c) => c.notNull())
    .addColumn("samples", "integer", (c) => c.notNull())
    .addColumn("max_flow_lpm", "double precision", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("device_water_hourly_pk", ["device_id", "hour_start"])
    .execute();
  await db.schema
    .createTable("device_water_daily")
    .addColumn("device_id", "text", (c) => c.notNull().references("devices.id").onDelete("cascade"))
    .addColumn("day", "text", (c) => c.notNull())
    .addColumn("water_l", "double precision", (c) => c.notNull())
    .addColumn("samples", "integer", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("device_water_daily_pk", ["device_id", "day"])
    .execute();
  await db.schema
    .createTable("device_salt")
    .addColumn("device_id", "text", (c) => c.primaryKey().references("devices.id").onDelete("cascade"))
    .addColumn("level_kg", "double precision", (c) => c.notNull())
    .addColumn("refilled_at", "text", (c) => c.notNull())
    .addColumn("updated_by", "text")
    .execute();
  await db.schema
    .createTable("device_ota")
    .addColumn("device_id", "text", (c) => c.primaryKey().references("devices.id").onDelete("cascade"))
    .addColumn("command_id", "text", (c) => c.notNull())
    .addColumn("from_version", "text")
    .addColumn("target_version", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("progress", "double precision", (c) => c.notNull())
    .addColumn("error", "text")
    .addColumn("started_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("device_clock")
    .addColumn("device_id", "text", (c) => c.primaryKey().references("devices.id").onDelete("cascade"))
    .addColumn("last_report_time", "text", (c) => c.notNull())
    .addColumn("drift_seconds", "double precision", (c) => c.notNull())
    .addColumn("measured_at", "text", (c) => c.notNull())
    // 1 when the device clock runs at a multiple of real time (a time-scaled simulator): not a drift to warn about.
    .addColumn("accelerated", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex("device_events_device_ts_idx")
    .on("device_events")
    .columns(["device_id", "ts"])
    .ifNotExists()
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("device_events_device_ts_idx").ifExists().execute();
  for (const t of ["device_clock", "device_ota", "device_salt", "device_water_daily", "device_water_hourly"]) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
