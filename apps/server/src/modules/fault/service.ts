import {
  FAULT_LIST_MAX,
  FAULT_RECENT_DAYS,
  faultArticleOf,
  faultLabelOf,
  type Language,
  type TCommandStatus,
  type TFault,
} from "@aquapilot/contract";
import type { AuthUser } from "../../auth/auth-service.ts";
import type { CoreServices } from "../../core-services.ts";
import type { Db } from "../../db/index.ts";
import { AppError, ErrorCode } from "../../http/errors.ts";
import { linkOnline } from "../../iot/live-state.ts";
import { runCommand } from "../device-control/index.ts";

/** What the fault list needs: the database and the clock. */
export interface FaultDeps {
  db: Db;
  now: () => Date;
}

const DAY_MS = 86_400_000;

/** One device as the fault list sees it: identity, household, and its last reported state (null: never reported). */
interface DeviceRow {
  id: string;
  name: string;
  familyId: string;
  familyName: string;
  state: {
    online: boolean;
    closeReason: number | null;
    /** Device clock of the last state report (the same clock as the events' `ts`). */
    lastReportTime: string | null;
    /** Server time of the last write to the state row. */
    updatedAt: string;
  } | null;
  /** When the offline watcher saw the current offline period begin (server time), if it did. */
  offlineSince: string | null;
  /** Since when (server time) the cloud refuses the device's reports; null while it accepts them. */
  reportsRefusedSince?: string | null;
}

/** A "close" or "reset" event of one device (device_events), oldest first. */
interface ValveEvent {
  id: string;
  type: "close" | "reset";
  closeReason: number | null;
  /** Device clock. */
  ts: string;
  /** Server time it was received: the real timestamp shown to the owner. */
  receivedAt: string;
}

const time = (iso: string | null | undefined): number => (iso ? Date.parse(iso) || 0 : 0);

/**
 * Whether the valve is closed now, from the last state report and the last close/reset event of the device: the
 * state is the truth once it is at least as new as the event (same device clock); a newer event wins over a state
 * not yet reported (the valve reports its event before its new state, and the app refreshes on the event).
 */
function closedNow(state: DeviceRow["state"], last: ValveEvent | undefined): boolean {
  if (last && (!state || time(state.lastReportTime) < time(last.ts))) return last.type === "close";
  return state?.closeReason != null;
}

/**
 * The faults of one device (pure): an open "offline" fault while it is not connected, an open "reports-refused" one
 * while the cloud refuses its reports (`reportsRefusedSince`), one fault per close event of
 * `events` (each cleared by the next reset, at that reset's receive time; a close followed by another close without a
 * reset was cleared at an unknown time), the last one open when {@link closedNow} says so. A valve that is closed
 * while no close of `events` is pending gets an open fault from `lastCloseBefore` (its latest close, older than the
 * window), or one without a start time when the cloud never saw the close.
 * @param events the device's close and reset events of the window, oldest first
 * @param lastCloseBefore the device's latest close event before the window (only looked up when needed), or null
 */
export function deviceFaults(device: DeviceRow, events: ValveEvent[], lastCloseBefore: ValveEvent | null): TFault[] {
  const online = device.state?.online ?? false;
  const base = {
    deviceId: device.id,
    deviceName: device.name,
    deviceOnline: online,
    familyId: device.familyId,
    familyName: device.familyName,
  };
  const close = (e: ValveEvent | null, reason: number, clearedAt: string | null, open: boolean): TFault => ({
    ...base,
    id: e ? `close:${device.id}:${e.id}` : `close:${device.id}:state`,
    kind: "close",
    closeReason: reason,
    label: faultLabelOf(reason),
    startedAt: e?.receivedAt ?? null,
    clearedAt,
    open,
    reopen: open ? (online ? "command" : "button") : null,
    articleId: faultArticleOf(reason),
  });
  const faults: TFault[] = [];
  if (!online) {
    faults.push({
      ...base,
      id: `offline:${device.id}`,
      kind: "offline",
      closeReason: null,
      label: faultLabelOf(null),
      startedAt: device.offlineSince ?? device.state?.updatedAt ?? null,
      clearedAt: null,
      open: true,
      reopen: null,
      articleId: faultArticleOf(null),
    });
  }
  if (device.reportsRefusedSince) {
    // Open while the cloud refuses the device's reports; gone (resolved) with the first report accepted again.
    faults.push({
      ...base,
      id: `reports-refused:${device.id}:${device.reportsRefusedSince}`,
      kind: "reports-refused",
      closeReason: null,
      label: "reportsRefused",
      startedAt: device.reportsRefusedSince,
      clearedAt: null,
      open: true,
      reopen: null,
      articleId: faultArticleOf(null),
    });
  }
  let pending: ValveEvent | null = null;
  for (const e of events) {
    if (e.type === "close") {
      if (pending) faults.push(close(pending, pending.closeReason ?? 0, null, false));
      pending = e;
    } else if (pending) {
      faults.push(close(pending, pending.closeReason ?? 0, e.receivedAt, false));
      pending = null;
    }
  }
  const closed = closedNow(device.state, events.at(-1));
  if (pending) {
    faults.push(close(pending, pending.closeReason ?? device.state?.closeReason ?? 0, null, closed));
  } else if (closed) {
    // Closed with no close event in the window: the state's reason (closedNow answered from a state with one).
    const reason = device.state?.closeReason ?? lastCloseBefore?.closeReason ?? 0;
    faults.push(close(lastCloseBefore, reason, null, true));
  }
  return faults;
}

/**
 * Orders faults for the list of every open and recent fault: open ones first, then newest first by start
 * (a fault without a start time last in its group); at most {@link FAULT_LIST_MAX}.
 */
export function orderFaults(faults: TFault[]): TFault[] {
  return [...faults]
    .sort(
      (a, b) =>
        Number(b.open) - Number(a.open) ||
        time(b.startedAt) - time(a.startedAt) ||
        (a.kind === b.kind ? 0 : a.kind === "offline" ? -1 : 1) ||
        a.id.localeCompare(b.id),
    )
    .slice(0, FAULT_LIST_MAX);
}

/** The devices `userId` may see (every household they belong to), or the one device `deviceId` after the check. */
async function visibleDevices(db: Db, userId: string, deviceId?: string): Promise<DeviceRow[]> {
  let query = db
    .selectFrom("devices")
    .innerJoin("families", "families.id", "devices.family_id")
    .innerJoin("family_members", (j) =>
      j.onRef("family_members.family_id", "=", "devices.family_id").on("family_members.user_id", "=", userId),
    )
    .leftJoin("device_state", "device_state.device_id", "devices.id")
    .leftJoin("device_offline_watch", "device_offline_watch.device_id", "devices.id")
    .select([
      "devices.id",
      "devices.name",
      "devices.family_id",
      "families.name as family_name",
      "device_state.online",
      "device_state.close_reason",
      "device_state.last_report_time",
      "device_state.updated_at",
      "device_state.last_heard_at",
      "device_state.status_at",
      "device_state.reports_refused_since",
      "device_offline_watch.offline_since",
    ]);
  if (deviceId) query = query.where("devices.id", "=", deviceId);
  const rows = await query.execute();
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    familyId: r.family_id as string,
    familyName: r.family_name,
    state:
      r.updated_at === null
        ? null
        : {
            // Online only while heard within the report interval plus margin (docs/device-protocol.md §5.2).
            online: linkOnline({ ...r, online: Number(r.online) }),
            closeReason: r.close_reason === null ? null : Number(r.close_reason),
            lastReportTime: r.last_report_time,
            updatedAt: r.updated_at,
          },
    offlineSince: r.offline_since,
    reportsRefusedSince: r.reports_refused_since,
  }));
}

/** Close and reset events of `deviceIds` received since `sinceIso`, per device, oldest first. */
async function valveEvents(db: Db, deviceIds: string[], sinceIso: string): Promise<Map<string, ValveEvent[]>> {
  const byDevice = new Map<string, ValveEvent[]>(deviceIds.map((id) => [id, []]));
  if (deviceIds.length === 0) return byDevice;
  const rows = await db
    .selectFrom("device_events")
    .select(["device_id", "id", "type", "close_reason", "ts", "received_at"])
    .where("device_id", "in", deviceIds)
    .where("type", "in", ["close", "reset"])
    .where("received_at", ">=", sinceIso)
    .orderBy("received_at")
    .orderBy("ts")
    .orderBy("id")
    .execute();
  for (const r of rows) {
    byDevice.get(r.device_id)?.push({
      id: r.id,
      type: r.type as ValveEvent["type"],
      closeReason: r.close_reason === null ? null : Number(r.close_reason),
      ts: r.ts,
      receivedAt: r.received_at,
    });
  }
  return byDevice;
}

/** The latest close event of `deviceId` received before `beforeIso`, or null. */
async function lastCloseBefore(db: Db, deviceId: string, beforeIso: string): Promise<ValveEvent | null> {
  const r = await db
    .selectFrom("device_events")
    .select(["id", "close_reason", "ts", "received_at"])
    .where("device_id", "=", deviceId)
    .where("type", "=", "close")
    .where("received_at", "<", beforeIso)
    .orderBy("received_at", "desc")
    .orderBy("ts", "desc")
    .limit(1)
    .executeTakeFirst();
  return r
    ? {
        id: r.id,
        type: "close",
        closeReason: r.close_reason === null ? null : Number(r.close_reason),
        ts: r.ts,
        receivedAt: r.received_at,
      }
    : null;
}

/**
 * The fault list (contract getFaultList): for every device of every household `userId` belongs to —
 * or for `deviceId` alone — the open faults (the device is offline; the valve has closed the water, with its close
 * reason of spec §3 and §8 label) and the closes received in the last {@link FAULT_RECENT_DAYS} days with when each
 * began and, when seen, when the valve reopened. Times are the cloud's receive times (ISO UTC), never the device
 * clock. Ordered by {@link orderFaults}.
 * @throws AppError NotFound (device.notFound) for an unknown `deviceId` or one not in a household of the caller (the
 *   same answer; the route's object rule).
 */
export async function listFaults(deps: FaultDeps, userId: string, deviceId?: string): Promise<TFault[]> {
  const devices = await visibleDevices(deps.db, userId, deviceId);
  const sinceIso = new Date(deps.now().getTime() - FAULT_RECENT_DAYS * DAY_MS).toISOString();
  const events = await valveEvents(
    deps.db,
    devices.map((d) => d.id),
    sinceIso,
  );
  const faults: TFault[] = [];
  for (const device of devices) {
    const own = events.get(device.id) ?? [];
    const pending = own.at(-1)?.type === "close";
    const before =
      !pending && closedNow(device.state, own.at(-1)) ? await lastCloseBefore(deps.db, device.id, sinceIso) : null;
    faults.push(...deviceFaults(device, own, before));
  }
  return orderFaults(faults);
}

/**
 * reopen-water (contract reopenWater; reopening the water after a close follows the valve's real
 * behaviour): for a member of the device's household holding Device.Control (spec §6), sends `forced-switch` — which
 * reopens a closed valve (docs/device-protocol.md §3.5) — only while the valve is closed, since on an open valve the
 * same command would start a regeneration. A repeated `commandId` answers the recorded outcome without checking again.
 * @returns the device's outcome (done, or failed with its reason), as device-control commands do.
 * @throws AppError NotFound / Forbidden (access); Conflict fault.notClosed when the water is not closed;
 *   DeviceOffline fault.reopenOffline when the device cannot hear a command (press the valve button instead), or
 *   deviceControl.offline when it does not answer in time; Conflict deviceControl.updating during a firmware update.
 */
export async function reopenWater(
  ctx: CoreServices,
  user: AuthUser,
  input: { deviceId: string; commandId?: string; lang: Language },
): Promise<TCommandStatus> {
  const repeated =
    input.commandId !== undefined &&
    (await ctx.db
      .selectFrom("device_commands")
      .select("id")
      .where("id", "=", input.commandId)
      .where("device_id", "=", input.deviceId)
      .executeTakeFirst()) !== undefined;
  if (!repeated) {
    const [device] = await visibleDevices(ctx.db, user.id, input.deviceId);
    if (!device?.state?.online) throw new AppError(ErrorCode.DeviceOffline, "fault.reopenOffline");
    const last = await ctx.db
      .selectFrom("device_events")
      .select(["id", "type", "close_reason", "ts", "received_at"])
      .where("device_id", "=", input.deviceId)
      .where("type", "in", ["close", "reset"])
      .orderBy("received_at", "desc")
      .orderBy("ts", "desc")
      .limit(1)
      .executeTakeFirst();
    const lastEvent: ValveEvent | undefined = last
      ? {
          id: last.id,
          type: last.type as ValveEvent["type"],
          closeReason: last.close_reason,
          ts: last.ts,
          receivedAt: last.received_at,
        }
      : undefined;
    if (!closedNow(device.state, lastEvent)) throw new AppError(ErrorCode.Conflict, "fault.notClosed");
  }
  return runCommand(ctx, {
    deviceId: input.deviceId,
    userId: user.id,
    name: "forced-switch",
    commandId: input.commandId,
    lang: input.lang,
  });
}
