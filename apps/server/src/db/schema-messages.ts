/** One message of one user (spec §3 Message; migration 0006). Title and content are in the recipient's language. */
export interface MessagesTable {
  id: string;
  user_id: string;
  /** 1 device alarm, 2 device notice, 3 announcement (contract MESSAGE_TYPES). */
  type: number;
  /** What a device message is about (contract MESSAGE_EVENTS); null for announcements. */
  event: string | null;
  title: string;
  content: string;
  device_id: string | null;
  device_name: string | null;
  family_id: string | null;
  /** System close reason 257/513/769/1025 for alarms that carry one. */
  close_reason: number | null;
  /** What produced the message, e.g. `event:{deviceId}:{eventId}`; unique per user (one message per member). */
  source_key: string;
  is_read: number;
  read_time: string | null;
  creation_time: string;
  /** Catalogue key of the title, translated at read time (migration 0015); null for announcements and old rows. */
  title_key?: string | null;
  /** Catalogue key of the content (migration 0015). */
  content_key?: string | null;
  /** JSON object of the keys' parameters, e.g. {"device":"Kitchen","days":3} (migration 0015). */
  params_json?: string | null;
  /** An announcement's texts per language, JSON {language: {title, content}} (migration 0015). */
  texts_json?: string | null;
}

/** One source of messages, written with them in one transaction; `published_at` = hub 2 and push claimed. */
export interface MessageSourcesTable {
  source_key: string;
  /** device-event | offline | salt-low | announcement | test | after-sale | family (migration 0022: was household) */
  kind: string;
  device_id: string | null;
  created_at: string;
  published_at: string | null;
}

/** A phone's JPush registration bound to a user (spec §7 app-device-binding); registration ids are unique. */
export interface PushRegistrationsTable {
  registration_id: string;
  user_id: string;
  /** android | ios | null (unknown) */
  platform: string | null;
  /**
   * SHA-256 (hex) of the installation id the app bound it with (migration 0017): the proof a move to another
   * user needs. Null when bound by an app that sent none.
   */
  installation_hash: string | null;
  created_at: string;
  updated_at: string;
}

/** A browser's standard Web Push subscription bound to a user. */
export interface WebPushSubscriptionsTable {
  endpoint: string;
  user_id: string;
  /** Base64url P-256 public key of the subscription. */
  p256dh: string;
  /** Base64url auth secret of the subscription. */
  auth: string;
  expiration_time: number | null;
  created_at: string;
  updated_at: string;
}

/** The push switch of spec §7 is_open_jpush__message; no row = on. */
export interface UserPushSettingsTable {
  user_id: string;
  is_open: number;
  updated_at: string;
}

/** The current offline period of a device, as the offline watcher sees it (one message per period). */
export interface DeviceOfflineWatchTable {
  device_id: string;
  /** Start of the offline period (ISO), never earlier than the watcher's own start. */
  offline_since: string;
  /** When the "offline" message was written for this period; null before. */
  notified_at: string | null;
}

/** Table types of the messages module (joined into {@link import("./schema.ts").Database}). */
export type MessagesTables = {
  messages: MessagesTable;
  message_sources: MessageSourcesTable;
  push_registrations: PushRegistrationsTable;
  web_push_subscriptions: WebPushSubscriptionsTable;
  user_push_settings: UserPushSettingsTable;
  device_offline_watch: DeviceOfflineWatchTable;
};
