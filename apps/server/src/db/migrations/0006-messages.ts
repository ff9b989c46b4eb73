import type { Kysely } from "kysely";

/**
 * Schema changes: Messages, push registrations and the push switch (spec §3 Message, §7 push-service).
 * - `messages`: one row per recipient; `(user_id, source_key)` is unique, so a device event, an offline period, a
 *   refill's low-salt warning or an announcement produces exactly one message per member, whatever is redelivered.
 * - `message_sources`: one row per source (written in the same transaction as its messages); `published_at` marks the
 *   hub-2 delivery and push as claimed, so a crash between commit and delivery is repaired by the worker.
 * - `push_registrations` (JPush registrationId → user), `web_push_subscriptions`, `user_push_settings`
 *   (is_open_jpush__message), `device_offline_watch` (one offline period of a device).
 * - `device_events.progress`: the percent carried by "ota-progress"/"ota-failed", so OTA messages derive from the
 *   stored event alone.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("device_events").addColumn("progress", "double precision").execute();
  await db.schema
    .createTable("messages")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("type", "integer", (c) => c.notNull())
    .addColumn("event", "text")
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("content", "text", (c) => c.notNull())
    .addColumn("device_id", "text")
    .addColumn("device_name", "text")
    .addColumn("family_id", "text")
    .addColumn("close_reason", "integer")
    .addColumn("source_key", "text", (c) => c.notNull())
    .addColumn("is_read", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("read_time", "text")
    .addColumn("creation_time", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("messages_user_source_uq")
    .on("messages")
    .columns(["user_id", "source_key"])
    .unique()
    .execute();
  await db.schema.createIndex("messages_user_time_idx").on("messages").columns(["user_id", "creation_time"]).execute();
  await db.schema.createIndex("messages_source_idx").on("messages").column("source_key").execute();
  await db.schema
    .createTable("message_sources")
    .addColumn("source_key", "text", (c) => c.primaryKey())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("device_id", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("published_at", "text")
    .execute();
  await db.schema
    .createIndex("message_sources_published_idx")
    .on("message_sources")
    .columns(["published_at", "created_at"])
    .execute();
  await db.schema
    .createTable("push_registrations")
    .addColumn("registration_id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("platform", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("push_registrations_user_idx").on("push_registrations").column("user_id").execute();
  await db.schema
    .createTable("web_push_subscriptions")
    .addColumn("endpoint", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("p256dh", "text", (c) => c.notNull())
    .addColumn("auth", "text", (c) => c.notNull())
    .addColumn("expiration_time", "double precision")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("web_push_subscriptions_user_idx")
    .on("web_push_subscriptions")
    .column("user_id")
    .execute();
  await db.schema
    .createTable("user_push_settings")
    .addColumn("user_id", "text", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("is_open", "integer", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("device_offline_watch")
    .addColumn("device_id", "text", (c) => c.primaryKey().references("devices.id").onDelete("cascade"))
    .addColumn("offline_since", "text", (c) => c.notNull())
    .addColumn("notified_at", "text")
    .execute();
}

/** Reverts {@link up}. */
export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of [
    "device_offline_watch",
    "user_push_settings",
    "web_push_subscriptions",
    "push_registrations",
    "message_sources",
    "messages",
  ]) {
    await db.schema.dropTable(t).ifExists().execute();
  }
  await db.schema.alterTable("device_events").dropColumn("progress").execute();
}
