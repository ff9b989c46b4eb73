import type { Db } from "../db/index.ts";

/**
 * When a command is done (docs/device-protocol.md §3.5 "Command statuses"): the device's ack says it accepted the
 * command; a command that changes the softener is done only once a state report shows the change. Pure functions,
 * and the one read of the stored state they compare with.
 */

/** What a state report says that shows a command's effect (the state's own fields, spec §3). */
export interface ReportedEffect {
  /** 0 in service, 1–8 a regeneration or flushing station. */
  station: number | null;
  vacation: boolean;
  closeReason: number | null;
  regenerationCount: number | null;
  /** The reported settings by name. */
  settings: Record<string, unknown>;
}

/** Commands whose ack is not enough: their effect must show in a state report before they are done. */
const CONFIRMED_BY_STATE = new Set([
  "forced-regeneration",
  "forced-flushing",
  "forced-switch",
  "change-vacation",
  "exit-vacation",
  "set-config",
]);

/** True for a command (by name, DEVICE_COMMANDS) that is done only when a state report shows its effect. */
export function needsStateConfirmation(name: string): boolean {
  return CONFIRMED_BY_STATE.has(name);
}

/** The parsed JSON object of `text`, or {} when it is not one (stored params and baselines; never throws). */
export function parseJson(text: string | null | undefined): Record<string, unknown> {
  try {
    const v = JSON.parse(text ?? "{}");
    return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/**
 * Whether `reported` (a state report) shows the effect of command `name` with `params`, given `atAck`, what the
 * stored state said when the device acknowledged it. Pure:
 * - forced-regeneration, forced-flushing: the valve left service (station ≠ 0) or its regeneration count rose;
 * - forced-switch (reopens a closed valve, or switches to the next station): no close reason, or another station;
 * - change-vacation / exit-vacation: the vacation flag on / off;
 * - set-config: every setting sent (`params.settings`, or the params themselves) reported with that value
 *   (numbers within 0.001);
 * - any other command (query, sync-time, ota): its ack is enough.
 */
export function commandApplied(
  name: string,
  params: Record<string, unknown>,
  reported: ReportedEffect,
  atAck: Partial<ReportedEffect>,
): boolean {
  switch (name) {
    case "forced-regeneration":
    case "forced-flushing":
      return (
        (reported.station ?? 0) !== 0 ||
        (reported.regenerationCount ?? 0) > (atAck.regenerationCount ?? Number.POSITIVE_INFINITY)
      );
    case "forced-switch":
      return reported.closeReason === null || (reported.station ?? 0) !== (atAck.station ?? 0);
    case "change-vacation":
      return reported.vacation;
    case "exit-vacation":
      return !reported.vacation;
    case "set-config": {
      const sent = (params.settings && typeof params.settings === "object" ? params.settings : params) as Record<
        string,
        unknown
      >;
      return Object.entries(sent).every(([key, value]) => sameValue(reported.settings[key], value));
    }
    default:
      return true;
  }
}

/** A reported setting equals the one sent: numbers within 0.001, anything else by value. */
function sameValue(reported: unknown, sent: unknown): boolean {
  if (typeof reported === "number" && typeof sent === "number") return Math.abs(reported - sent) <= 0.001;
  return JSON.stringify(reported) === JSON.stringify(sent);
}

/** The stored state of a device as a {@link ReportedEffect} (`device_state`), or null when it never reported. */
export async function readReportedEffect(db: Db, deviceId: string): Promise<ReportedEffect | null> {
  const row = await db
    .selectFrom("device_state")
    .select(["station", "vacation", "close_reason", "regeneration_count", "settings_json", "reported_at"])
    .where("device_id", "=", deviceId)
    .executeTakeFirst();
  if (!row?.reported_at) return null;
  return {
    station: row.station,
    vacation: row.vacation === 1,
    closeReason: row.close_reason,
    regenerationCount: row.regeneration_count,
    settings: parseJson(row.settings_json),
  };
}
