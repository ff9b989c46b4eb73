import { z } from "zod";
import { DEVICE_FLOW_STATISTICS_CSV_PATH, MAX_SKIP_COUNT, PERMISSIONS } from "../constants.ts";
// Device control, statistics and commands (spec §7 /api/run-lucky/device/app/device-control, device-flow-statistics).
import { deviceMember } from "./access.ts";
import { endpoint, ZId, ZIsoTime, ZIsoTimeInput, ZNumber, ZQueryInt, ZQueryNumber, ZRecord, ZText } from "./define.ts";
import { ZDeviceInfo } from "./device.ts";

const CONTROL = "/api/run-lucky/device/app/device-control";

/** Optional idempotency key of a command: a repeated id is never sent or applied twice. */
const ZCommandId = ZText(64, { min: 1 }).optional();

/** One value of a control-device parameter or setting: a number within ±1e9, a short single-line text or a switch. */
const ZControlValue = z.union([ZNumber(-1e9, 1e9), ZText(64), z.boolean()]);

/**
 * `params` of control-device (bounded, as every input): at most 64 entries — `time` (sync-time, ISO text), `settings`
 * (set-config: at most 64 settings by name) or the settings themselves at the top level. Which settings and values a
 * model takes is checked by the server against the model's bounds.
 */
const ZControlParams = ZRecord(ZText(64), z.union([ZControlValue, ZRecord(ZText(64), ZControlValue, 64)]), 64);

/** Outcome of a command (pending → done | failed). `error` is the device's reason; `message` is for people. */
export const ZCommandStatus = z.object({
  commandId: z.string(),
  status: z.enum(["pending", "done", "failed"]),
  error: z.string().nullable(),
  message: z.string().nullable(),
});
export type TCommandStatus = z.infer<typeof ZCommandStatus>;

/** A stored command with its outcome (extension: get-command-status). */
export const ZCommandRecord = ZCommandStatus.extend({
  deviceId: z.string(),
  name: z.string(),
  createdAt: ZIsoTime,
  ackedAt: ZIsoTime.nullable(),
});
export type TCommandRecord = z.infer<typeof ZCommandRecord>;

/** How fresh the values are: device clock of the last report, and device clock minus server time, s. */
export const ZFreshness = z.object({
  lastReportTime: ZIsoTime.nullable(),
  /** Device clock − server time, seconds (positive: the device is ahead); null until measured. */
  clockDriftSeconds: z.number().nullable(),
});

/** Device info with freshness (query-device-info-return-result). */
export const ZDeviceInfoFresh = ZDeviceInfo.extend({ clockDriftSeconds: z.number().nullable() });

/** Configured duration of one station (spec §3 stations 0-8), seconds; 0 when the station has no fixed time. */
export const ZStationMaxWorkTime = z.object({
  station: z.number().int().min(0).max(8),
  maxWorkTimeSeconds: z.number(),
});

/** Commands of control-device (spec §4 controls). */
export const CONTROL_DEVICE_COMMANDS = ["forced-flushing", "forced-switch", "sync-time", "set-config"] as const;

/** Firmware versions (query-ota-version) and the update in progress, if any. */
export const ZOtaVersion = z.object({
  currentVersion: z.string().nullable(),
  latestVersion: z.string(),
  updateAvailable: z.boolean(),
  /** True while an update runs ("the device is updating", spec §4); other commands are refused meanwhile. */
  updating: z.boolean(),
  /** Percent done of the running (or last) update, 0–100; null when none. */
  progress: z.number().nullable(),
  /** running | done | failed | null */
  otaStatus: z.string().nullable(),
  /**
   * Why the last update failed: "download", "hash", "signature", "boot" (the device's reason, docs/device-protocol.md
   * §3.7), "timeout" (no progress for 2 minutes), "offline", or the device's refusal ("busy", "unsigned"); null unless
   * `otaStatus` is "failed". Absent from servers before it was added.
   */
  otaError: z.string().nullable().optional(),
});
export type TOtaVersion = z.infer<typeof ZOtaVersion>;

/** Salt level and forecast (extension of the spec). kg, days. */
export const ZSaltStatus = ZFreshness.extend({
  deviceId: z.string(),
  /** Salt left in the brine tank, kg (level at the last refill minus salt used since); null until first reset. */
  saltLevelKg: z.number().nullable(),
  /** Salt used per regeneration (settings saltAddition), kg. */
  saltPerRegenerationKg: z.number().nullable(),
  regenerationsLast30Days: z.number().int(),
  /** Salt use per day: salt per regeneration ÷ {@link regenerationIntervalDays}, kg. */
  dailySaltUseKg: z.number(),
  /**
   * About how many days pass between two regenerations, as the forecast takes it: capacity between regenerations ÷
   * recent daily use (else what the last 30 days showed), never more than maximumRegenerationIntervalDay; days of the
   * valve's clock, one decimal. Null when nothing bounds it. Absent from servers before this field.
   */
  regenerationIntervalDays: z.number().nullable().optional(),
  /** "Salt runs out in N days"; null when unknown (no level or no use). */
  saltDaysLeft: z.number().int().nullable(),
  lowSalt: z.boolean(),
  /** Human text in the caller's language when salt is low, else null. */
  message: z.string().nullable(),
  refilledAt: ZIsoTime.nullable(),
  /** The level the owner entered at the last refill, kg (the gauge's full mark); null until the first refill. */
  refillLevelKg: z.number().nullable().optional(),
  /** The low-salt reminder: salt is low when it runs out within this many days (the household's setting). */
  reminderDays: z.number().int().optional(),
});
export type TSaltStatus = z.infer<typeof ZSaltStatus>;

/** One station within a regeneration cycle; seconds. */
export const ZCycleStation = z.object({
  station: z.number().int(),
  startTime: ZIsoTime,
  durationSeconds: z.number(),
  /** From the settings; null when the settings give none. */
  expectedSeconds: z.number().nullable(),
  /** True when |duration − expected| > 20 % of expected. */
  deviates: z.boolean(),
});

/**
 * One regeneration cycle (extension: get-regeneration-cycles). L, kg, seconds. Times are real (server arrival, ISO
 * UTC); durations are the valve's own seconds.
 */
export const ZRegenerationCycle = z.object({
  startTime: ZIsoTime,
  endTime: ZIsoTime.nullable(),
  durationSeconds: z.number().nullable(),
  expectedSeconds: z.number().nullable(),
  stations: z.array(ZCycleStation),
  /** Water the cycle sent to the drain, L, as the valve reports it; null when it does not. */
  waterL: z.number().nullable(),
  /** Salt the cycle drew, kg (reported, or saltAddition for a brine cycle of a valve that does not report it). */
  saltKg: z.number(),
  /** Some station (or the whole cycle) deviates by more than 20 % from the settings. */
  deviates: z.boolean(),
  complete: z.boolean(),
});
export type TRegenerationCycle = z.infer<typeof ZRegenerationCycle>;

/** One bucket of water-usage statistics: an hour (day view) or a day (week/month views). L, kg. */
export const ZFlowBucket = z.object({
  start: ZIsoTime,
  waterL: z.number(),
  regenerations: z.number().int(),
  saltKg: z.number(),
});

/** Water-usage statistics (spec §7 device-flow-statistics; report time types spec §3: 1 month, 2 week, 3 day). */
export const ZFlowStatistics = ZFreshness.extend({
  deviceId: z.string(),
  reportTimeType: z.number().int(),
  from: ZIsoTime,
  to: ZIsoTime,
  /**
   * "hour" for the day view, "day" for week and month. Buckets are the caller's local hours and days (the
   * `X-Time-Zone` header; UTC without it), by real time; each `start` is an instant in ISO UTC.
   */
  bucket: z.enum(["hour", "day"]),
  buckets: z.array(ZFlowBucket),
  totals: z.object({ waterL: z.number(), regenerations: z.number().int(), saltKg: z.number() }),
});
export type TFlowStatistics = z.infer<typeof ZFlowStatistics>;

/** Query of the CSV export: the device, the period (ISO times or dates, `from` ≤ t < `to`) and the granularity. */
export const ZFlowStatisticsCsvQuery = z.object({
  deviceId: ZId,
  from: z.iso.datetime({ offset: true }).max(40).or(z.iso.date().max(10)),
  to: z.iso.datetime({ offset: true }).max(40).or(z.iso.date().max(10)),
  granularity: z.enum(["raw", "hourly"]).default("raw"),
});
export type TFlowStatisticsCsvQuery = z.input<typeof ZFlowStatisticsCsvQuery>;

/**
 * The CSV export as an endpoint for the web client's `apiStream()` (spec §7 "streaming response"): `text/csv`,
 * streamed, not enveloped (errors before the first byte are). Kept out of `endpoints` because it answers no envelope;
 * the server registers it by hand (statistics/routes.ts).
 */
export const deviceFlowStatisticsCsv = endpoint({
  method: "GET",
  access: deviceMember("query.deviceId"),
  path: DEVICE_FLOW_STATISTICS_CSV_PATH,
  query: ZFlowStatisticsCsvQuery,
  body: undefined,
  result: z.string(),
  summary: "Telemetry as CSV (raw rows or hourly rollups), streamed; X-Total-Rows announces the rows",
});

const deviceQ = z.object({ deviceId: ZId });
const commandQ = z.object({ deviceId: ZId, commandId: ZCommandId });

/** Device-control endpoints (spec §7) and the app's extensions of them. */
export const deviceControlEndpoints = {
  deviceStationMaxWorkTimeCache: endpoint({
    method: "GET",
    access: deviceMember("query.deviceId"),
    path: `${CONTROL}/device-station-maxworktime-cache`,
    query: deviceQ,
    body: undefined,
    result: z.array(ZStationMaxWorkTime),
    summary: "Configured duration of every station, seconds (progress bars)",
  }),
  queryDeviceInfoReturnResult: endpoint({
    method: "POST",
    access: deviceMember("query.deviceId"),
    path: `${CONTROL}/query-device-info-return-result`,
    query: commandQ,
    body: undefined,
    result: ZDeviceInfoFresh,
    summary: "Ask the device to report and wait (≤ 10 s) for its fresh state",
  }),
  forcedRegeneration: endpoint({
    method: "POST",
    access: deviceMember("query.deviceId", PERMISSIONS.deviceControl),
    path: `${CONTROL}/forced-regeneration`,
    query: commandQ,
    body: undefined,
    result: ZCommandStatus,
    summary: "Start a regeneration now",
  }),
  controlDevice: endpoint({
    method: "POST",
    access: deviceMember("query.deviceId", PERMISSIONS.deviceControl),
    path: `${CONTROL}/control-device`,
    query: commandQ.extend({ time: ZIsoTimeInput.optional() }),
    body: z.object({
      command: z.enum(CONTROL_DEVICE_COMMANDS),
      params: ZControlParams.optional(),
    }),
    result: ZCommandStatus,
    summary: "Forced flushing, forced switch, time sync (phone time) or configuration change",
  }),
  queryOtaVersion: endpoint({
    method: "POST",
    access: deviceMember("query.deviceId"),
    path: `${CONTROL}/query-ota-version`,
    query: deviceQ,
    body: undefined,
    result: ZOtaVersion,
    summary: "Current and latest firmware, and the update in progress",
  }),
  deviceOta: endpoint({
    method: "POST",
    access: deviceMember("query.deviceId", PERMISSIONS.deviceControl),
    path: `${CONTROL}/device-ota`,
    query: commandQ.extend({ version: ZText(32, { min: 1 }).optional() }),
    body: undefined,
    result: ZCommandStatus,
    summary: "Start a firmware update; progress arrives as events on hub 1",
  }),
  changeVacation: endpoint({
    method: "POST",
    access: deviceMember("query.deviceId", PERMISSIONS.deviceControl),
    path: `${CONTROL}/change-vacation`,
    query: commandQ,
    body: undefined,
    result: ZCommandStatus,
    summary: "Enter vacation mode",
  }),
  exitVacation: endpoint({
    method: "POST",
    access: deviceMember("query.deviceId", PERMISSIONS.deviceControl),
    path: `${CONTROL}/exit-vacation`,
    query: commandQ,
    body: undefined,
    result: ZCommandStatus,
    summary: "Exit vacation mode",
  }),
  getCommandStatus: endpoint({
    method: "GET",
    access: { caller: "signedIn", object: { object: "command", role: "member", in: "query.commandId" } },
    path: `${CONTROL}/get-command-status`,
    query: z.object({ commandId: ZText(64, { min: 1 }) }),
    body: undefined,
    result: ZCommandRecord,
    summary: "Outcome of a command (extension, for polling)",
  }),
  resetSaltLevel: endpoint({
    method: "POST",
    access: deviceMember("query.deviceId", PERMISSIONS.deviceSetting),
    path: `${CONTROL}/reset-salt-level`,
    query: z.object({ deviceId: ZId, levelKg: ZQueryNumber(0, 1000) }),
    body: undefined,
    result: ZSaltStatus,
    summary: "The owner refilled the brine tank: set the salt level, kg (extension)",
  }),
  getSaltStatus: endpoint({
    method: "GET",
    access: deviceMember("query.deviceId"),
    path: `${CONTROL}/get-salt-status`,
    query: deviceQ,
    body: undefined,
    result: ZSaltStatus,
    summary: "Salt level and 'salt runs out in N days' forecast (extension)",
  }),
  setSaltReminder: endpoint({
    method: "PUT",
    access: deviceMember("query.deviceId", PERMISSIONS.deviceSetting),
    path: `${CONTROL}/set-salt-reminder`,
    // `days` is checked by the server (a whole number in SALT_REMINDER_DAYS), so a wrong value is answered with the
    // setting's own text ("Choose from 1 to 30 days") in the caller's language rather than a generic one; the wide
    // bounds here only keep absurd numbers (1e308) out.
    query: z.object({ deviceId: ZId, days: ZQueryNumber(-10_000, 10_000) }),
    body: undefined,
    result: ZSaltStatus,
    summary:
      "Set the low-salt reminder: salt is low when it runs out within N days, 1–30; any member of the household (extension)",
  }),
  getRegenerationCycles: endpoint({
    method: "GET",
    access: deviceMember("query.deviceId"),
    path: `${CONTROL}/get-regeneration-cycles`,
    query: z.object({
      deviceId: ZId,
      skipCount: ZQueryInt(0, MAX_SKIP_COUNT).default(0),
      maxResultCount: ZQueryInt(1, 100).default(15),
    }),
    body: undefined,
    result: z.object({ items: z.array(ZRegenerationCycle), totalCount: z.number().int() }),
    summary: "Regeneration cycles, newest first, with per-station deviation flags (extension, paged)",
  }),
  deviceFlowStatistics: endpoint({
    method: "POST",
    access: deviceMember("body.deviceId"),
    path: "/api/run-lucky/device/app/device/device-flow-statistics",
    query: z.object({}),
    body: z.object({
      deviceId: ZId,
      reportTimeType: ZQueryInt(1, 3),
      /** A day inside the period, YYYY-MM-DD, a calendar date in the caller's time zone; default today there. */
      date: ZText(40)
        .regex(/^\d{4}-\d{2}-\d{2}/)
        .optional(),
    }),
    result: ZFlowStatistics,
    summary: "Water used, regenerations and salt per hour (day) or per day (week, month)",
  }),
} as const;
