import { z } from "zod";
import type { AdvancedSettingName } from "./constants.ts";
import { isSystemCloseReason } from "./enums.ts";

/**
 * Device protocol v1 over MQTT (docs/device-protocol.md).
 * Every device owns the topic tree `aq/v1/devices/{mac}/…`; it authenticates with username = MAC and
 * password = its provisioning secret, and may publish and subscribe only inside its own tree.
 */
export const MQTT_PROTOCOL_VERSION = 1;
export const MQTT_TOPIC_ROOT = "aq/v1/devices";

/** The leaf names under a device's tree, and who publishes each. */
export const MQTT_CHANNELS = {
  /** device → cloud, retained: `{online, ts}`; the connection's will message publishes `online: false`. */
  status: "status",
  /** device → cloud, retained: the reported state (station, counters, settings). */
  state: "state",
  /** device → cloud: metered water counters and flow. */
  telemetry: "telemetry",
  /** device → cloud: alarms and cycle events. */
  event: "event",
  /** cloud → device: commands, each with an id (QoS 1). */
  cmd: "cmd",
  /** device → cloud: acknowledgement per command id (QoS 1). */
  ack: "ack",
  /** cloud → device: the report ids the cloud has stored (QoS 1, not retained; {@link ZMqttReceipt}). */
  receipt: "receipt",
} as const;
export type MqttChannel = keyof typeof MQTT_CHANNELS;

/** Normalises a MAC to the form used in topics and credentials: 12 upper-case hex digits, no separators. */
export function normaliseMac(mac: string): string {
  return mac.replace(/[^0-9a-fA-F]/g, "").toUpperCase();
}

/** Topic of one channel of one device, e.g. `aq/v1/devices/A1B2C3D4E5F6/state`. */
export function deviceTopic(mac: string, channel: MqttChannel): string {
  return `${MQTT_TOPIC_ROOT}/${normaliseMac(mac)}/${MQTT_CHANNELS[channel]}`;
}

/** Wildcard for one channel of every device (the gateway's subscriptions). */
export function allDevicesTopic(channel: MqttChannel): string {
  return `${MQTT_TOPIC_ROOT}/+/${MQTT_CHANNELS[channel]}`;
}

/**
 * Every channel of one device, e.g. `aq/v1/devices/A1B2C3D4E5F6/+` (a gateway's subscription to the devices assigned
 * to it).
 */
export function deviceChannelsTopic(mac: string): string {
  return `${MQTT_TOPIC_ROOT}/${normaliseMac(mac)}/+`;
}

/** Splits a device topic into MAC and channel, or null when it is not one. */
export function parseDeviceTopic(topic: string): { mac: string; channel: MqttChannel } | null {
  const parts = topic.split("/");
  if (parts.length !== 5 || `${parts[0]}/${parts[1]}/${parts[2]}` !== MQTT_TOPIC_ROOT) return null;
  const channel = (Object.keys(MQTT_CHANNELS) as MqttChannel[]).find((c) => MQTT_CHANNELS[c] === parts[4]);
  if (!channel || !/^[0-9A-F]{12}$/.test(parts[3])) return null;
  return { mac: parts[3], channel };
}

/** How a client of the device link waits between connection attempts (docs/device-protocol.md §1). */
export interface ReconnectBackoff {
  /** Delay before the first retry, ms. */
  initialMs: number;
  /** Largest delay, ms. */
  maxMs: number;
  /** Growth per failed attempt (default 2). */
  factor?: number;
}

/** A device's reconnection (docs/device-protocol.md §1): 1 s, doubling, at most 30 s, each delay jittered. */
export const DEVICE_RECONNECT_BACKOFF: ReconnectBackoff = { initialMs: 1000, maxMs: 30_000, factor: 2 };

/**
 * Delay before connection attempt number `attempt + 1` after `attempt` failed ones (0 = the first retry), ms:
 * `min(maxMs, initialMs × factor^attempt)`, jittered to a uniform value between its half and its whole ("equal
 * jitter"), so a fleet refused at once does not come back at once and no delay exceeds `maxMs`.
 * @param random a source of uniform numbers in [0, 1) (default Math.random; tests pass a fixed one).
 * @throws RangeError when `attempt` is negative or not an integer, or the policy's numbers are not positive.
 */
export function reconnectDelayMs(
  attempt: number,
  policy: ReconnectBackoff,
  random: () => number = Math.random,
): number {
  if (!Number.isInteger(attempt) || attempt < 0) throw new RangeError("attempt must be an integer ≥ 0");
  const factor = policy.factor ?? 2;
  if (!(policy.initialMs > 0 && policy.maxMs >= policy.initialMs && factor >= 1)) {
    throw new RangeError("backoff needs 0 < initialMs ≤ maxMs and factor ≥ 1");
  }
  const ceiling = Math.min(policy.maxMs, policy.initialMs * factor ** Math.min(attempt, 64));
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}

/**
 * Largest MQTT packet the cloud reads, bytes of the packet's remaining length (topic, packet id and payload).
 * The largest legitimate message, a state report with all 26 settings, is about 1.5 KB; the embedded broker closes a
 * connection that announces a bigger packet before reading it, and the gateway drops a bigger payload from an
 * external broker (set Mosquitto's `message_size_limit` / EMQX's `max_packet_size` to the same value).
 */
export const MQTT_MAX_PACKET_BYTES = 16_384;

/**
 * Longest a connected device may stay without an accepted report, s (docs/device-protocol.md §5.2): it sends telemetry
 * at least this often (the simulator every 10 s), so the cloud hears it even when no water flows.
 */
export const DEVICE_REPORT_INTERVAL_SECONDS = 60;
/**
 * What the cloud allows beyond {@link DEVICE_REPORT_INTERVAL_SECONDS} for a late or redelivered report, s
 * (docs/device-protocol.md §5.2): a device whose last accepted report (or connection) is older than the interval plus
 * this margin counts as offline, whatever its retained status says.
 */
export const DEVICE_REPORT_MARGIN_SECONDS = 60;

/**
 * The `device_events` type the cloud records when a device's totaliser or regeneration count went down: a counter
 * reset (docs/device-protocol.md §5.1). Recorded by the cloud, never sent by a device; it reaches the apps as the
 * event type of a hub-1 change message of kind "event".
 */
export const COUNTER_RESET_EVENT = "counter-reset";

/**
 * Physical bounds of the numbers a device reports, units in the names. Generous on purpose (a valve
 * reporting a value beyond them is broken or hostile), and above every value the simulator can produce.
 */
export const MQTT_BOUNDS = {
  /** Metered totals, capacity and water left, L (10⁹ L = 1 000 000 m³, centuries of a large valve). */
  waterL: 1e9,
  /** Water metered between two telemetry messages, L (a week of a 60× simulator offline stays below). */
  intervalWaterL: 1e6,
  /** Instantaneous flow, L/min (a 2″ valve passes about 400 L/min). */
  flowLpm: 1000,
  /** Durations of stations and cycles, s (7 days). */
  seconds: 604_800,
  /** Event counters such as regenerations. */
  count: 1e7,
  /** Text fields naming the device (model, firmware version, serial numbers), characters. */
  identityChars: 64,
  /** Device-chosen ids (events, acknowledged command ids), characters. */
  idChars: 64,
  /** Error text in an acknowledgement, characters. */
  errorChars: 200,
} as const;

/**
 * The channels whose reports a device keeps until the cloud's receipt (docs/device-protocol.md §3.6): telemetry and
 * events, each carrying its report id (`id`). State and status are not among them: each is retained and replaced by
 * the next one, which the device sends at every connection.
 */
export const RECEIPTED_CHANNELS = ["telemetry", "event"] as const satisfies readonly MqttChannel[];

/**
 * Most report ids in one receipt: 200 ids of at most 64 characters keep the message under
 * {@link MQTT_MAX_PACKET_BYTES} (the gateway sends more in several receipts).
 */
export const MQTT_RECEIPT_MAX_IDS = 200;

/** Text without control characters (C0, DEL, C1): no NUL, no line breaks, no escape sequences. */
const PRINTABLE = /^[^\p{Cc}]*$/u;

function ZText(max: number) {
  return z.string().max(max).regex(PRINTABLE, "control characters are not allowed");
}

/** An id on the wire (a device's event id, a command id): 1–64 characters without control characters. */
const ZDeviceId = ZText(MQTT_BOUNDS.idChars).min(1);

/** A report id (the `id` of telemetry and events, docs/device-protocol.md §3.6): what a receipt lists. */
export const ZMqttReportId = ZDeviceId;

/**
 * ISO 8601 time on the device clock: at most 40 characters, a real calendar instant with `Z` or an offset,
 * normalised to UTC with milliseconds (`Date.toISOString()`, so text order is time order). Whether the time is
 * plausible is the gateway's question (it depends on the server's clock and the device clock's measured rate).
 */
const ZTs = z
  .string()
  .max(40)
  .pipe(z.iso.datetime({ offset: true }))
  .refine((s) => Number.isFinite(Date.parse(s)), "not a time")
  .transform((s) => new Date(s).toISOString())
  .describe("ISO 8601 time on the device clock");

const ZWaterL = z.number().min(0).max(MQTT_BOUNDS.waterL);
const ZSeconds = z.number().min(0).max(MQTT_BOUNDS.seconds);

export const ZMqttStatus = z.object({ v: z.literal(1), online: z.boolean(), ts: ZTs.optional() });
export type TMqttStatus = z.infer<typeof ZMqttStatus>;

/** A setting the device may report: the 26 advanced settings of spec §3 and the salt it has used so far. */
export type ReportedSettingName = AdvancedSettingName | "saltUsedKg";

type SettingRule = { kind: "number"; min: number; max: number; int?: true } | { kind: "hhmm" } | { kind: "datetime" };

/**
 * What a device may report for each setting: the bounds a valve accepts (the simulator's, which contain
 * the cloud's per-model bounds of docs/device-protocol.md §9), times of day "HH:mm", `currentTime` an ISO time or "".
 */
export const REPORTED_SETTING_RULES = {
  absorbSaltMode: { kind: "number", min: 0, max: 1, int: true },
  absorbSaltSlowWashTime: { kind: "number", min: 0, max: 240 },
  backWashIntervalNumber: { kind: "number", min: 1, max: 99, int: true },
  backWashTime: { kind: "number", min: 0, max: 99 },
  continuousWaterTime: { kind: "number", min: 0, max: 999 },
  currentTime: { kind: "datetime" },
  deviceTimeScheme: { kind: "number", min: 0, max: 1, int: true },
  filterMaterialWorkingDay: { kind: "number", min: 0, max: 9999, int: true },
  flowRateOff: { kind: "number", min: 0, max: 999 },
  language: { kind: "number", min: 0, max: 99, int: true },
  maximumRegenerationIntervalDay: { kind: "number", min: 0, max: 99, int: true },
  operationDay: { kind: "number", min: 0, max: 99999, int: true },
  outRelayMode: { kind: "number", min: 0, max: 9, int: true },
  periodicWaterProduction: { kind: "number", min: 0, max: 1e9 },
  periodicWaterProductionUnit: { kind: "number", min: 0, max: 9, int: true },
  rawWaterHardness: { kind: "number", min: 1, max: 5000 },
  regeneratingTriggerTime: { kind: "hhmm" },
  regenerationAlarmNumber: { kind: "number", min: 0, max: 999, int: true },
  resinVolume: { kind: "number", min: 0.5, max: 5000 },
  saltAddition: { kind: "number", min: 0, max: 500 },
  saltTankRefillTime: { kind: "number", min: 0, max: 99 },
  washInitiationTime: { kind: "hhmm" },
  washTime: { kind: "number", min: 0, max: 99 },
  washingIncreaseNumber: { kind: "number", min: 0, max: 99, int: true },
  waterVolumeUnit: { kind: "number", min: 0, max: 2, int: true },
  workPattern: { kind: "number", min: 0, max: 6, int: true },
  /** Salt drawn since installation, kg (cumulative). */
  saltUsedKg: { kind: "number", min: 0, max: 1e7 },
} as const satisfies Record<ReportedSettingName, SettingRule>;

/** Settings as stored from a report: known names only, each within its rule. */
export type TReportedSettings = Partial<Record<ReportedSettingName, number | string>>;

function settingValueOk(rule: SettingRule, value: unknown): value is number | string {
  switch (rule.kind) {
    case "number":
      return (
        typeof value === "number" &&
        Number.isFinite(value) &&
        value >= rule.min &&
        value <= rule.max &&
        (!rule.int || Number.isInteger(value))
      );
    case "hhmm":
      return typeof value === "string" && /^([01]\d|2[0-3]):[0-5]\d$/.test(value);
    case "datetime":
      return value === "" || (typeof value === "string" && ZTs.safeParse(value).success);
  }
}

/**
 * Keeps the settings of a report that the cloud knows and that lie within {@link REPORTED_SETTING_RULES}, pure:
 * unknown names and out-of-range or mistyped values are dropped (listed in `dropped`), never stored.
 * Input: the `settings` object as received (any shape); output in a fresh object (no prototype keys carried over).
 */
export function sanitizeReportedSettings(raw: unknown): { settings: TReportedSettings; dropped: string[] } {
  const settings: TReportedSettings = {};
  const dropped: string[] = [];
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return { settings, dropped };
  for (const [key, value] of Object.entries(raw)) {
    const rule = Object.hasOwn(REPORTED_SETTING_RULES, key)
      ? REPORTED_SETTING_RULES[key as ReportedSettingName]
      : undefined;
    if (rule && settingValueOk(rule, value)) settings[key as ReportedSettingName] = value;
    else dropped.push(key);
  }
  return { settings, dropped };
}

/** The `settings` of a state report: any object, reduced to the known, valid settings ({@link sanitizeReportedSettings}). */
export const ZMqttReportedSettings = z
  .record(z.string(), z.unknown())
  .transform((raw): TReportedSettings => sanitizeReportedSettings(raw).settings);

/**
 * Reported state (retained). Units: litres (L), litres per minute (L/min), seconds (s), kilograms (kg).
 * `settings` carries the advanced settings of spec §3 as the device currently applies them. Every number is finite
 * and within {@link MQTT_BOUNDS}; every text is bounded.
 */
export const ZMqttState = z.object({
  v: z.literal(1),
  ts: ZTs,
  station: z.number().int().min(0).max(8),
  /** Seconds left in the current station; null in service. */
  stationRemainingSeconds: ZSeconds.nullable(),
  /**
   * When the current station began, on the device clock (which a time sync moves together with `ts`); null in service.
   * With `ts` and `stationDurationSeconds` the app computes a countdown that never runs backwards.
   */
  stationStartedAt: ZTs.nullable().optional(),
  /** Total length of the current station as the valve runs it, s; null in service. */
  stationDurationSeconds: ZSeconds.nullable().optional(),
  /** Seconds until the valve is back in service (the rest of this station plus the stations after it); null in service. */
  serviceRemainingSeconds: ZSeconds.nullable().optional(),
  /** Soft water left before the next regeneration is due, L. */
  remainingWaterL: ZWaterL,
  /** Exchange capacity between regenerations, L. */
  capacityL: ZWaterL,
  flowRateLpm: z.number().min(0).max(MQTT_BOUNDS.flowLpm),
  /** Metered water since installation, L; goes down only at a counter reset (docs/device-protocol.md §5.1). */
  totalWaterL: ZWaterL,
  vacation: z.boolean(),
  closeReason: z.number().int().min(0).max(65_535).nullable(),
  firmwareVersion: ZText(MQTT_BOUNDS.identityChars),
  model: ZText(MQTT_BOUNDS.identityChars),
  serialNumber: ZText(MQTT_BOUNDS.identityChars),
  deviceSerialNumber: ZText(MQTT_BOUNDS.identityChars),
  /** Completed regenerations since installation; goes down only at a counter reset (docs/device-protocol.md §5.1). */
  regenerationCount: z.number().int().min(0).max(MQTT_BOUNDS.count),
  settings: ZMqttReportedSettings.optional(),
});
export type TMqttState = z.infer<typeof ZMqttState>;

export const ZMqttTelemetry = z
  .object({
    v: z.literal(1),
    ts: ZTs,
    /** Metered water since installation, L; goes down only at a counter reset (docs/device-protocol.md §5.1). */
    totalWaterL: ZWaterL,
    flowRateLpm: z.number().min(0).max(MQTT_BOUNDS.flowLpm),
    /** Water metered since the previous telemetry message, L (never more than the total). */
    intervalWaterL: z.number().min(0).max(MQTT_BOUNDS.intervalWaterL),
    /**
     * Report id chosen by the device (a UUID; 1–64 characters without control characters): the cloud stores a report
     * id once and answers it with a receipt (docs/device-protocol.md §3.6). Optional: a record without one is stored
     * by (device, time) and gets no receipt.
     */
    id: ZDeviceId.optional(),
    /**
     * True on a copy of a record the device sent before without getting its receipt (docs/device-protocol.md §3.6). Its
     * totaliser may then be below newer records the cloud stored meanwhile: a late record, not a counter reset (§5.1).
     */
    resent: z.literal(true).optional(),
  })
  .refine((m) => m.intervalWaterL <= m.totalWaterL + 0.5, {
    message: "intervalWaterL exceeds totalWaterL",
    path: ["intervalWaterL"],
  });
export type TMqttTelemetry = z.infer<typeof ZMqttTelemetry>;

/** Why a firmware update failed, the `reason` of an "ota-failed" event (docs/device-protocol.md §3.7). */
export const OTA_FAILURE_REASONS = ["download", "hash", "signature", "boot"] as const;
export type OtaFailureReason = (typeof OTA_FAILURE_REASONS)[number];

export const ZMqttEvent = z.object({
  v: z.literal(1),
  ts: ZTs,
  /**
   * Chosen by the device (a UUID); 1–64 characters without control characters. Also the event's report id: the cloud
   * stores it once and answers it with a receipt (docs/device-protocol.md §3.6).
   */
  id: ZDeviceId,
  /** "ota-failed": a firmware update stopped at `progress` % and the device keeps its previous version. */
  type: z.enum([
    "close",
    "regeneration-start",
    "regeneration-end",
    "station",
    "vacation",
    "reset",
    "ota-progress",
    "ota-failed",
  ]),
  closeReason: z.number().int().refine(isSystemCloseReason).nullable().optional(),
  station: z.number().int().min(0).max(8).nullable().optional(),
  /** For "ota-progress" / "ota-failed": percent of the firmware update done (or where it failed), 0–100. */
  progress: z.number().min(0).max(100).nullable().optional(),
  /** For "regeneration-end": water the cycle sent to the drain (backwash, rinses, brine refill), L. */
  waterL: z.number().min(0).max(10_000).nullable().optional(),
  /** For "regeneration-end": salt the cycle drew from the brine tank, kg. */
  saltKg: z.number().min(0).max(100).nullable().optional(),
  /**
   * For "ota-failed": why — "download" (the image could not be fetched), "hash" (its SHA-256 differs), "signature"
   * (not signed by a pinned vendor key) or "boot" (the new version did not start; the device rolled back).
   */
  reason: z.enum(OTA_FAILURE_REASONS).nullable().optional(),
});
export type TMqttEvent = z.infer<typeof ZMqttEvent>;

export const DEVICE_COMMANDS = [
  "query",
  "forced-regeneration",
  "forced-flushing",
  "forced-switch",
  "change-vacation",
  "exit-vacation",
  "sync-time",
  "set-config",
  "ota",
] as const;
export type DeviceCommandName = (typeof DEVICE_COMMANDS)[number];

export const ZMqttCommand = z.object({
  v: z.literal(1),
  /** Idempotency key: a device applies a given id at most once and acknowledges repeats with the first outcome. */
  id: z.string().min(1).max(64),
  ts: ZTs,
  name: z.enum(DEVICE_COMMANDS),
  params: z.record(z.string(), z.unknown()).default({}),
});
export type TMqttCommand = z.infer<typeof ZMqttCommand>;

/** Largest firmware image a device is offered, bytes (16 MiB, a module's whole flash). */
export const OTA_MAX_IMAGE_BYTES = 16 * 1024 * 1024;

/**
 * Parameters of the "ota" command (docs/device-protocol.md §3.7 "Firmware update"): the target `version` and the signed
 * image — `url` (HTTP(S), with a short-lived token for this device; supports `Range`), `size` in bytes, `sha256` (64
 * lower-case hex digits) and `signature` (the vendor's Ed25519 signature over the 32-byte SHA-256 digest, base64).
 * The four image fields come together or not at all: without them (no image uploaded for the model, development only)
 * the command names a version only (or none: the simulator's next version); the simulator plays such an update, a
 * product device refuses it with ack error "unsigned".
 */
export const ZMqttOtaParams = z
  .object({
    version: ZText(MQTT_BOUNDS.identityChars).min(1).optional(),
    url: z
      .string()
      .max(2048)
      .regex(/^https?:\/\//)
      .optional(),
    size: z.number().int().min(1).max(OTA_MAX_IMAGE_BYTES).optional(),
    sha256: z
      .string()
      .regex(/^[0-9a-f]{64}$/)
      .optional(),
    signature: z
      .string()
      .regex(/^[A-Za-z0-9+/]{86}==$/)
      .optional(),
  })
  .refine(
    (p) =>
      [p.url, p.size, p.sha256, p.signature].every((x) => x === undefined) ||
      [p.version, p.url, p.size, p.sha256, p.signature].every((x) => x !== undefined),
    { message: "url, size, sha256 and signature come together, with the version" },
  );
export type TMqttOtaParams = z.infer<typeof ZMqttOtaParams>;

export const ZMqttAck = z.object({
  v: z.literal(1),
  /** The command's id (1–64 characters, see {@link ZMqttCommand}). */
  id: ZDeviceId,
  ts: ZTs,
  ok: z.boolean(),
  /** Why the command was refused, e.g. "busy" or "invalid-setting:washTime"; at most 200 characters. */
  error: ZText(MQTT_BOUNDS.errorChars).nullable().optional(),
});
export type TMqttAck = z.infer<typeof ZMqttAck>;

/**
 * The cloud's receipt (topic `…/{MAC}/receipt`, cloud → device, QoS 1, not retained; docs/device-protocol.md
 * §3.6): report ids of the device's telemetry and events that the cloud is done with — stored (now or before), or
 * refused for good (a report that breaks the schema is never stored, however often sent). The device drops them from
 * its outbox and sends them no more. 1–{@link MQTT_RECEIPT_MAX_IDS} ids per message.
 */
export const ZMqttReceipt = z.object({
  v: z.literal(1),
  ts: ZTs,
  ids: z.array(ZDeviceId).min(1).max(MQTT_RECEIPT_MAX_IDS),
});
export type TMqttReceipt = z.infer<typeof ZMqttReceipt>;
