import type { Kysely } from "kysely";

/**
 * `device_state.telemetry_total_l`: the totaliser of the device's last stored telemetry record, L (null before its
 * first one). A record's water since the previous one can never be more than the totaliser rose since that record
 * (docs/device-protocol.md §5.1), so the gateway bounds `intervalWaterL` by it: a device that reboots keeping its
 * totaliser but not its last sent total cannot count its whole history again. `total_water_l` cannot serve: state
 * reports move it between two telemetry records.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("device_state").addColumn("telemetry_total_l", "double precision").execute();
}

/** Reverts {@link up}. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("device_state").dropColumn("telemetry_total_l").execute();
}
