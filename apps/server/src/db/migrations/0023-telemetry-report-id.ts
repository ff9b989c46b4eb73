import type { Kysely } from "kysely";

/**
 * `device_telemetry.report_id`: the report id a device gives its telemetry record (docs/device-protocol.md §3.6),
 * null for a record sent without one. Unique per device, so a record the device sends again — because the cloud's
 * receipt did not reach it, e.g. across a broker crash — is stored once even when its stored time differs (an
 * implausible device time is stored as the receive time). SQLite and PostgreSQL both let any number of rows share a
 * null in a unique index, so records without an id keep their (device, time) key alone.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("device_telemetry").addColumn("report_id", "text").execute();
  await db.schema
    .createIndex("device_telemetry_report")
    .on("device_telemetry")
    .columns(["device_id", "report_id"])
    .unique()
    .execute();
}

/** Reverts {@link up}. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("device_telemetry_report").ifExists().execute();
  await db.schema.alterTable("device_telemetry").dropColumn("report_id").execute();
}
