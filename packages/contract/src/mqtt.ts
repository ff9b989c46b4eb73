import { z } from "zod";
import { SYSTEM_CLOSE_REASONS } from "./enums.js";

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

/** Splits a device topic into MAC and channel, or null when it is not one. */
export function parseDeviceTopic(topic: string): { mac: string; channel: MqttChannel } | null {
  const parts = topic.split("/");
  if (parts.length !== 5 || `${parts[0]}/${parts[1]}/${parts[2]}` !== MQTT_TOPIC_ROOT) return null;
  const channel = (Object.keys(MQTT_CHANNELS) as MqttChannel[]).find((c) => MQTT_CHANNELS[c] === parts[4]);
  if (!channel || !/^[0-9A-F]{12}$/.test(parts[3])) return null;
  return { mac: parts[3], channel };
}

const ZTs = z.string().describe("ISO 8601 time on the device clock");

export const ZMqttStatus = z.object({ v: z.literal(1), online: z.boolean(), ts: ZTs.optional() });
export type TMqttStatus = z.infer<typeof ZMqttStatus>;

/**
 * Reported state (retained). Units: litres (L), litres per minute (L/min), seconds (s), kilograms (kg).
 * `settings` carries the advanced settings of spec §3 as the device currently applies them.
 */
export const ZMqttState = z.object({
  v: z.literal(1),
  ts: ZTs,
  station: z.number().int().min(0).max(8),
  /** Seconds left in the current station; null in service. */
  stationRemainingSeconds: z.number().min(0).nullable(),
  /**
   * When the current station began, on the device clock (which a time sync moves together with `ts`); null in service.
   * With `ts` and `stationDurationSeconds` the app computes a countdown that never runs backwards (issue 10).
   */
  stationStartedAt: ZTs.nullable().optional(),
  /** Total length of the current station as the valve runs it, s; null in service. */
  stationDurationSeconds: z.number().min(0).max(604_800).nullable().optional(),
  /** Seconds until the valve is back in service (the rest of this station plus the stations after it); null in service. */
  serviceRemainingSeconds: z.number().min(0).max(604_800).nullable().optional(),
  /** Soft water left before the next regeneration is due, L. */
  remainingWaterL: z.number().min(0),
  /** Exchange capacity between regenerations, L. */
  capacityL: z.number().min(0),
  flowRateLpm: z.number().min(0),
  totalWaterL: z.number().min(0),
  vacation: z.boolean(),
  closeReason: z.number().int().nullable(),
  firmwareVersion: z.string(),
  model: z.string(),
  serialNumber: z.string(),
  deviceSerialNumber: z.string(),
  regenerationCount: z.number().int().min(0),
  settings: z.record(z.string(), z.union([z.number(), z.string(), z.boolean()])).optional(),
});
export type TMqttState = z.infer<typeof ZMqttState>;

export const ZMqttTelemetry = z.object({
  v: z.literal(1),
  ts: ZTs,
  totalWaterL: z.number().min(0),
  flowRateLpm: z.number().min(0),
  /** Water metered since the previous telemetry message, L. */
  intervalWaterL: z.number().min(0),
});
export type TMqttTelemetry = z.infer<typeof ZMqttTelemetry>;

export const ZMqttEvent = z.object({
  v: z.literal(1),
  ts: ZTs,
  id: z.string(),
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
  closeReason: z
    .number()
    .int()
    .refine((n) => (SYSTEM_CLOSE_REASONS as readonly number[]).includes(n))
    .nullable()
    .optional(),
  station: z.number().int().min(0).max(8).nullable().optional(),
  /** For "ota-progress" / "ota-failed": percent of the firmware update done (or where it failed), 0–100. */
  progress: z.number().min(0).max(100).nullable().optional(),
  /** For "regeneration-end": water the cycle sent to the drain (backwash, rinses, brine refill), L. */
  waterL: z.number().min(0).max(10_000).nullable().optional(),
  /** For "regeneration-end": salt the cycle drew from the brine tank, kg. */
  saltKg: z.number().min(0).max(100).nullable().optional(),
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

export const ZMqttAck = z.object({
  v: z.literal(1),
  id: z.string(),
  ts: ZTs,
  ok: z.boolean(),
  error: z.string().nullable().optional(),
});
export type TMqttAck = z.infer<typeof ZMqttAck>;
