import type { Db } from "../src/db/index.ts";
import type { IotLogger } from "../src/iot/index.ts";

/** How many warnings and errors a {@link keptWarningsLogger} keeps (the newest). */
const KEPT_LINES = 50;

/**
 * A device-link logger for tests that keeps the newest warnings and errors (a batch that failed, a redelivery asked
 * for) to explain a failure, and drops debug and info lines. `lines`: "level message {object}", oldest first.
 */
export function keptWarningsLogger(): IotLogger & { lines: string[] } {
  const lines: string[] = [];
  const keep = (level: string) => (obj: object, msg?: string) => {
    lines.push(`${new Date().toISOString()} ${level} ${msg ?? ""} ${JSON.stringify(obj)}`);
    if (lines.length > KEPT_LINES) lines.shift();
  };
  return { lines, debug() {}, info() {}, warn: keep("warn"), error: keep("error") };
}

/**
 * What the cloud stored of device `deviceId`, as text to print when a test of the device link failed: its events
 * (counter resets among them), its newest 20 telemetry records (time, total, interval, report id, receive time) and its
 * state row's counters and times. Throws the database's error.
 */
export async function storedDeviceTimeline(db: Db, deviceId: string): Promise<string> {
  const events = await db
    .selectFrom("device_events")
    .select(["id", "type", "ts", "received_at"])
    .where("device_id", "=", deviceId)
    .orderBy("received_at")
    .execute();
  const telemetry = await db
    .selectFrom("device_telemetry")
    .select(["ts", "total_water_l", "interval_water_l", "report_id", "received_at"])
    .where("device_id", "=", deviceId)
    .orderBy("received_at", "desc")
    .limit(20)
    .execute();
  const state = await db
    .selectFrom("device_state")
    .select([
      "total_water_l",
      "telemetry_total_l",
      "last_report_time",
      "last_heard_at",
      "reports_refused_since",
      "reports_refused_reason",
    ])
    .where("device_id", "=", deviceId)
    .executeTakeFirst();
  return [
    `events: ${JSON.stringify(events)}`,
    `newest telemetry: ${JSON.stringify(telemetry.reverse())}`,
    `state: ${JSON.stringify(state ?? null)}`,
  ].join("\n");
}
