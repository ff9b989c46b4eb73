import { randomUUID } from "node:crypto";
import type { Transaction } from "kysely";
import type { Bus } from "../../bus.ts";
import type { Database, Db } from "../../db/index.ts";
import type { MessagesTable } from "../../db/schema-messages.ts";
import type { PushService } from "../push/index.ts";
import { asLanguage, catalogueTexts, presentMessage } from "./presenter.ts";
import { EVENT_TEXT_KEY, type MessageMeaning } from "./rules.ts";

/** Minimal logger of the message center. */
export interface MessageLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** What produced a set of messages; `key` is unique per recipient (messages_user_source_uq). */
export interface MessageSource {
  key: string;
  kind: "device-event" | "offline" | "salt-low" | "announcement" | "test" | "after-sale" | "family";
  deviceId: string | null;
}

/** One recipient's message before it is stored. */
export type MessageDraft = Omit<MessagesTable, "id" | "source_key" | "is_read" | "read_time" | "creation_time">;

/** Options of {@link MessageDelivery}. */
export interface MessageDeliveryDeps {
  db: Db;
  bus: Bus;
  push: PushService;
  now: () => Date;
  logger: MessageLogger;
}

/** Rows written per INSERT (keeps far below the bind-parameter limits of both engines). */
const INSERT_CHUNK = 200;

/**
 * How messages are stored and delivered (docs/messages-push.md): all rows of one source in one transaction
 * with a `message_sources` row, then each published on the bus (`message.created`, which hub 2 sends as
 * ReceiveMessage) and pushed (JPush / Web Push / outbox). Delivery is claimed through `message_sources.published_at`,
 * so it happens once even with several processes, and a source stored but never published (crash, or the `announce`
 * CLI) is published by {@link publishPending}.
 */
export class MessageDelivery {
  private readonly pending = new Set<Promise<unknown>>();

  private readonly deps: MessageDeliveryDeps;
  constructor(deps: MessageDeliveryDeps) {
    this.deps = deps;
  }

  /** Whether a source with this key has been stored already. */
  async sourceExists(key: string): Promise<boolean> {
    const row = await this.deps.db
      .selectFrom("message_sources")
      .select("source_key")
      .where("source_key", "=", key)
      .executeTakeFirst();
    return row !== undefined;
  }

  /**
   * One message per current member of the device's household (`source.deviceId`), titled and worded in each
   * member's language from the event's catalogue keys (`contentKey` replaces the event's content key), with
   * `params` and the device's name as parameters; stored and published like {@link store}. None when the device has
   * no household. Answers how many messages this call stored.
   */
  storeForFamily(
    source: MessageSource,
    meaning: MessageMeaning,
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
      const prefix = EVENT_TEXT_KEY[meaning.event];
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
  async store(
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
   * Claims the source's delivery (published_at) and, if this call won the claim, publishes each of its messages on
   * the bus (hub 2 → ReceiveMessage) and starts its push. Answers how many messages were published.
   */
  async publishSource(key: string): Promise<number> {
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

  /** Resolves when every push started so far has finished (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
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
 * {@link MessageDelivery} and by modules whose own write must commit together with its message (after-sales
 * answers). Answers how many messages were stored.
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
