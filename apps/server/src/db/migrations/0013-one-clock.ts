import { type Kysely, sql } from "kysely";

/**
 * One clock: real (server) time beside the device clock, so what the owner sees never depends on a device
 * clock that drifts, runs time-scaled, or jumps at a time sync.
 * - `device_state`: `reported_at` (server time of the last state), the station's timing as the valve reports it
 *   (`station_started_at` on the device clock, `station_duration_seconds`, `service_remaining_seconds`), and the
 *   measured `clock_rate` (device seconds per real second) with its anchor (`rate_anchor_ts` device clock,
 *   `rate_anchor_at` server time).
 * - `device_telemetry.received_at`: server time of arrival; hourly water is bucketed by it (existing rows: their `ts`).
 * - `device_events.water_l`, `salt_kg`: what a "regeneration-end" says the cycle used.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [name, type] of [
    ["reported_at", "text"],
    ["station_started_at", "text"],
    ["station_duration_seconds", "double precision"],
    ["service_remaining_seconds", "double precision"],
    ["clock_rate", "double precision"],
    ["rate_anchor_ts", "text"],
    ["rate_anchor_at", "text"],
  ] as const) {
    await db.schema.alterTable("device_state").addColumn(name, type).execute();
  }
  await db.schema.alterTable("device_telemetry").addColumn("received_at", "text").execute();
  await sql`UPDATE device_telemetry SET received_at = ts WHERE received_at IS NULL`.execute(db);
  await db.schema
    .createIndex("device_telemetry_received")
    .on("device_telemetry")
    .columns(["device_id", "received_at"])
    .execute();
  await db.schema.alterTable("device_events").addColumn("water_l", "double precision").execute();
  await db.schema.alterTable("device_events").addColumn("salt_kg", "double precision").execute();
  await db.schema
    .createIndex("device_events_received")
    .on("device_events")
    .columns(["device_id", "received_at"])
    .execute();
}

/** Reverts {@link up}. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("device_events_received").ifExists().execute();
  await db.schema.alterTable("device_events").dropColumn("salt_kg").execute();
  await db.schema.alterTable("device_events").dropColumn("water_l").execute();
  await db.schema.dropIndex("device_telemetry_received").ifExists().execute();
  await db.schema.alterTable("device_telemetry").dropColumn("received_at").execute();
  for (const name of [
    "rate_anchor_at",
    "rate_anchor_ts",
    "clock_rate",
    "service_remaining_seconds",
    "station_duration_seconds",
    "station_started_at",
    "reported_at",
  ]) {
    await db.schema.alterTable("device_state").dropColumn(name).execute();
  }
}
