/**
 * Plain values of the wire (spec §3, §6, §7): paths, names, units and limits that both sides need at run time. No zod
 * here: the web app imports these (through `@aquapilot/contract/wire`) on its first screen without loading a schema,
 * so a phone opens the app fast. The schemas that use these values import them from here.
 */

// ---------- OAuth token endpoint and permissions (spec §6, §7) ----------

export const TOKEN_PATH = "/connect/token";

/** Permission names carried in grantedPolicies (spec §6). A device master holds every one; only a master holds "master". */
export const PERMISSIONS = {
  master: "master",
  familyManage: "Family.Manage",
  deviceView: "Device.View",
  deviceControl: "Device.Control",
  deviceSetting: "Device.Setting",
  message: "Message",
  afterSale: "AfterSale",
} as const;

export type Permission = (typeof PERMISSIONS)[keyof typeof PERMISSIONS];

// ---------- Accounts (spec §7) ----------

/** OAuth 2.0 token revocation (RFC 7009): form body; answers 200 with an empty body whatever the token. */
export const REVOCATION_PATH = "/connect/revocation";

/**
 * Why a refresh token's session ended, as the token endpoint names it when it refuses the token (an extension
 * parameter of the RFC 6749 §5.2 error answer, which clients that do not know it ignore): `logout` (revoked at
 * `/connect/revocation`), `password-changed` (changed while signed in, on this or another phone), `password-reset`
 * (reset with a code), `account-deleted`. The app tells the owner why they must sign in again. A session ended because a spent refresh
 * token came back (a copy is in other hands) is not named: its holder learns nothing more than "invalid".
 */
export const TOKEN_ENDED_REASONS = ["logout", "password-changed", "password-reset", "account-deleted"] as const;
export type TTokenEndedReason = (typeof TOKEN_ENDED_REASONS)[number];

// ---------- Device control and statistics export (spec §7) ----------

/**
 * The low-salt reminder setting: "remind me when salt runs out within N days",
 * a whole number of days from `min` to `max`; `default` until a member changes it.
 */
export const SALT_REMINDER_DAYS = { min: 1, max: 30, default: 7 } as const;

/** Path of the CSV export (extension, not enveloped): Q deviceId, from, to, granularity raw|hourly. */
export const DEVICE_FLOW_STATISTICS_CSV_PATH = "/api/run-lucky/device/app/device/device-flow-statistics/export.csv";

/**
 * Response header of the CSV export: how many data rows (header line not counted) matched when the export began.
 * The body is streamed without a Content-Length, so this is what a progress bar can count against; rows arriving
 * while it streams may make the body a little longer.
 */
export const CSV_TOTAL_ROWS_HEADER = "X-Total-Rows";

// ---------- Device settings (spec §3) ----------

/** The 26 advanced settings of spec §3, in the spec's order (wire names verbatim). */
export const ADVANCED_SETTING_NAMES = [
  "absorbSaltMode",
  "absorbSaltSlowWashTime",
  "backWashIntervalNumber",
  "backWashTime",
  "continuousWaterTime",
  "currentTime",
  "deviceTimeScheme",
  "filterMaterialWorkingDay",
  "flowRateOff",
  "language",
  "maximumRegenerationIntervalDay",
  "operationDay",
  "outRelayMode",
  "periodicWaterProduction",
  "periodicWaterProductionUnit",
  "rawWaterHardness",
  "regeneratingTriggerTime",
  "regenerationAlarmNumber",
  "resinVolume",
  "saltAddition",
  "saltTankRefillTime",
  "washInitiationTime",
  "washTime",
  "washingIncreaseNumber",
  "waterVolumeUnit",
  "workPattern",
] as const;

export type AdvancedSettingName = (typeof ADVANCED_SETTING_NAMES)[number];

// ---------- File uploads (spec §7) ----------

/** Upload path: POST multipart/form-data with one part named `file` (JPEG, PNG or WebP, at most 5 MB). */
export const FILE_UPLOAD_PATH = "/api/app/file/upload";

/** Largest accepted upload, in bytes. */
export const FILE_UPLOAD_MAX_BYTES = 5 * 1024 * 1024;

/** Accepted image types (checked from the file's first bytes, not only the declared type). */
export const FILE_UPLOAD_TYPES = ["image/jpeg", "image/png", "image/webp"] as const;

/** Where uploaded files are served: `/uploads/files/<random>.<ext>`. */
export const FILE_UPLOAD_PREFIX = "/uploads/files/";

/** Where uploaded profile pictures are served (profile/avatar): `/uploads/avatars/<random>.<ext>`. */
export const AVATAR_UPLOAD_PREFIX = "/uploads/avatars/";

/** The household pictures shipped with the web app (apps/web/public/family-avatars), as avatar paths. */
export const FAMILY_AVATAR_PRESETS: readonly string[] = Array.from(
  { length: 8 },
  (_, i) => `/family-avatars/${i + 1}.svg`,
);

// ---------- Messages (spec §3) ----------

/**
 * Message types: 1 device alarm (a system close: leak 513, excessive flow 1025, continuous use 769, valve button 257,
 * offline too long), 2 device notice (regeneration finished, salt low, firmware update finished or failed),
 * 3 platform announcement (operator `npm run announce`, `test-send-message`).
 */
export const MESSAGE_TYPES = { deviceAlarm: 1, deviceNotice: 2, announcement: 3 } as const;

// ---------- Units ----------

/**
 * Volume units the owner can choose: litres or US gallons (1 US gal = 3.785411784 L). Flows follow: L/min or gal/min.
 * Devices always receive litres (docs/device-protocol.md §9).
 */
export const VOLUME_UNITS = ["L", "gal"] as const;

export type VolumeUnit = (typeof VOLUME_UNITS)[number];

/**
 * Water hardness units the owner can choose: mg/L as CaCO₃ (the device's own unit), German degrees °dH
 * (1 °dH = 17.848 mg/L), French degrees °fH (1 °fH = 10 mg/L) or grains per US gallon (1 gpg = 17.118 mg/L).
 */
export const HARDNESS_UNITS = ["mgL", "dH", "fH", "gpg"] as const;

export type HardnessUnit = (typeof HARDNESS_UNITS)[number];

/** The units of a user who never chose: the device's own (litres, mg/L CaCO₃). */
export const DEFAULT_UNIT_PREFERENCES: { volumeUnit: VolumeUnit; hardnessUnit: HardnessUnit } = {
  volumeUnit: "L",
  hardnessUnit: "mgL",
};

// ---------- Envelope and errors (spec §7, §8) ----------

/** Stable error codes the server puts in `error.code`. */
export const ErrorCode = {
  Validation: "Validation",
  Unauthorized: "Unauthorized",
  Forbidden: "Forbidden",
  NotFound: "NotFound",
  Conflict: "Conflict",
  TooManyRequests: "TooManyRequests",
  InvalidCode: "InvalidCode",
  DeviceOffline: "DeviceOffline",
  Internal: "Internal",
} as const;

export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/**
 * Request header carrying the phone's IANA time zone (e.g. "Europe/Paris"), sent by the app on every call, so
 * every day the owner sees is their local day: the server cuts "today", day, week and month buckets at the owner's
 * local midnight with it. Absent or unknown → UTC.
 */
export const TIME_ZONE_HEADER = "X-Time-Zone";

/** Largest `skipCount` of a paged list query (every number a client sends is bounded; no list is this long). */
export const MAX_SKIP_COUNT = 1_000_000;

// ---------- Real-time hubs (spec §7) ----------

/**
 * Real-time hub constants (spec §7 "Real-time hub 1/2").
 * Paths and method names are the wire of existing apps: keep their spelling.
 */
export const HUB_PATHS = {
  deviceChange: "/signalr-hubs/device-chang-content-type-message",
  message: "/signalr-hubs/message",
} as const;

export const HUB_METHODS = {
  /** Hub 1: a device's state changed; the argument is a JSON string of {@link ZDeviceChangeMessage}. */
  deviceChange: "DeviceChangContentTypeMessage",
  /** Hub 2: a new message for the user. */
  receiveMessage: "ReceiveMessage",
  /**
   * Hub 1, beside `DeviceChangContentTypeMessage` (an addition: clients that do not listen for it are unaffected):
   * something a member or a user sees changed; the argument is one {@link ZDomainEvent} object (docs/messages-push.md
   * "Domain events").
   */
  domainEvent: "DomainEvent",
} as const;

/**
 * What a domain event (hub 1 `DomainEvent`) says changed. Each kind names the data a screen shows, so the app knows
 * which of its cached reads to fetch again:
 * - `family`: a household's own fields (name, avatar, address), or the household was created or deleted;
 * - `family-devices`: which devices a household holds, or their order (a device added, removed, sorted);
 * - `device`: one device's fields or settings (name, image, vacation, a forced command done, salt, configuration, a
 *   fault cleared);
 * - `member`: who belongs to a household, or who administers it (joined, left, removed, administrator transferred);
 * - `settings`: one user's own settings and profile (units, push switch, language, name, avatar, phone, e-mail);
 * - `message-read`: one user's messages read (on another phone of theirs);
 * - `share-codes`: one user's household share codes;
 * - `after-sale`: one user's after-sales requests.
 */
export const DOMAIN_EVENT_KINDS = [
  "family",
  "family-devices",
  "device",
  "member",
  "settings",
  "message-read",
  "share-codes",
  "after-sale",
] as const;
/** One of {@link DOMAIN_EVENT_KINDS}. */
export type DomainEventKind = (typeof DOMAIN_EVENT_KINDS)[number];

/**
 * `error` texts of hub Close messages the app reacts to: the server names why it closed, so the app can act at once
 * (read its households again, or go to Login). The official client surfaces them as
 * `Error("Server returned an error on close: <text>")` to `onreconnecting` (allowReconnect: true) or `onclose`.
 */
export const HUB_CLOSE_ERRORS = {
  /**
   * Hub 1: the user no longer belongs to a household this connection delivered (removed, left, household deleted).
   * Sent with allowReconnect: true — the reconnected connection carries the user's remaining households; the app
   * reads its household list again.
   */
  familyAccessEnded: "Access to a household has ended.",
  /**
   * Hubs 1 and 2: every session of the user ended (password changed or reset, account deleted). Sent with
   * allowReconnect: false; the app asks the token endpoint, whose refusal says why, and goes to Login saying it.
   */
  accessEnded: "The user's access has ended.",
  /** Hubs 1 and 2: this sign-in ended (signed out elsewhere, a replayed refresh token); allowReconnect: false. */
  sessionEnded: "The session has ended.",
} as const;

// ---------- Development bridge ----------

/**
 * The development bridge (docs/device-protocol.md §13.6): what a native shell does for the old
 * (access point) setup — read the phone's Wi-Fi, join and leave the module's access point, send the join packet,
 * discover on the home network — done by the server on loopback against the simulator, so the flow can be tried in a
 * browser with `npm start`. Mounted only when APP_ENV is not production (like /dev/factory); the UDP targets are the
 * configured simulator ports, never an address from the request. Plain JSON.
 *
 * The native bridge (window.AquaPilotNative) offers the same operations with the same result shapes.
 */
export const DEV_BRIDGE_PATHS = {
  /** GET → {@link ZPhoneWifi}: the simulated phone's current network. */
  wifi: "/dev/bridge/wifi",
  /** GET → {@link ZWifiNetworkList}: networks in range (the phone's Wi-Fi settings list). */
  networks: "/dev/bridge/wifi/networks",
  /** POST {@link ZWifiSelect} → {@link ZPhoneWifi}: the phone joins a home network (its Wi-Fi settings). */
  select: "/dev/bridge/wifi/select",
  /** POST {@link ZJoinAccessPoint} → {@link ZJoinAccessPointResult}. */
  joinAccessPoint: "/dev/bridge/ap/join",
  /** POST → {@link ZPhoneWifi}: back to the home network. */
  leaveAccessPoint: "/dev/bridge/ap/leave",
  /** POST {@link ZSendJoinPacket} → {@link ZSendJoinPacketResult}. */
  sendJoinPacket: "/dev/bridge/udp/join",
  /** POST {@link ZDiscover} → {@link ZDiscoverResult}. */
  discover: "/dev/bridge/udp/discover",
} as const;

/** Wi-Fi bands a phone reports. */
export const WIFI_BANDS = ["2.4GHz", "5GHz"] as const;

// ---------- Setup tickets ----------

/**
 * A setup ticket (docs/device-protocol.md §13.4 "Setup tickets"): 16 random bytes, base64url without padding, so
 * exactly 22 characters of `A–Z a–z 0–9 - _`. The app creates one before network setup, hands it to the module, the
 * module sends it with activation step two, and the app reads the outcome from the cloud with it.
 */
export const SETUP_TICKET_PATTERN = /^[A-Za-z0-9_-]{22}$/;

/** What a setup ticket says: no module activated with it yet, a module did, or it expired unused. */
export const SETUP_TICKET_STATES = ["waiting", "activated", "expired"] as const;
export type SetupTicketState = (typeof SETUP_TICKET_STATES)[number];
