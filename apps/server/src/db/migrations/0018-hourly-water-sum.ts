import type { Kysely } from "kysely";

/**
 * The hourly rollup keeps its water sum unrounded: `device_water_hourly.water_sum_l`
 * is the sum of the hour's plausible raw `interval_water_l`, L, so a batch of new telemetry adds to it instead of
 * reading the whole hour's raw rows again (`water_l` stays that sum rounded to 0.001 L, as read by the statistics).
 * Null for rows written before: their hour is recomputed from the raw rows the next time it gets telemetry.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("device_water_hourly").addColumn("water_sum_l", "double precision").execute();
}

/** Reverts {@link up}. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("device_water_hourly").dropColumn("water_sum_l").execute();
}
