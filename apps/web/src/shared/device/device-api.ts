import {
  CSV_TOTAL_ROWS_HEADER,
  deviceFlowStatisticsCsv,
  endpoints,
  type TCommandStatus,
  type TDeviceChangeMessage,
  type TDeviceInfo,
  type TFlowStatisticsCsvQuery,
  type TOtaVersion,
  type TSaltStatus,
} from "@aquapilot/contract/wire";
import { type QueryClient, queryOptions, useQuery } from "@tanstack/react-query";
import { api, apiStream } from "../api/client.ts";
import { refetchOnMountUnlessPrefetched } from "../api/query-client.ts";
import { saveBlob } from "../api/save-file.ts";
import type { CommandKind } from "./command-state.ts";
import { announcedRows, CsvLineCounter, exportPercent } from "./csv-progress.ts";
import { mergeStationClock, type StationClock, stationClockOf } from "./station-clock.ts";

/** One bucket of water-usage statistics: start (ISO), water used L, regenerations, salt used kg. */
export interface FlowPoint {
  time: string;
  waterL: number;
  regenerations: number;
  saltKg: number;
}

/** Water-usage statistics of one report time type, ready for the charts. */
export interface FlowStatistics {
  points: FlowPoint[];
  totalWaterL: number;
  totalRegenerations: number;
  totalSaltKg: number;
  /** Hourly buckets (day view) or daily ones. */
  hourly: boolean;
  /** Query of the CSV export of the same period (hourly rows). */
  csvQuery: TFlowStatisticsCsvQuery;
  lastReportTime: string | null;
}

/** Query keys of the device feature (prefix "device", so a hub reconnect invalidates them all). */
export const deviceKeys = {
  info: (deviceId: string) => ["device", "info", deviceId] as const,
  durations: (deviceId: string) => ["device", "station-maxworktime", deviceId] as const,
  stats: (deviceId: string, reportTimeType: number) => ["device", "flow-statistics", deviceId, reportTimeType] as const,
  /** Prefix of the statistics of every report time type (for invalidation). */
  statsAll: (deviceId: string) => ["device", "flow-statistics", deviceId] as const,
  ota: (deviceId: string) => ["device", "ota-version", deviceId] as const,
  salt: (deviceId: string) => ["device", "salt-status", deviceId] as const,
  cycles: (deviceId: string) => ["device", "regeneration-cycles", deviceId] as const,
};

/** When each live value was last reported (ISO 8601; issue 4 "Freshness"). */
export interface ReportTimes {
  station: string | null;
  remaining: string | null;
  water: string | null;
  flow: string | null;
}

/**
 * The Device screen's live device: the server's info plus when it arrived on the phone (ms), per-value times, the
 * device's clock rate (device seconds per real second as the server measured it, 1 for a real valve) and the running
 * station's clock (issue 10 "One clock": the countdown and "back in service at", never running backwards).
 */
export type LiveDevice = TDeviceInfo & {
  receivedAtMs: number;
  reported: ReportTimes;
  clockRate: number;
  stationClock: StationClock | null;
};

/** Wraps a fresh `query-device-info` answer as a {@link LiveDevice} received at `nowMs`. */
export function toLiveDevice(info: TDeviceInfo, nowMs: number = Date.now()): LiveDevice {
  const t = info.reportedAt ?? info.lastReportTime; // real time first (issue 10 "One clock")
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
 * Applies one hub-1 message to the live device (pure, spec §7 hub 1): online flag always; for kind "state" the
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

/** `POST …/device-control/query-device-info?deviceId` (spec §7): asks the device to report, answers the last state. */
export async function fetchDeviceInfo(deviceId: string, signal?: AbortSignal): Promise<LiveDevice> {
  return toLiveDevice(await api(endpoints.queryDeviceInfo, { query: { deviceId }, signal }));
}

/** The live device as a query (patched by hub 1 through `useLiveDevice`; refetched whenever a screen mounts it). */
export function deviceInfoQuery(deviceId: string) {
  return queryOptions({
    queryKey: deviceKeys.info(deviceId),
    queryFn: ({ signal }) => fetchDeviceInfo(deviceId, signal),
    enabled: Boolean(deviceId),
    // Live values: every screen that opens asks again (a close or station change may have come while no device
    // screen listened to hub 1), while the last answer shows meanwhile — except the first screen's first mount right
    // after its start-up call (features/device/prefetch.ts, issue 12).
    staleTime: 0,
    refetchOnMount: refetchOnMountUnlessPrefetched,
    structuralSharing: keepStationClock,
  });
}

/** `GET …/device-control/device-station-maxworktime-cache?deviceId`: station → configured seconds ({} on failure). */
export async function fetchStationDurations(deviceId: string, signal?: AbortSignal): Promise<Record<number, number>> {
  try {
    const list = await api(endpoints.deviceStationMaxWorkTimeCache, { query: { deviceId }, signal });
    return Object.fromEntries(
      list.filter((s) => s.maxWorkTimeSeconds > 0).map((s) => [s.station, s.maxWorkTimeSeconds]),
    );
  } catch {
    return {};
  }
}

/** The station durations' query options (long-lived: they change only with the settings). */
export function stationDurationsQuery(deviceId: string) {
  return queryOptions({
    queryKey: deviceKeys.durations(deviceId),
    queryFn: ({ signal }) => fetchStationDurations(deviceId, signal),
    enabled: Boolean(deviceId),
    staleTime: 5 * 60_000,
  });
}

/** The station durations as a query ({@link stationDurationsQuery}). */
export function useStationDurations(deviceId: string) {
  return useQuery(stationDurationsQuery(deviceId));
}

/**
 * `POST …/device/device-flow-statistics` with `{deviceId, reportTimeType}` (1 month, 2 week, 3 day; spec §3),
 * read into {@link FlowStatistics} with the CSV export path of the same period.
 */
export async function fetchFlowStatistics(
  deviceId: string,
  reportTimeType: number,
  signal?: AbortSignal,
): Promise<FlowStatistics> {
  const r = await api(endpoints.deviceFlowStatistics, { body: { deviceId, reportTimeType }, signal });
  return {
    points: r.buckets.map((b) => ({
      time: b.start,
      waterL: b.waterL,
      regenerations: b.regenerations,
      saltKg: b.saltKg,
    })),
    totalWaterL: r.totals.waterL,
    totalRegenerations: r.totals.regenerations,
    totalSaltKg: r.totals.saltKg,
    hourly: r.bucket === "hour",
    csvQuery: { deviceId, from: r.from, to: r.to, granularity: "hourly" },
    lastReportTime: r.lastReportTime,
  };
}

/** The statistics of one report time type as a query. */
export function useFlowStatistics(deviceId: string, reportTimeType: number) {
  return useQuery({
    queryKey: deviceKeys.stats(deviceId, reportTimeType),
    queryFn: ({ signal }) => fetchFlowStatistics(deviceId, reportTimeType, signal),
    enabled: Boolean(deviceId),
    staleTime: 60_000,
  });
}

/**
 * `GET …/device-control/get-salt-status?deviceId`: salt level, "salt runs out in N days" and the clock drift
 * (seconds, device − server) the server measured; refetched every minute.
 */
export function useSaltStatus(deviceId: string) {
  return useQuery(saltStatusQuery(deviceId));
}

/** The salt status' query options ({@link useSaltStatus}); a start-up call stands in for the first mount's. */
export function saltStatusQuery(deviceId: string) {
  return queryOptions({
    queryKey: deviceKeys.salt(deviceId),
    queryFn: ({ signal }) => api(endpoints.getSaltStatus, { query: { deviceId }, signal }),
    enabled: Boolean(deviceId),
    refetchInterval: 60_000,
    refetchOnMount: refetchOnMountUnlessPrefetched,
  });
}

/**
 * `POST …/device-control/reset-salt-level?deviceId&levelKg` (issue 4 "Salt"): the owner refilled the brine tank
 * to `levelKg` kg (0–1000). Resolves with the new salt status. Errors: ApiError from the client (e.g. 403 when the
 * caller may not change the device).
 */
export function resetSaltLevel(deviceId: string, levelKg: number): Promise<TSaltStatus> {
  return api(endpoints.resetSaltLevel, { query: { deviceId, levelKg } });
}

/**
 * Marks what a regeneration or a command changes as stale (issue 4): the statistics of every report time type,
 * the salt status and the regeneration cycles of `deviceId`; the shown ones are fetched again.
 */
export function invalidateDeviceStatistics(queryClient: QueryClient, deviceId: string): Promise<void> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: deviceKeys.statsAll(deviceId) }),
    queryClient.invalidateQueries({ queryKey: deviceKeys.salt(deviceId) }),
    queryClient.invalidateQueries({ queryKey: deviceKeys.cycles(deviceId) }),
  ]).then(() => undefined);
}

/** `GET …/device-control/get-regeneration-cycles?deviceId` (newest first, one page of 15). */
export function useRegenerationCycles(deviceId: string) {
  return useQuery({
    queryKey: deviceKeys.cycles(deviceId),
    queryFn: ({ signal }) =>
      api(endpoints.getRegenerationCycles, { query: { deviceId, skipCount: 0, maxResultCount: 15 }, signal }),
    enabled: Boolean(deviceId),
  });
}

/** `POST …/device-control/query-ota-version?deviceId`: current and offered firmware, and a running update. */
export function fetchOtaVersion(deviceId: string, loading = true): Promise<TOtaVersion> {
  return api(endpoints.queryOtaVersion, { query: { deviceId }, loading });
}

/** How far a CSV export is: data rows and bytes received, the rows announced (null: unknown) and the percent. */
export interface CsvExportProgress {
  rows: number;
  totalRows: number | null;
  bytes: number;
  /** Percent with one decimal (spec §9), null while the total is unknown. */
  percent: number | null;
}

/**
 * Downloads the CSV export (owners' data, issue 4) through `apiStream()` and saves it as a file once complete
 * (issue 10 point 8): `onProgress` follows every piece with the rows so far against the server's `X-Total-Rows`.
 * Resolves with the data rows saved and the file name (the server's, else `water-<granularity>.csv`).
 * Errors: ApiError from the client (the server's message in the user's language, code -2 on a lost connection);
 * an AbortError when `signal` aborts (nothing is saved).
 */
export async function downloadCsv(
  query: TFlowStatisticsCsvQuery,
  options: { signal?: AbortSignal; onProgress?: (progress: CsvExportProgress) => void } = {},
): Promise<{ rows: number; fileName: string }> {
  const counter = new CsvLineCounter();
  let totalRows: number | null = null;
  const result = await apiStream(deviceFlowStatisticsCsv, {
    query,
    signal: options.signal,
    onResponse: (headers) => {
      totalRows = announcedRows(headers.get(CSV_TOTAL_ROWS_HEADER));
    },
    onChunk: (chunk, progress) => {
      counter.push(chunk);
      const rows = counter.dataRows();
      options.onProgress?.({ rows, totalRows, bytes: progress.loaded, percent: exportPercent(rows, totalRows) });
    },
  });
  const fileName = result.fileName ?? `water-${query.granularity ?? "raw"}.csv`;
  saveBlob(result.blob, fileName);
  return { rows: counter.dataRows(true), fileName };
}

/**
 * Sends one control of spec §4 with the caller's command id (the idempotency key: a repeat is never applied twice)
 * and resolves with the device's outcome {commandId, status, error, message}; the server waits for the device's
 * acknowledgement. Time sync sends the phone's time (`nowIso`).
 * Errors: ApiError from the client — code "DeviceOffline" (409) when the device is offline or silent.
 */
export async function sendDeviceCommand(
  deviceId: string,
  kind: CommandKind,
  commandId: string,
  nowIso: string = new Date().toISOString(),
): Promise<TCommandStatus> {
  const query = { deviceId, commandId };
  // The command id is also the idempotency key: a resend of this command is never run twice (issue 10).
  const idempotencyKey = commandId;
  switch (kind) {
    case "vacationEnter":
      return api(endpoints.changeVacation, { query, idempotencyKey });
    case "vacationExit":
      return api(endpoints.exitVacation, { query, idempotencyKey });
    case "forcedRegeneration":
      return api(endpoints.forcedRegeneration, { query, idempotencyKey });
    case "ota":
      return api(endpoints.deviceOta, { query, idempotencyKey });
    case "forcedFlushing":
      return api(endpoints.controlDevice, { query, idempotencyKey, body: { command: "forced-flushing" } });
    case "forcedSwitch":
      return api(endpoints.controlDevice, { query, idempotencyKey, body: { command: "forced-switch" } });
    case "timeSync":
      return api(endpoints.controlDevice, {
        query,
        idempotencyKey,
        body: { command: "sync-time", params: { time: nowIso } },
      });
  }
}

/** `GET …/device-control/get-command-status?commandId` (polling fallback when the hub-1 ack is missed). */
export function fetchCommandStatus(commandId: string): Promise<TCommandStatus> {
  return api(endpoints.getCommandStatus, { query: { commandId } });
}
