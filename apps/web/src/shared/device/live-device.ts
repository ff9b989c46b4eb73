import type { TDeviceChangeMessage, TDeviceInfo, TDeviceLink } from "@aquapilot/contract/wire";
import { mergeStationClock, type StationClock, stationClockOf } from "./station-clock.ts";

/** When each live value was last reported (ISO 8601): the screen says how fresh each one is. */
export interface ReportTimes {
  station: string | null;
  remaining: string | null;
  water: string | null;
  flow: string | null;
}

/**
 * The Device screen's live device: the server's info plus when it arrived on the phone (ms), per-value times, the
 * device's clock rate (device seconds per real second as the server measured it, 1 for a real valve) and the running
 * station's clock (the countdown and "back in service at", from real timestamps, never running backwards).
 */
export type LiveDevice = TDeviceInfo & {
  receivedAtMs: number;
  reported: ReportTimes;
  clockRate: number;
  stationClock: StationClock | null;
};

/** Wraps a fresh `query-device-info` answer as a {@link LiveDevice} received at `nowMs`. */
export function toLiveDevice(info: TDeviceInfo, nowMs: number = Date.now()): LiveDevice {
  const t = info.reportedAt ?? info.lastReportTime; // real time first: the owner sees one clock, not the device's
  return {
    ...info,
    receivedAtMs: nowMs,
    reported: { station: t, remaining: t, water: t, flow: t },
    clockRate: info.clockRate ?? 1,
    stationClock: stationClockOf(info, nowMs),
  };
}

/**
 * Keeps the shown station clock when a refetched device arrives (TanStack `structuralSharing`): the same station
 * instance keeps the earlier end ({@link mergeStationClock}), so a refetch never makes the countdown jump up.
 */
export function keepStationClock(previous: unknown, next: unknown): unknown {
  const old = previous as LiveDevice | undefined;
  const fresh = next as LiveDevice;
  if (!old || !fresh || old.id !== fresh.id) return fresh;
  return { ...fresh, stationClock: mergeStationClock(old.stationClock, fresh.stationClock, Date.now()) };
}

/**
 * How the cloud hears the device after a hub-1 message (contract ZDeviceLink): the message's own facts when it carries
 * them (servers that send them always do), else what the device had.
 */
export function linkFactsOf(message: TDeviceChangeMessage, device: TDeviceLink): Required<TDeviceLink> {
  return {
    lastHeardAt: message.lastHeardAt !== undefined ? message.lastHeardAt : (device.lastHeardAt ?? null),
    reportsRefusedSince:
      message.reportsRefusedSince !== undefined ? message.reportsRefusedSince : (device.reportsRefusedSince ?? null),
    reportsRefusedReason:
      message.reportsRefusedReason !== undefined ? message.reportsRefusedReason : (device.reportsRefusedReason ?? null),
  };
}

/**
 * Applies one hub-1 message to the live device (pure, spec §7 hub 1): online flag and how the cloud hears the device
 * ({@link linkFactsOf}) always; for kind "state" the
 * station, remaining seconds (restarting the local countdown), water left and flow, each with the message's report
 * time, and the device's clock rate measured against the previous report; an "event" with a close reason sets
 * closeReason. Messages for another device return the same object.
 */
export function applyLiveMessage(
  device: LiveDevice,
  message: TDeviceChangeMessage,
  nowMs: number = Date.now(),
): LiveDevice {
  if (message.deviceId !== device.id) return device;
  // What the owner sees is real time: the server's arrival stamp, the device clock only when there is none.
  const t = message.reportedAt ?? message.lastReportTime ?? device.reportedAt ?? device.lastReportTime;
  const next: LiveDevice = {
    ...device,
    online: message.online,
    lastReportTime: message.lastReportTime ?? device.lastReportTime,
    reportedAt: message.reportedAt ?? device.reportedAt ?? null,
    reported: { ...device.reported },
    ...linkFactsOf(message, device),
  };
  if (message.kind === "state") {
    if (message.station !== null) {
      next.station = message.station;
      next.reported.station = t;
    }
    next.clockRate = message.clockRate ?? device.clockRate ?? 1;
    next.stationRemainingSeconds = message.stationRemainingSeconds;
    next.stationElapsedSeconds = message.stationElapsedSeconds ?? null;
    next.stationDurationSeconds = message.stationDurationSeconds ?? null;
    next.serviceRemainingSeconds = message.serviceRemainingSeconds ?? null;
    next.reportedAt = message.reportedAt ?? null;
    next.stationClock = mergeStationClock(device.stationClock ?? null, stationClockOf(message, nowMs), nowMs);
    next.receivedAtMs = nowMs;
    next.reported.remaining = t;
    if (message.remainingWaterL !== null) {
      next.remainingWaterL = message.remainingWaterL;
      next.reported.water = t;
    }
    if (message.flowRateLpm !== null) {
      next.flowRateLpm = message.flowRateLpm;
      next.reported.flow = t;
    }
  }
  if (message.kind === "event" && message.event?.closeReason) next.closeReason = message.event.closeReason;
  return next;
}
