import type { Generated } from "kysely";
import type { ActivationTables } from "./schema-activation.ts";
import type { AfterSaleTables } from "./schema-after-sale.ts";
import type { ArticleTables } from "./schema-article.ts";
import type { FilesTables } from "./schema-files.ts";
import type { FirmwareTables } from "./schema-firmware.ts";
import type { IdempotencyTables } from "./schema-idempotency.ts";
import type { MessagesTables } from "./schema-messages.ts";
import type { PreferencesTables } from "./schema-preferences.ts";
import type { SaltTables } from "./schema-salt.ts";

/**
 * Table types of the one database both engines share (SQLite embedded, PostgreSQL at scale).
 * Conventions so the same queries run on both: ids are text (random v4 UUIDs), times are ISO 8601
 * UTC text, booleans are integers 0/1, JSON is text. Units in column names: _l litres, _lpm L/min,
 * _seconds seconds.
 */
export interface UsersTable {
  id: string;
  user_name: string;
  name: string | null;
  email: string | null;
  phone_number: string | null;
  country_code: string | null;
  password_hash: string;
  service_region: number;
  language_type: string;
  avatar: string | null;
  /** Changes on password change, logout everywhere or deletion; tokens carrying an old stamp are refused. */
  security_stamp: string;
  is_deleted: number;
  creation_time: string;
  /** 1 for a device master (spec §6: holds every permission, the only holder of "master"); migration 0002. */
  is_master: Generated<number>;
}

export interface FamiliesTable {
  id: string;
  name: string;
  address: string | null;
  longitude: number | null;
  latitude: number | null;
  avatar: string | null;
  creator_id: string;
  creation_time: string;
  /** Region path chosen with the address (travel-location-lookup names); migration 0003. */
  province: string | null;
  city: string | null;
  district: string | null;
}

export interface FamilyMembersTable {
  id: string;
  family_id: string;
  user_id: string;
  is_admin: number;
  creation_time: string;
}

/** A signed QR share code of a family (spec §4: valid 15 minutes); migration 0003. The code text is not stored. */
export interface FamilyShareCodesTable {
  /** Random v4 id carried inside the signed code. */
  id: string;
  family_id: string;
  inviter_id: string;
  /** join-family */
  purpose: string;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
  /** How many users joined with this code. */
  join_count: Generated<number>;
}

export interface DevicesTable {
  id: string;
  /** 12 upper-case hex digits (normaliseMac); also the device's MQTT username. */
  mac: string;
  /** argon2id hash of the provisioning secret (the device's MQTT password). */
  secret_hash: string;
  name: string;
  image: string | null;
  model: string | null;
  device_serial_number: string | null;
  serial_number: string | null;
  firmware_version: string | null;
  family_id: string | null;
  sort: number;
  creation_time: string;
}

export interface DeviceStateTable {
  device_id: string;
  online: number;
  station: number | null;
  station_remaining_seconds: number | null;
  remaining_water_l: number | null;
  capacity_l: number | null;
  flow_rate_lpm: number | null;
  total_water_l: number | null;
  vacation: number;
  close_reason: number | null;
  regeneration_count: number;
  settings_json: string | null;
  /** Device clock time of the last state report. */
  last_report_time: string | null;
  /** Server time the row was last written. */
  updated_at: string;
  /** Server time the last state report arrived (migration 0013): the "last report" the owner sees. */
  reported_at: string | null;
  /** Device clock time the current station began (migration 0013); null in service. */
  station_started_at: string | null;
  /** Total length of the current station, s (migration 0013). */
  station_duration_seconds: number | null;
  /** Seconds until back in service, as last reported (migration 0013). */
  service_remaining_seconds: number | null;
  /** Measured device seconds per real second (migration 0013); null until measured (then 1 is assumed). */
  clock_rate: number | null;
  /** Device clock time of the last rate measurement's anchor (migration 0013). */
  rate_anchor_ts: string | null;
  /** Server time of that anchor (migration 0013). */
  rate_anchor_at: string | null;
  /** Server time of the last accepted state or telemetry report (migration 0019). */
  last_heard_at: string | null;
  /** Server time of the last live `online: true` status, a connection (migration 0019). */
  status_at: string | null;
  /** Server time since when the device's reports are refused (migration 0019); null while they are accepted. */
  reports_refused_since: string | null;
  /** Why they are refused: a gateway refusal reason (migration 0019); null while they are accepted. */
  reports_refused_reason: string | null;
  /** Totaliser of the last stored telemetry record, L (migration 0020); null before the first. */
  telemetry_total_l: number | null;
}

export interface DeviceEventsTable {
  /** The device's own event id, so a redelivered event is stored once. */
  id: string;
  device_id: string;
  type: string;
  close_reason: number | null;
  station: number | null;
  ts: string;
  received_at: string;
  /** Percent of a firmware update for "ota-progress" / "ota-failed" (migration 0006); null otherwise. */
  progress: number | null;
  /** For "regeneration-end": water the cycle sent to the drain, L (migration 0013). */
  water_l: number | null;
  /** For "regeneration-end": salt the cycle drew, kg (migration 0013). */
  salt_kg: number | null;
}

export interface DeviceTelemetryTable {
  device_id: string;
  ts: string;
  total_water_l: number;
  flow_rate_lpm: number;
  interval_water_l: number;
  /** Server time of arrival (migration 0013); the hourly water buckets use it. Null only for rows written before. */
  received_at: string | null;
  /** The device's report id (migration 0023), unique per device; null for a record sent without one. */
  report_id: string | null;
}

export interface DeviceCommandsTable {
  /** Idempotency key sent to the device. */
  id: string;
  device_id: string;
  user_id: string | null;
  name: string;
  params_json: string;
  /** pending | acked (acknowledged, its effect not yet in a state report; "pending" on the wire) | done | failed */
  status: string;
  error: string | null;
  created_at: string;
  acked_at: string | null;
  /**
   * What the stored state said when the device acknowledged a command whose effect a state report must show before
   * it is done (migration 0019), JSON; null otherwise.
   */
  ack_baseline_json: string | null;
}

/** Water used per UTC hour, rolled up from device_telemetry as it arrives (migration 0005). */
export interface DeviceWaterHourlyTable {
  device_id: string;
  /** ISO UTC start of the hour, e.g. 2026-11-22T14:00:00.000Z. */
  hour_start: string;
  /** The hour's water, L, rounded to 0.001 L (what the statistics read). */
  water_l: number;
  /** The same sum unrounded, L, which new telemetry adds to (migration 0018); null on rows written before it. */
  water_sum_l: number | null;
  samples: number;
  max_flow_lpm: number;
  updated_at: string;
}

/** Water used per UTC day, rolled up from device_water_hourly (migration 0005). */
export interface DeviceWaterDailyTable {
  device_id: string;
  /** YYYY-MM-DD (UTC). */
  day: string;
  water_l: number;
  samples: number;
  updated_at: string;
}

/** Salt level the owner set when refilling the brine tank (migration 0005). kg. */
export interface DeviceSaltTable {
  device_id: string;
  level_kg: number;
  refilled_at: string;
  updated_by: string | null;
}

/** The firmware update of a device, running or last (migration 0005). */
export interface DeviceOtaTable {
  device_id: string;
  command_id: string;
  from_version: string | null;
  target_version: string;
  /** running | done | failed */
  status: string;
  /** 0–100 */
  progress: number;
  error: string | null;
  started_at: string;
  updated_at: string;
}

/** Device clock vs server time, measured when a new state report arrives (migration 0005). */
export interface DeviceClockTable {
  device_id: string;
  last_report_time: string;
  /** Device clock − server time, seconds. */
  drift_seconds: number;
  measured_at: string;
  /** 1 when the device clock runs faster or slower than real time by more than half (a time-scaled simulator). */
  accelerated: Generated<number>;
}

/** A device model of the catalogue (spec §7 device-model); migration 0004. Images are relative paths. */
export interface DeviceModelsTable {
  model: string;
  name: string;
  main_image: string | null;
  /** JSON array of relative image paths, the main image first. */
  images_json: string;
  creation_time: string;
  /** JSON object {language: name} of the model's name per interface language; `name` for any other (migration 0026). */
  names_json: string | null;
}

export interface VerificationCodesTable {
  id: string;
  /** register | reset-password | change-identity | delete-account */
  purpose: string;
  /** Normalised e-mail or +countrycode phone. */
  target: string;
  code_hash: string;
  attempts: number;
  expires_at: string;
  consumed_at: string | null;
  created_at: string;
}

export interface RefreshTokensTable {
  id: string;
  user_id: string;
  /** SHA-256 of the opaque token; the token itself is never stored. */
  token_hash: string;
  expires_at: string;
  /** When the token was rotated (used once) or revoked; a rotated token presented again ends its session. */
  revoked_at: string | null;
  created_at: string;
  /** The session (refresh-token family) the token belongs to (migration 0016, which gave older rows one each). */
  session_id: string | null;
}

/**
 * One sign-in and everything issued from it (migration 0016): its refresh tokens (`session_id`)
 * and its access tokens (JWT claim `sid`). Ending it refuses all of them.
 */
export interface SessionsTable {
  id: string;
  user_id: string;
  created_at: string;
  ended_at: string | null;
  /** logout | replay | all (password change, reset or deletion) | migrated */
  ended_reason: string | null;
}

export interface OutboxTable {
  id: string;
  /** email | sms | push */
  channel: string;
  recipient: string;
  subject: string;
  body: string;
  created_at: string;
}

export interface Database
  extends MessagesTables,
    AfterSaleTables,
    ArticleTables,
    FilesTables,
    FirmwareTables,
    ActivationTables,
    IdempotencyTables,
    PreferencesTables,
    SaltTables {
  users: UsersTable;
  families: FamiliesTable;
  family_members: FamilyMembersTable;
  family_share_codes: FamilyShareCodesTable;
  devices: DevicesTable;
  device_state: DeviceStateTable;
  device_events: DeviceEventsTable;
  device_telemetry: DeviceTelemetryTable;
  device_commands: DeviceCommandsTable;
  device_models: DeviceModelsTable;
  device_water_hourly: DeviceWaterHourlyTable;
  device_water_daily: DeviceWaterDailyTable;
  device_salt: DeviceSaltTable;
  device_ota: DeviceOtaTable;
  device_clock: DeviceClockTable;
  verification_codes: VerificationCodesTable;
  refresh_tokens: RefreshTokensTable;
  sessions: SessionsTable;
  outbox: OutboxTable;
}
export type { Generated };
