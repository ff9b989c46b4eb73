import type { TDeviceChangeMessage } from "@aquapilot/contract";
import type { Db } from "../db/index.ts";
import { type LiveStateRow, presentLiveState } from "./live-state.ts";

/** What a change message reports: `online` (status), `state` (state, telemetry), `event` or `ack`. */
export type ChangeKind = TDeviceChangeMessage["kind"];

/**
 * The stored row a change message is built from: the device joined with its `device_state` (whose columns are null
 * when the device never reported).
 */
export interface ChangeRow extends LiveStateRow {
  id: string;
  mac: string;
  family_id: string | null;
}

/**
 * The hub-1 change message (contract ZDeviceChangeMessage, spec §7) of a stored row, pure: always the device's full
 * current state (so a client that missed a message catches up with the next), plus the event or acknowledgement
 * that caused it (`extra`; null otherwise). The live state as {@link presentLiveState} presents it.
 */
export function presentChange(
  row: ChangeRow,
  kind: ChangeKind,
  extra: Pick<TDeviceChangeMessage, "event" | "ack"> = {},
): TDeviceChangeMessage {
  return {
    kind,
    deviceId: row.id,
    mac: row.mac,
    familyId: row.family_id,
    ...presentLiveState(row),
    event: extra.event ?? null,
    ack: extra.ack ?? null,
  };
}

/** The columns of a {@link ChangeRow}: the device joined with its `device_state`. */
function changeRows(db: Db) {
  return db
    .selectFrom("devices")
    .leftJoin("device_state", "device_state.device_id", "devices.id")
    .select([
      "devices.id",
      "devices.mac",
      "devices.family_id",
      "device_state.online",
      "device_state.station",
      "device_state.station_remaining_seconds",
      "device_state.remaining_water_l",
      "device_state.flow_rate_lpm",
      "device_state.last_report_time",
      "device_state.reported_at",
      "device_state.station_started_at",
      "device_state.station_duration_seconds",
      "device_state.service_remaining_seconds",
      "device_state.clock_rate",
    ]);
}

/** Reads the {@link ChangeRow} of a device; undefined for an unknown device. */
export function readChangeRow(db: Db, deviceId: string): Promise<ChangeRow | undefined> {
  return changeRows(db).where("devices.id", "=", deviceId).executeTakeFirst();
}

/**
 * Reads the {@link ChangeRow}s of several devices in one query (issue 14, decision 55: a write batch's change
 * messages), keyed by device id; unknown ids are absent. Queries in chunks of 500 ids (bound parameters).
 */
export async function readChangeRows(db: Db, deviceIds: readonly string[]): Promise<Map<string, ChangeRow>> {
  const rows = new Map<string, ChangeRow>();
  const unique = [...new Set(deviceIds)];
  for (let i = 0; i < unique.length; i += 500) {
    for (const row of await changeRows(db)
      .where("devices.id", "in", unique.slice(i, i + 500))
      .execute()) {
      rows.set(row.id, row);
    }
  }
  return rows;
}
