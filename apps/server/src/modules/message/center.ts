import { randomUUID } from "node:crypto";
import {
  DEFAULT_LANGUAGE,
  isSystemCloseReason,
  LANGUAGES,
  type Language,
  MESSAGE_TYPES,
  SystemCloseReason,
  type TMessage,
  type TMessageEvent,
  type TMessageTypeValue,
} from "@aquapilot/contract";
import type { Transaction } from "kysely";
import type { Bus } from "../../bus.ts";
import type { Database, Db } from "../../db/index.ts";
import type { MessagesTable } from "../../db/schema-messages.ts";
import { translate } from "../../http/messages.ts";
import type { PushService } from "../push/index.ts";
import { readSaltStatus } from "../statistics/index.ts";

/** Minimal logger of the message center. */
export interface MessageLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** Device event types (contract ZMqttEvent) that can produce a message; the gateway hook skips the others. */
export const MESSAGE_EVENT_TYPES: readonly string[] = ["close", "regeneration-end", "ota-progress", "ota-failed"];

/** System close reason (spec §3) → message event. */
export const CLOSE_REASON_EVENTS: Readonly<Record<SystemCloseReason, TMessageEvent>> = {
  [SystemCloseReason.ValveButton]: "valve-button",
  [SystemCloseReason.LeakPointSignal]: "leak",
  [SystemCloseReason.ContinuousUseTooLong]: "continuous-use",
  [SystemCloseReason.ExcessiveInstantaneousFlow]: "excessive-flow",
};

/** Catalogue key prefix of each message event (messages.ts: `<prefix>.title`, `<prefix>.content`). */
const TEXT_KEY: Record<TMessageEvent, string> = {
  leak: "message.leak",
  "excessive-flow": "message.excessiveFlow",
  "continuous-use": "message.continuousUse",
  "valve-button": "message.valveButton",
  offline: "message.offline",
  "regeneration-finished": "message.regenerationFinished",
  "salt-low": "message.saltLow",
  "ota-finished": "message.otaFinished",
  "ota-failed": "message.otaFailed",
  "after-sale-answered": "message.afterSaleAnswered",
  "household-removed": "message.householdRemoved",
};

/** Rows written per INSERT (keeps far below the bind-parameter limits of both engines). */
const INSERT_CHUNK = 200;
const MINUTE_MS = 60_000;

/**
 * The stored texts of a message worded by the catalogue (issue 10: messages render in the reader's current
 * language): the title and content in `lang` for writing now, plus the keys and parameters that
 * {@link presentMessage} translates again at each read.
 */
export function catalogueTexts(
  lang: Language,
  titleKey: string,
  contentKey: string,
  params: Record<string, string | number> = {},
): Pick<MessagesTable, "title" | "content" | "title_key" | "content_key" | "params_json"> {
  return {
    title: translate(lang, titleKey, params),
    content: translate(lang, contentKey, params),
    title_key: titleKey,
    content_key: contentKey,
    params_json: JSON.stringify(params),
  };
}

/** The title and content of a stored message in `lang`: re-translated, the announcement's own text, or as stored. */
function textsIn(row: MessagesTable, lang: Language | undefined): { title: string; content: string } {
  if (lang && row.title_key && row.content_key) {
    let params: Record<string, string | number> = {};
    try {
      params = JSON.parse(row.params_json ?? "{}");
    } catch {
      // unreadable parameters: the keys alone still translate
    }
    return { title: translate(lang, row.title_key, params), content: translate(lang, row.content_key, params) };
  }
  if (lang && row.texts_json) {
    try {
      const texts = JSON.parse(row.texts_json) as Partial<Record<Language, { title?: string; content?: string }>>;
      const own = texts[lang];
      if (own?.title && own.content) return { title: own.title, content: own.content };
    } catch {
      // fall back to the stored text
    }
  }
  return { title: row.title, content: row.content };
}

/**
 * The wire shape (contract ZMessage) of a stored message row, worded in `lang` (the reader's current language) when
 * the row keeps its catalogue keys or an announcement has that language; else as stored.
 */
export function presentMessage(row: MessagesTable, lang?: Language): TMessage {
  return {
    id: row.id,
    type: row.type as TMessageTypeValue,
    ...textsIn(row, lang),
    isRead: row.is_read === 1,
    readTime: row.read_time,
    creationTime: row.creation_time,
    deviceId: row.device_id,
    deviceName: row.device_name,
    familyId: row.family_id,
    event: row.event as TMessageEvent | null,
    closeReason: row.close_reason,
  };
}

/** A stored users.language_type as a spec §1 language (unknown → zh-Hans, the default and fallback). */
export function asLanguage(value: string | null | undefined): Language {
  return (LANGUAGES as readonly string[]).includes(value ?? "") ? (value as Language) : DEFAULT_LANGUAGE;
}

/**
 * What a stored device event means for the owners, or null when it produces no message: "close" with a system close
 * reason → alarm (leak 513, excessive flow 1025, continuous use 769, valve button 257); "regeneration-end" →
 * regeneration finished; "ota-progress" at 100 % → firmware updated; "ota-failed" → firmware update failed.
 */
export function describeDeviceEvent(row: {
  type: string;
  close_reason: number | null;
  progress: number | null;
}): { event: TMessageEvent; type: TMessageTypeValue } | null {
  if (row.type === "close") {
    const event =
      row.close_reason !== null && isSystemCloseReason(row.close_reason)
        ? CLOSE_REASON_EVENTS[row.close_reason]
        : undefined;
    return event ? { event, type: MESSAGE_TYPES.deviceAlarm } : null;
  }
  if (row.type === "regeneration-end") return { event: "regeneration-finished", type: MESSAGE_TYPES.deviceNotice };
  if (row.type === "ota-progress" && (row.progress ?? 0) >= 100) {
    return { event: "ota-finished", type: MESSAGE_TYPES.deviceNotice };
  }
  if (row.type === "ota-failed") return { event: "ota-failed", type: MESSAGE_TYPES.deviceNotice };
  return null;
}

/** What produced a set of messages; `key` is unique per recipient (messages_user_source_uq). */
export interface MessageSource {
  key: string;
  kind: "device-event" | "offline" | "salt-low" | "announcement" | "test" | "after-sale" | "household";
  deviceId: string | null;
}

/** One recipient's message before it is stored. */
export type MessageDraft = Omit<MessagesTable, "id" | "source_key" | "is_read" | "read_time" | "creation_time">;

/** Options of {@link MessageCenter}. */
export interface MessageCenterDeps {
  db: Db;
  bus: Bus;
  push: PushService;
  /** OFFLINE_MESSAGE_MINUTES: an offline period longer than this produces one "offline" message. */
  offlineMinutes: number;
  now: () => Date;
  logger: MessageLogger;
}

/**
 * The message center (issue 5; docs/messages-push.md): turns device events, offline periods, low salt and
 * announcements into messages — one per CURRENT member of the device's household (or per user), in that member's
 * language, all rows of one source in one transaction with a `message_sources` row — then publishes each on the bus
 * (`message.created`, which hub 2 sends as ReceiveMessage) and pushes it (JPush / Web Push / outbox).
 *
 * Idempotent by construction: a source key (`event:{deviceId}:{eventId}`, `offline:{deviceId}:{since}`,
 * `salt-low:{deviceId}:{refilledAt}`, `announcement:{uuid}`) is stored once and `(user_id, source_key)` is unique, so
 * redeliveries, concurrent gateways and crash repairs never duplicate a message. Delivery is claimed through
 * `message_sources.published_at`, so it happens once, and a source stored but never published (crash, or the
 * `announce` CLI) is published by the worker.
 */
export class MessageCenter {
  private readonly pending = new Set<Promise<unknown>>();
  private readonly startedAt: Date;

  private readonly deps: MessageCenterDeps;
  constructor(deps: MessageCenterDeps) {
    this.deps = deps;
    this.startedAt = deps.now();
  }

  // ---------- sources ----------

  /**
   * Derives the messages of one stored device event (device_events row) for every current member of the device's
   * household, then publishes and pushes them. A "regeneration-end" also checks the salt forecast. Safe to call any
   * number of times for the same event (redelivery, sweep, several gateways): answers how many messages were created
   * by this call (0 on repeats, for event types that produce none, and for devices without a household).
   */
  async fromDeviceEvent(deviceId: string, eventId: string): Promise<number> {
    const row = await this.deps.db
      .selectFrom("device_events")
      .select(["id", "type", "close_reason", "progress"])
      .where("device_id", "=", deviceId)
      .where("id", "=", eventId)
      .executeTakeFirst();
    if (!row) return 0;
    let created = 0;
    const meaning = describeDeviceEvent(row);
    if (meaning) {
      created += await this.storeForHousehold(
        { key: `event:${deviceId}:${eventId}`, kind: "device-event", deviceId },
        { ...meaning, closeReason: meaning.type === MESSAGE_TYPES.deviceAlarm ? row.close_reason : null },
        { progress: Math.round(row.progress ?? 0) },
      );
    }
    if (row.type === "regeneration-end") created += await this.checkSalt(deviceId);
    return created;
  }

  /**
   * Crash repair: derives the messages of device events received in the last `windowMs` (and at least `minAgeMs`
   * ago, so events still in the gateway's hands are left to it) whose source was never stored. Answers how many
   * messages were created.
   */
  async sweepDeviceEvents(windowMs: number, minAgeMs = 0): Promise<number> {
    const now = this.deps.now().getTime();
    const events = await this.deps.db
      .selectFrom("device_events")
      .select(["device_id", "id"])
      .where("received_at", ">=", new Date(now - windowMs).toISOString())
      .where("received_at", "<=", new Date(now - minAgeMs).toISOString())
      .where("type", "in", [...MESSAGE_EVENT_TYPES])
      .orderBy("received_at")
      .limit(5000)
      .execute();
    if (events.length === 0) return 0;
    const done = new Set<string>();
    const keys = events.map((e) => `event:${e.device_id}:${e.id}`);
    for (let i = 0; i < keys.length; i += 500) {
      const rows = await this.deps.db
        .selectFrom("message_sources")
        .select("source_key")
        .where("source_key", "in", keys.slice(i, i + 500))
        .execute();
      for (const r of rows) done.add(r.source_key);
    }
    let created = 0;
    for (const e of events) {
      if (!done.has(`event:${e.device_id}:${e.id}`)) created += await this.fromDeviceEvent(e.device_id, e.id);
    }
    return created;
  }

  /**
   * The offline watcher's check: a device (bound to a household) that has been offline for more than
   * `offlineMinutes` gets one "offline" alarm per offline period. A period starts when the watcher first sees the
   * device offline (at the time of its last status change, but never before this process started, so a restart of
   * the server does not raise false alarms) and ends when the device is seen online. Answers messages created.
   */
  async checkOfflineDevices(): Promise<number> {
    const { db } = this.deps;
    const now = this.deps.now();
    await db
      .deleteFrom("device_offline_watch")
      .where("device_id", "in", db.selectFrom("device_state").select("device_id").where("online", "=", 1))
      .execute();
    const rows = await db
      .selectFrom("device_state")
      .innerJoin("devices", "devices.id", "device_state.device_id")
      .leftJoin("device_offline_watch", "device_offline_watch.device_id", "device_state.device_id")
      .select([
        "device_state.device_id",
        "device_state.updated_at",
        "device_offline_watch.offline_since",
        "device_offline_watch.notified_at",
      ])
      .where("device_state.online", "=", 0)
      .where("devices.family_id", "is not", null)
      .execute();
    let created = 0;
    for (const r of rows) {
      let since = r.offline_since;
      if (since === null) {
        const start = Math.max(Date.parse(r.updated_at) || 0, this.startedAt.getTime());
        await db
          .insertInto("device_offline_watch")
          .values({ device_id: r.device_id, offline_since: new Date(start).toISOString(), notified_at: null })
          .onConflict((oc) => oc.column("device_id").doNothing())
          .execute();
        const watch = await db
          .selectFrom("device_offline_watch")
          .select(["offline_since", "notified_at"])
          .where("device_id", "=", r.device_id)
          .executeTakeFirst();
        if (!watch || watch.notified_at) continue;
        since = watch.offline_since;
      } else if (r.notified_at) {
        continue;
      }
      if (now.getTime() - Date.parse(since) <= this.deps.offlineMinutes * MINUTE_MS) continue;
      created += await this.storeForHousehold(
        { key: `offline:${r.device_id}:${since}`, kind: "offline", deviceId: r.device_id },
        { event: "offline", type: MESSAGE_TYPES.deviceAlarm, closeReason: null },
        { minutes: this.deps.offlineMinutes },
      );
      await db
        .updateTable("device_offline_watch")
        .set({ notified_at: now.toISOString() })
        .where("device_id", "=", r.device_id)
        .where("offline_since", "=", since)
        .execute();
    }
    return created;
  }

  /**
   * Salt low (issue 4 forecast, modules/statistics/salt.ts): when the forecast says low, one "salt-low" notice per
   * refill (source `salt-low:{deviceId}:{refilledAt}`). Nothing before the owner has set a level. Answers messages
   * created.
   */
  async checkSalt(deviceId: string): Promise<number> {
    const salt = await this.deps.db
      .selectFrom("device_salt")
      .select("refilled_at")
      .where("device_id", "=", deviceId)
      .executeTakeFirst();
    if (!salt) return 0;
    const key = `salt-low:${deviceId}:${salt.refilled_at}`;
    if (await this.sourceExists(key)) return 0;
    const status = await readSaltStatus(this.deps.db, deviceId, this.deps.now(), "en");
    if (!status.lowSalt) return 0;
    const empty = status.saltDaysLeft === null || (status.saltLevelKg ?? 0) < (status.saltPerRegenerationKg ?? 0);
    return this.storeForHousehold(
      { key, kind: "salt-low", deviceId },
      { event: "salt-low", type: MESSAGE_TYPES.deviceNotice, closeReason: null },
      { days: status.saltDaysLeft ?? 0 },
      empty ? "message.saltEmpty.content" : undefined,
    );
  }

  /**
   * A platform announcement (type 3) with the operator's title and content, to every active user or to `userIds`.
   * `publish: false` stores it for the running server's worker to deliver (the `announce` CLI runs in another
   * process). Answers the source key and how many messages were stored.
   */
  async announce(
    input: {
      title: string;
      content: string;
      userIds?: string[];
      /** The same announcement in other languages; each reader gets theirs, else `title`/`content`. */
      texts?: Partial<Record<Language, { title: string; content: string }>>;
    },
    opts: { publish?: boolean } = {},
  ): Promise<{ sourceKey: string; count: number }> {
    const source: MessageSource = { key: `announcement:${randomUUID()}`, kind: "announcement", deviceId: null };
    const count = await this.store(
      source,
      async (trx) => {
        let q = trx.selectFrom("users").select("id").where("is_deleted", "=", 0);
        if (input.userIds) {
          if (input.userIds.length === 0) return [];
          q = q.where("id", "in", input.userIds);
        }
        return (await q.execute()).map((u) => ({
          user_id: u.id,
          type: MESSAGE_TYPES.announcement,
          event: null,
          title: input.title,
          content: input.content,
          texts_json: input.texts ? JSON.stringify(input.texts) : null,
          device_id: null,
          device_name: null,
          family_id: null,
          close_reason: null,
        }));
      },
      opts.publish ?? true,
    );
    return { sourceKey: source.key, count };
  }

  /** test-send-message (spec §7): a test announcement to `userId` only, in the user's language; answers it. */
  async sendTest(userId: string): Promise<TMessage> {
    const source: MessageSource = { key: `test:${randomUUID()}`, kind: "test", deviceId: null };
    await this.store(source, async (trx) => {
      const user = await trx
        .selectFrom("users")
        .select(["id", "language_type"])
        .where("id", "=", userId)
        .executeTakeFirstOrThrow();
      const lang = asLanguage(user.language_type);
      return [
        {
          user_id: user.id,
          type: MESSAGE_TYPES.announcement,
          event: null,
          ...catalogueTexts(lang, "message.test.title", "message.test.content"),
          device_id: null,
          device_name: null,
          family_id: null,
          close_reason: null,
        },
      ];
    });
    const row = await this.deps.db
      .selectFrom("messages")
      .selectAll()
      .where("source_key", "=", source.key)
      .executeTakeFirstOrThrow();
    return presentMessage(row);
  }

  // ---------- delivery ----------

  /**
   * Publishes sources stored but never published (a crash between commit and delivery, or the `announce` CLI),
   * oldest first, at most `limit`. Answers how many messages were published.
   */
  async publishPending(limit = 100): Promise<number> {
    const rows = await this.deps.db
      .selectFrom("message_sources")
      .select("source_key")
      .where("published_at", "is", null)
      .orderBy("created_at")
      .limit(limit)
      .execute();
    let published = 0;
    for (const r of rows) published += await this.publishSource(r.source_key);
    return published;
  }

  /**
   * Starts the background work: every `intervalMs` (default 5 s) publishes pending sources; every `checkEveryMs`
   * (default 60 s, and once at start) repairs missed device events (24 h window at start, 15 min after) and runs the
   * offline check. Answers the stop function, which waits for the running pass and pending pushes.
   */
  startWorker(opts: { intervalMs?: number; checkEveryMs?: number } = {}): () => Promise<void> {
    const intervalMs = opts.intervalMs ?? 5_000;
    const checkEveryMs = opts.checkEveryMs ?? 60_000;
    let lastCheck = 0;
    let first = true;
    let running: Promise<void> | null = null;
    let stopped = false;
    const pass = async () => {
      await this.publishPending();
      if (first || Date.now() - lastCheck >= checkEveryMs) {
        await this.sweepDeviceEvents(first ? 24 * 60 * MINUTE_MS : 15 * MINUTE_MS, first ? 0 : 30_000);
        await this.checkOfflineDevices();
        lastCheck = Date.now();
        first = false;
      }
    };
    const run = () => {
      if (running || stopped) return;
      running = pass()
        .catch((err: Error) => this.deps.logger.error({ err: err.message }, "message worker pass failed"))
        .finally(() => {
          running = null;
        });
    };
    const timer = setInterval(run, intervalMs);
    timer.unref();
    run();
    return async () => {
      stopped = true;
      clearInterval(timer);
      await running;
      await this.idle();
    };
  }

  /** Resolves when every push started so far has finished (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  // ---------- internals ----------

  private async sourceExists(key: string): Promise<boolean> {
    const row = await this.deps.db
      .selectFrom("message_sources")
      .select("source_key")
      .where("source_key", "=", key)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** One message per current member of the device's household, titled and worded in each member's language. */
  private storeForHousehold(
    source: MessageSource,
    meaning: { event: TMessageEvent; type: TMessageTypeValue; closeReason: number | null },
    params: Record<string, string | number>,
    contentKey?: string,
  ): Promise<number> {
    return this.store(source, async (trx) => {
      const device = await trx
        .selectFrom("devices")
        .select(["id", "name", "family_id"])
        .where("id", "=", source.deviceId ?? "")
        .executeTakeFirst();
      if (!device?.family_id) return [];
      const members = await trx
        .selectFrom("family_members")
        .innerJoin("users", "users.id", "family_members.user_id")
        .select(["users.id", "users.language_type"])
        .where("family_members.family_id", "=", device.family_id)
        .where("users.is_deleted", "=", 0)
        .execute();
      const prefix = TEXT_KEY[meaning.event];
      return members.map((m) => {
        const lang = asLanguage(m.language_type);
        const values = { device: device.name, ...params };
        return {
          user_id: m.id,
          type: meaning.type,
          event: meaning.event,
          ...catalogueTexts(lang, `${prefix}.title`, contentKey ?? `${prefix}.content`, values),
          device_id: device.id,
          device_name: device.name,
          family_id: device.family_id,
          close_reason: meaning.closeReason,
        };
      });
    });
  }

  /**
   * Stores a source and its messages in one transaction (nothing when the source exists already), then — when
   * `publish` — publishes them. Answers how many messages this call stored.
   */
  private async store(
    source: MessageSource,
    build: (trx: Transaction<Database>) => Promise<MessageDraft[]>,
    publish = true,
  ): Promise<number> {
    const now = this.deps.now().toISOString();
    const stored = await this.deps.db
      .transaction()
      .execute(async (trx) => insertSourceMessages(trx, source, build, now));
    if (stored > 0) this.deps.logger.info({ source: source.key, count: stored }, "messages stored");
    if (publish) await this.publishSource(source.key);
    return stored;
  }

  /**
   * Claims the source's delivery (published_at) and, if this call won the claim, publishes each of its messages on
   * the bus (hub 2 → ReceiveMessage) and starts its push. Answers how many messages were published.
   */
  private async publishSource(key: string): Promise<number> {
    const claim = await this.deps.db
      .updateTable("message_sources")
      .set({ published_at: this.deps.now().toISOString() })
      .where("source_key", "=", key)
      .where("published_at", "is", null)
      .executeTakeFirst();
    if (Number(claim.numUpdatedRows) === 0) return 0;
    const rows = await this.deps.db
      .selectFrom("messages")
      .innerJoin("users", "users.id", "messages.user_id")
      .selectAll("messages")
      .select("users.language_type")
      .where("messages.source_key", "=", key)
      .execute();
    for (const row of rows) {
      // Hub 2 and push speak the recipient's language as last chosen; lists re-translate at each read.
      const message = presentMessage(row, asLanguage(row.language_type));
      try {
        this.deps.bus.publish({ type: "message.created", userId: row.user_id, message });
      } catch (err) {
        this.deps.logger.warn({ err: (err as Error).message, source: key }, "message publish failed");
      }
      this.track(
        this.deps.push
          .deliver(row.user_id, message)
          .catch((err: Error) => this.deps.logger.warn({ err: err.message, messageId: row.id }, "push failed")),
      );
    }
    return rows.length;
  }

  private track(p: Promise<unknown>): void {
    this.pending.add(p);
    void p.finally(() => this.pending.delete(p));
  }
}

/**
 * Stores a message source and its messages inside the caller's transaction `trx` (nothing when the source key exists
 * already; `(user_id, source_key)` stays unique), unpublished: the message worker of the running server publishes
 * them (hub 2, push) within seconds. `build` gives the recipients' drafts; `now` is the ISO creation time. Used by
 * {@link MessageCenter} and by modules whose own write must commit together with its message (after-sales answers).
 * Answers how many messages were stored.
 */
export async function insertSourceMessages(
  trx: Transaction<Database>,
  source: MessageSource,
  build: (trx: Transaction<Database>) => Promise<MessageDraft[]>,
  now: string,
): Promise<number> {
  const claimed = await trx
    .insertInto("message_sources")
    .values({
      source_key: source.key,
      kind: source.kind,
      device_id: source.deviceId,
      created_at: now,
      published_at: null,
    })
    .onConflict((oc) => oc.column("source_key").doNothing())
    .executeTakeFirst();
  if (Number(claimed.numInsertedOrUpdatedRows ?? 0) === 0) return 0;
  const drafts = await build(trx);
  let count = 0;
  for (let i = 0; i < drafts.length; i += INSERT_CHUNK) {
    const r = await trx
      .insertInto("messages")
      .values(
        drafts.slice(i, i + INSERT_CHUNK).map((d) => ({
          ...d,
          id: randomUUID(),
          source_key: source.key,
          is_read: 0,
          read_time: null,
          creation_time: now,
        })),
      )
      .onConflict((oc) => oc.columns(["user_id", "source_key"]).doNothing())
      .executeTakeFirst();
    count += Number(r.numInsertedOrUpdatedRows ?? 0);
  }
  return count;
}
