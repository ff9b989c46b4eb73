import { type Kysely, sql } from "kysely";

/**
 * What the cloud knows about its link to each device, so it can say honestly whether it hears the device and accepts
 * what it says (docs/device-protocol.md §5.1, §5.2):
 * - `device_state.last_heard_at`: server time of the last accepted state or telemetry report (ISO UTC); with the
 *   status it decides whether the device counts as online.
 * - `device_state.status_at`: server time of the last live `online: true` status (a connection), so a device that
 *   just connected counts as online for one report interval before its first report.
 * - `device_state.reports_refused_since`, `reports_refused_reason`: since when (server time) the cloud refuses the
 *   device's state and telemetry reports and why (a gateway refusal reason); null once a report is accepted again.
 * - `device_commands.ack_baseline_json`: what the stored state said when the device acknowledged a command that is
 *   only done once a state report shows its effect (e.g. the regeneration count before a forced regeneration).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const name of ["last_heard_at", "status_at", "reports_refused_since", "reports_refused_reason"]) {
    await db.schema.alterTable("device_state").addColumn(name, "text").execute();
  }
  await db.schema.alterTable("device_commands").addColumn("ack_baseline_json", "text").execute();
  // Every state report asks whether its device has such a command: a partial index keeps that lookup tiny.
  await sql`CREATE INDEX device_commands_acked ON device_commands (device_id) WHERE status = 'acked'`.execute(db);
}

/** Reverts {@link up}. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS device_commands_acked`.execute(db);
  await db.schema.alterTable("device_commands").dropColumn("ack_baseline_json").execute();
  for (const name of ["reports_refused_reason", "reports_refused_since", "status_at", "last_heard_at"]) {
    await db.schema.alterTable("device_state").dropColumn(name).execute();
  }
}
