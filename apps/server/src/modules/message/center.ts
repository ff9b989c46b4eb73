import { randomUUID } from "node:crypto";
import { type Language, MESSAGE_TYPES, type TMessage } from "@aquapilot/contract";
import { readSaltStatus } from "../statistics/index.ts";
import { MessageDelivery, type MessageDeliveryDeps, type MessageSource } from "./delivery.ts";
import { OfflineWatcher } from "./offline-watcher.ts";
import { asLanguage, catalogueTexts, presentMessage } from "./presenter.ts";
import { describeDeviceEvent, MESSAGE_EVENT_TYPES, SALT_LOW_MEANING, saltLowNotice } from "./rules.ts";

const MINUTE_MS = 60_000;

/** Options of {@link MessageCenter}. */
export interface MessageCenterDeps extends MessageDeliveryDeps {
  /** OFFLINE_MESSAGE_MINUTES: an offline period longer than this produces one "offline" message. */
  offlineMinutes: number;
}

/**
 * The message center (docs/messages-push.md): turns device events, offline periods, low salt and
 * announcements into messages — one per CURRENT member of the device's household (or per user), in that member's
 * language, all rows of one source in one transaction with a `message_sources` row — then publishes each on the bus
 * (`message.created`, which hub 2 sends as ReceiveMessage) and pushes it (JPush / Web Push / outbox).
 *
 * Idempotent by construction: a source key (`event:{deviceId}:{eventId}`, `offline:{deviceId}:{since}`,
 * `salt-low:{deviceId}:{refilledAt}`, `announcement:{uuid}`) is stored once and `(user_id, source_key)` is unique, so
 * redeliveries, concurrent gateways and crash repairs never duplicate a message. Delivery is claimed through
 * `message_sources.published_at`, so it happens once, and a source stored but never published (crash, or the
 * `announce` CLI) is published by the worker.
 *
 * It composes the module's parts: which messages a source produces (rules.ts), storing and delivering them
 * (delivery.ts `MessageDelivery`), the offline periods (offline-watcher.ts `OfflineWatcher`), and the wire shape
 * (presenter.ts).
 */
export class MessageCenter {
  private readonly delivery: MessageDelivery;
  private readonly offline: OfflineWatcher;

  private readonly deps: MessageCenterDeps;
  constructor(deps: MessageCenterDeps) {
    this.deps = deps;
    this.delivery = new MessageDelivery(deps);
    this.offline = new OfflineWatcher({
      db: deps.db,
      now: deps.now,
      offlineMinutes: deps.offlineMinutes,
      startedAt: deps.now(),
      delivery: this.delivery,
    });
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
      created += await this.delivery.storeForFamily(
        { key: `event:${deviceId}:${eventId}`, kind: "device-event", deviceId },
        meaning,
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
   * The offline watcher's check (offline-watcher.ts): a device (bound to a household) that has been offline for more
   * than `offlineMinutes` gets one "offline" alarm per offline period, never counting from before this process
   * started. Answers messages created.
   */
  checkOfflineDevices(): Promise<number> {
    return this.offline.check();
  }

  /**
   * Salt low (the salt forecast, modules/statistics/salt.ts): when the forecast says low, one "salt-low" notice per
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
    if (await this.delivery.sourceExists(key)) return 0;
    const notice = saltLowNotice(await readSaltStatus(this.deps.db, deviceId, this.deps.now(), "en"));
    if (!notice) return 0;
    return this.delivery.storeForFamily(
      { key, kind: "salt-low", deviceId },
      { ...SALT_LOW_MEANING },
      notice.params,
      notice.contentKey,
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
    const count = await this.delivery.store(
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
    await this.delivery.store(source, async (trx) => {
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
  publishPending(limit = 100): Promise<number> {
    return this.delivery.publishPending(limit);
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
  idle(): Promise<void> {
    return this.delivery.idle();
  }
}
