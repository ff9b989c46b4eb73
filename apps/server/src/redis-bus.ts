import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import type { Bus, BusEvent } from "./bus.ts";

/** The Redis pub/sub channel every server process publishes its bus events on (docs/deploy.md). */
export const REDIS_BUS_CHANNEL = "aquapilot:bus:v1";

/**
 * Event types a process accepts from the channel; anything else is dropped with a warning. A record over
 * `BusEvent["type"]`, so a new event type cannot be left out.
 */
const EVENT_TYPES = new Set<string>(
  Object.keys({
    "device.changed": true,
    "user.revoked": true,
    "user.changed": true,
    "session.ended": true,
    "family.members-changed": true,
    "family.devices-changed": true,
    "message.created": true,
    "domain.event": true,
    "gateway.alive": true,
    "gateway.leaving": true,
    "device.provisioned": true,
  } satisfies Record<BusEvent["type"], true>),
);

/** What {@link RedisBus} logs through (pino's shape; a Fastify or pino logger fits). */
export interface RedisBusLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** Options of {@link RedisBus}. */
export interface RedisBusOptions {
  /** redis:// or rediss:// URL (config REDIS_URL); its password is never logged. */
  url: string;
  logger: RedisBusLogger;
  /** Channel name; default {@link REDIS_BUS_CHANNEL}. Processes that share events must use the same one. */
  channel?: string;
  /**
   * Most publishes waiting for Redis (sent and unanswered, or queued while it is away) before further events are
   * dropped, each drop counted and logged once per outage. Bounds memory during a long outage. Default 10 000.
   */
  maxPending?: number;
}

/** One message on the channel: the publishing process's id and the event. */
interface Envelope {
  o: string;
  e: BusEvent;
}

/**
 * The URL as it may appear in a log line: scheme, host, port and database, never the user name or password
 * (`redis://:***@host:6379/0`).
 */
export function redactRedisUrl(url: string): string {
  if (!URL.canParse(url)) return "(unparsable REDIS_URL)";
  const u = new URL(url);
  if (u.username) u.username = "***";
  if (u.password) u.password = "***";
  return u.toString();
}

/** Ends an ioredis connection: QUIT when it is up (answered within 1 s, else cut), a plain disconnect otherwise. */
async function endConnection(redis: Redis): Promise<void> {
  if (redis.status === "ready") {
    const timer = new Promise<void>((resolve) => setTimeout(resolve, 1_000).unref());
    await Promise.race([redis.quit().catch(() => undefined), timer]);
  }
  redis.disconnect();
}

/**
 * The bus of N server processes (the Redis backplane, docs/deploy.md): every event goes to this process's
 * subscribers synchronously (as {@link InProcessBus} does) and, as JSON `{o: processId, e: event}`, to one Redis
 * pub/sub channel; each process delivers the channel's events of other processes to its subscribers and skips its
 * own echo, so every subscriber of every process receives each event exactly once, in each publisher's order.
 *
 * Two ioredis connections: one publishes (and may run other commands: {@link RedisBus.commands}), one is in
 * subscriber mode. ioredis reconnects after an outage or a Redis restart and subscribes again; the first error of an
 * outage is logged at warn (the error's message and the URL without its password), the reconnection at info.
 * Events published while the publishing connection is away are queued (at most `maxPending`) and sent once it is
 * back; events another process published while this process's subscriber was away are lost to this process (pub/sub
 * keeps nothing): {@link RedisBus.onResume} tells when the subscriber listens again after such a gap, so the hubs can
 * have their clients reconnect and re-read (system.ts, docs/deploy.md).
 *
 * A subscriber that throws is logged and never stops the others or the publisher.
 */
export class RedisBus implements Bus {
  /** Every server process on the same Redis channel hears this bus. */
  readonly crossProcess = true;
  /** This process's id in the envelopes (random per bus). */
  readonly processId = randomBytes(8).toString("base64url");
  /** The publishing connection; other modules may run their own commands on it (it is closed with the bus). */
  readonly commands: Redis;
  private readonly subscriber: Redis;
  private readonly handlers = new Set<(event: BusEvent) => void>();
  /** Handlers of this process's own events only ({@link RedisBus.subscribeLocal}). */
  private readonly localHandlers = new Set<(event: BusEvent) => void>();
  private readonly resumeHandlers = new Set<(gap: { downMs: number }) => void>();
  private readonly channel: string;
  private readonly log: RedisBusLogger;
  private readonly where: string;
  private readonly maxPending: number;
  private readonly subscribed: Promise<void>;
  private pending = 0;
  private dropped = 0;
  private closed = false;

  /** Opens both connections at once (they connect in the background; see {@link RedisBus.ready}). */
  constructor(options: RedisBusOptions) {
    this.channel = options.channel ?? REDIS_BUS_CHANNEL;
    this.log = options.logger;
    this.where = redactRedisUrl(options.url);
    this.maxPending = options.maxPending ?? 10_000;
    // No per-command retry limit: a publish waits in the offline queue until Redis is back (bounded by maxPending).
    this.commands = new Redis(options.url, { maxRetriesPerRequest: null, connectionName: "aquapilot-bus-pub" });
    this.subscriber = new Redis(options.url, { maxRetriesPerRequest: null, connectionName: "aquapilot-bus-sub" });
    this.watch(this.commands, "publisher");
    this.watch(this.subscriber, "subscriber");
    this.subscriber.on("message", (channel: string, text: string) => {
      if (channel === this.channel) this.receive(text);
    });
    this.subscribed = this.subscriber.subscribe(this.channel).then(() => undefined);
    // A rejection here (closed before subscribing) is reported by ready(), never as an unhandled rejection.
    this.subscribed.catch(() => undefined);
  }

  /**
   * Resolves true once the subscriber listens on the channel (events of other processes arrive from then on), or
   * false after `timeoutMs` without it (Redis unreachable; ioredis keeps trying, logged at warn).
   */
  async ready(timeoutMs = 5_000): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), timeoutMs);
    });
    try {
      return await Promise.race([this.subscribed.then(() => true as const), timeout]);
    } catch {
      return false;
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Delivers `event` to this process's subscribers now, then sends it to the other processes (fire and forget: a
   * failure, or a drop beyond `maxPending`, is logged at warn and never thrown). Does nothing once closed.
   */
  publish(event: BusEvent): void {
    if (this.closed) return;
    this.deliver(event, this.localHandlers);
    this.deliver(event);
    if (this.pending >= this.maxPending) {
      if (this.dropped++ === 0) {
        this.log.warn(
          { redis: this.where, pending: this.pending },
          "bus: Redis backlog full; events for other processes dropped",
        );
      }
      return;
    }
    const text = JSON.stringify({ o: this.processId, e: event } satisfies Envelope);
    this.pending++;
    this.commands
      .publish(this.channel, text)
      .catch((err: Error) => {
        if (!this.closed)
          this.log.warn({ err: err.message, redis: this.where, event: event.type }, "bus: publish failed");
      })
      .finally(() => {
        this.pending--;
      });
  }

  /** Registers a handler for every event of every process; returns the function that removes it. */
  subscribe(handler: (event: BusEvent) => void): () => void {
    this.handlers.add(handler);
    return () => this.handlers.delete(handler);
  }

  /**
   * Registers a handler for the events this process publishes only (never those of other processes); returns the
   * function that removes it.
   */
  subscribeLocal(handler: (event: BusEvent) => void): () => void {
    this.localHandlers.add(handler);
    return () => this.localHandlers.delete(handler);
  }

  /**
   * Registers `handler` to run each time the subscriber listens on the channel again after losing its connection:
   * events of other processes published during the gap (`downMs`, ms) may be missing. Returns the remover.
   */
  onResume(handler: (gap: { downMs: number }) => void): () => void {
    this.resumeHandlers.add(handler);
    return () => this.resumeHandlers.delete(handler);
  }

  /** Stops delivery and ends both connections (QUIT, or a disconnect when Redis is away). Idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.handlers.clear();
    this.localHandlers.clear();
    this.resumeHandlers.clear();
    await Promise.all([endConnection(this.subscriber), endConnection(this.commands)]);
  }

  /** One message of the channel: events of other processes go to the handlers; own echoes and junk do not. */
  private receive(text: string): void {
    if (this.closed) return;
    let envelope: Envelope;
    try {
      envelope = JSON.parse(text) as Envelope;
    } catch {
      this.log.warn({ channel: this.channel, length: text.length }, "bus: unreadable message on the channel");
      return;
    }
    if (envelope?.o === this.processId) return;
    const type = (envelope?.e as { type?: unknown } | undefined)?.type;
    if (typeof envelope?.o !== "string" || typeof type !== "string" || !EVENT_TYPES.has(type)) {
      this.log.warn({ channel: this.channel }, "bus: message of unknown shape on the channel");
      return;
    }
    this.deliver(envelope.e);
  }

  /** Once the channel is subscribed again (ioredis resubscribes too; a second SUBSCRIBE is harmless), runs onResume. */
  private async resumed(downSince: number): Promise<void> {
    try {
      await this.subscriber.subscribe(this.channel);
    } catch {
      return; // lost again, or closed: the next "ready" tries again
    }
    if (this.closed) return;
    const gap = { downMs: Date.now() - downSince };
    for (const handler of [...this.resumeHandlers]) {
      try {
        handler(gap);
      } catch (err) {
        this.log.error({ err }, "bus: resume handler failed");
      }
    }
  }

  private deliver(event: BusEvent, handlers: ReadonlySet<(event: BusEvent) => void> = this.handlers): void {
    for (const handler of [...handlers]) {
      try {
        handler(event);
      } catch (err) {
        this.log.error({ err, event: event.type }, "bus: subscriber failed");
      }
    }
  }

  /**
   * Logs the start of an outage once at warn (the connection closed, or the first error: its message and the URL
   * without its password) and the reconnection at info; ioredis retries on its own.
   */
  private watch(redis: Redis, role: "publisher" | "subscriber"): void {
    let down = false;
    let downSince = 0;
    const lost = (detail: object) => {
      if (down || this.closed) return;
      down = true;
      downSince = Date.now();
      this.log.warn({ ...detail, redis: this.where, role }, "bus: Redis connection lost; reconnecting");
    };
    redis.on("error", (err: Error) => lost({ err: err.message }));
    redis.on("close", () => lost({}));
    redis.on("ready", () => {
      if (!down) return;
      down = false;
      if (this.dropped > 0) {
        this.log.warn({ redis: this.where, dropped: this.dropped }, "bus: events dropped while Redis was away");
        this.dropped = 0;
      }
      this.log.info({ redis: this.where, role }, "bus: Redis connection back");
      if (role === "subscriber") void this.resumed(downSince);
    });
  }
}
