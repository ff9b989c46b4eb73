import type { TDeviceChangeMessage } from "@aquapilot/contract";
import type { Db } from "../db/index.ts";
import { type LinkFactsRow, type LiveStateRow, presentLink, presentLiveState } from "./live-state.ts";

/** What a change message reports: `online` (status), `state` (state, telemetry), `event` or `ack`. */
export type ChangeKind = TDeviceChangeMessage["kind"];

/**
 * The stored row a change message is built from: the device joined with its `device_state` (whose columns are null
 * when the device never reported).
 */
export interface ChangeRow extends LiveStateRow, LinkFactsRow {
  id: string;
  mac: string;
  family_id: string | null;
}

/**
 * The hub-1 change message (contract ZDeviceChangeMessage, spec §7) of a stored row, pure: always the device's full
 * current state (so a client that missed a message catches up with the next), plus the event or acknowledgement
 * that caused it (`extra`; null otherwise). The live state as {@link presentLiveState} presents it, and how the cloud
 * hears the device as {@link presentLink} does.
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
    ...presentLink(row),
    event: extra.event ?? null,
    ack: extra.ack ?? null,
  };
}

/** Devices joined with their `device_state` (whose columns are null when the device never reported). */
export function devicesWithState(db: Db) {
  return db.selectFrom("devices").leftJoin("device_state", "device_state.device_id", "devices.id");
}

/**
 * Runs `query` for `keys` (duplicates dropped) in chunks of 500 — within every engine's limit of bound parameters —
 * and answers the rows of all chunks, in chunk order.
 */
export async function inChunks<K, R>(keys: readonly K[], query: (chunk: K[]) => Promise<R[]>): Promise<R[]> {
  const unique = [...new Set(keys)];
  const rows: R[] = [];
  for (let i = 0; i < unique.length; i += 500) rows.push(...(await query(unique.slice(i, i + 500))));
  return rows;
}

/** The columns of a {@link ChangeRow}: the device joined with its `device_state`. */
function changeRows(db: Db) {
  return devicesWithState(db).select([
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
    "device_state.last_heard_at",
    "device_state.status_at",
    "device_state.reports_refused_since",
    "device_state.reports_refused_reason",
  ]);
}

/** Reads the {@link ChangeRow} of a device; undefined for an unknown device. */
export function readChangeRow(db: Db, deviceId: string): Promise<ChangeRow | undefined> {
  return changeRows(db).where("devices.id", "=", deviceId).executeTakeFirst();
}

/**
 * Reads the {@link ChangeRow}s of several devices in one query (a write batch's change messages:
 * one read for the batch, not one per message), keyed by device id; unknown ids are absent. Queries in chunks of 500
 * ids (bound parameters).
 */
export async function readChangeRows(db: Db, deviceIds: readonly string[]): Promise<Map<string, ChangeRow>> {
  const rows = await inChunks(deviceIds, (chunk) => changeRows(db).where("devices.id", "in", chunk).execute());
  return new Map(rows.map((row) => [row.id, row]));
}
