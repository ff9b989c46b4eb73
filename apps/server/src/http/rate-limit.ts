import { createRequire } from "node:module";
import rateLimit, { normalizeIP } from "@fastify/rate-limit";
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from "fastify";
import { Redis } from "ioredis";
import { redactRedisUrl } from "../redis-bus.ts";

/** Prefix of every rate-limit key in Redis; each counter adds its own name after it. */
export const REDIS_KEY_PREFIX = "aquapilot-rl:";

// The plugin's own stores (its in-memory LRU store and its Redis store with the Lua script), loaded from the package:
// the store option below wraps them to add a reset, which the plugin does not offer.
const require = createRequire(import.meta.url);
type StoreCallback = (err: Error | null, res?: { current: number; ttl: number }) => void;
interface PluginStore {
  incr(key: string, cb: StoreCallback, timeWindow: number, max: number): void;
  read(key: string, cb: StoreCallback, timeWindow: number, max: number): void;
}
const LocalStore: new (
  continueExceeding: boolean,
  exponentialBackoff: boolean,
  cache?: number,
) => PluginStore & { lru: { delete(key: string): void } } = require("@fastify/rate-limit/store/LocalStore.js");
const RedisStore: new (
  continueExceeding: boolean,
  exponentialBackoff: boolean,
  redis: Redis,
  key: string,
) => PluginStore = require("@fastify/rate-limit/store/RedisStore.js");

/** What {@link createCounter} adds to the plugin's per-limiter options so the store knows the counter. */
interface CounterParams {
  counterName?: string;
  cache?: number;
  /** Receives the counter's store (so the counter can reset keys). */
  onStore?: (store: CounterStore) => void;
}

/** A counter's store: the plugin's store for one counter, plus `reset`. */
interface CounterStore extends PluginStore {
  reset(key: string): Promise<void>;
}

/** Longest a Redis command of the counters may take before Redis counts as unreachable, ms. */
export const REDIS_COMMAND_TIMEOUT_MS = 1_000;

/** The counters' Redis link as readiness reports it (http/health.ts): up with the PING's time, or down. */
export interface RedisLimitsState {
  state: "up" | "down";
  /** Round trip of a PING, ms (null while down). */
  latencyMs: number | null;
}

/**
 * The counters' link to Redis and where they count. While Redis answers, every counter counts there; from the first
 * sign of an outage (the connection closes or fails, or a command fails or takes longer than
 * {@link REDIS_COMMAND_TIMEOUT_MS}) each counter counts per process in its own in-memory store (the plugin's LRU, the
 * same limits), and Redis is not asked per request; ioredis reconnects in the background, and its next "ready" sends
 * the counting back to Redis, dropping the in-memory counts of the outage. The outage is logged once at warn and its
 * end once at info with its length (`downMs`), both with the URL without its password; never per request.
 */
export class RedisLimitsLink {
  /** The ioredis client of the counters (closed by {@link RedisLimitsLink.close}). */
  readonly client: Redis;
  private readonly log: FastifyBaseLogger;
  private readonly where: string;
  /** Drops of each counter's in-memory store, run when Redis is back. */
  private readonly drops = new Set<() => void>();
  private up = true;
  private downSince = 0;
  private closing = false;

  /** Opens the connection (in the background: commands wait for it, at most {@link REDIS_COMMAND_TIMEOUT_MS}). */
  constructor(url: string, log: FastifyBaseLogger) {
    this.log = log;
    this.where = redactRedisUrl(url);
    // Requests never wait on Redis longer than their deadline (send); a command is not retried beyond one reconnect,
    // and a connection attempt is given up after 2 s (a stalled event loop must not pass for a dead Redis).
    this.client = new Redis(url, {
      connectTimeout: 2_000,
      maxRetriesPerRequest: 1,
      connectionName: "aquapilot-rate-limits",
    });
    this.client.on("error", (err: Error) => this.lost(err.message));
    this.client.on("close", () => this.lost("connection closed"));
    this.client.on("ready", () => this.back());
  }

  /** Whether the counters count in Redis (true) or per process (false, while Redis is unreachable). */
  get inRedis(): boolean {
    return this.up;
  }

  /**
   * Registers `drop`, run each time Redis is back after an outage (a counter forgets its in-memory counts then).
   */
  onBack(drop: () => void): void {
    this.drops.add(drop);
  }

  /**
   * A Redis command of a counter failed (network, timeout, refusal): Redis counts as unreachable from now on. When
   * ioredis still holds the connection (a command timed out or was refused on it), the connection is renewed, so the
   * next "ready" tells when Redis answers again.
   */
  failed(err: Error): void {
    if (!this.up || this.closing) return;
    this.lost(err.message);
    if (this.client.status === "ready") this.client.disconnect(true);
  }

  /**
   * Runs one Redis command (`command` calls `answer` once with its outcome) and tells `done` exactly once: the
   * outcome, or an error when no answer came within {@link REDIS_COMMAND_TIMEOUT_MS}. The deadline is judged after
   * the event loop has read what arrived meanwhile (a setImmediate after the timer), so a process that was itself
   * stalled (a loaded machine) does not take an answer waiting in its socket for a slow Redis. A failure or a missed
   * deadline is an outage ({@link RedisLimitsLink.failed}) before `done` hears of it; a late answer is dropped.
   */
  send<T>(
    command: (answer: (err: Error | null, value?: T) => void) => void,
    done: (err: Error | null, value?: T) => void,
  ): void {
    let settled = false;
    const settle = (err: Error | null, value?: T) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (err) this.failed(err);
      done(err, value);
    };
    const timer = setTimeout(() => {
      setImmediate(() => settle(new Error(`no answer within ${REDIS_COMMAND_TIMEOUT_MS} ms`)));
    }, REDIS_COMMAND_TIMEOUT_MS);
    timer.unref();
    command(settle);
  }

  /** {@link RedisLimitsLink.send} for a command that answers a promise: resolves with its value, else rejects. */
  sendAsync<T>(command: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) =>
      this.send<T>(
        (answer) => {
          command().then(
            (value) => answer(null, value),
            (err: Error) => answer(err),
          );
        },
        (err, value) => (err ? reject(err) : resolve(value as T)),
      ),
    );
  }

  /** Readiness: down while the counters count per process, else a PING's round trip (a failed PING is an outage). */
  async probe(): Promise<RedisLimitsState> {
    if (!this.up) return { state: "down", latencyMs: null };
    const start = performance.now();
    try {
      await this.sendAsync(() => this.client.ping());
    } catch {
      return { state: "down", latencyMs: null };
    }
    return { state: "up", latencyMs: Math.round((performance.now() - start) * 10) / 10 };
  }

  /** Ends the connection (QUIT, or a plain disconnect when Redis is away) without logging an outage. */
  async close(): Promise<void> {
    this.closing = true;
    await this.client.quit().catch(() => this.client.disconnect());
  }

  private lost(reason: string): void {
    if (!this.up || this.closing) return;
    this.up = false;
    this.downSince = Date.now();
    this.log.warn({ redis: this.where, err: reason }, "rate limits: Redis unreachable; counting per process");
  }

  private back(): void {
    if (this.up || this.closing) return;
    this.up = true;
    for (const drop of this.drops) drop();
    this.log.info(
      { redis: this.where, downMs: Date.now() - this.downSince },
      "rate limits: Redis back; counting in Redis again",
    );
  }
}

/**
 * A counter's store on Redis with its per-process stand-in: counts through the plugin's RedisStore while
 * `link` says Redis is up, else (and for a call whose Redis command fails or misses its deadline: see
 * {@link RedisLimitsLink.send}) through the plugin's LocalStore, created at the first call of an outage and dropped
 * when Redis is back.
 */
function redisCounterStore(link: RedisLimitsLink, prefix: string, cacheSize: number): CounterStore {
  const inner = new RedisStore(false, false, link.client, prefix);
  let local: InstanceType<typeof LocalStore> | null = null;
  link.onBack(() => {
    local = null;
  });
  const memory = () => {
    local ??= new LocalStore(false, false, cacheSize);
    return local;
  };
  const counted =
    (op: "incr" | "read"): PluginStore["incr"] =>
    (key, cb, timeWindow, max) => {
      if (!link.inRedis) return memory()[op](key, cb, timeWindow, max);
      link.send<{ current: number; ttl: number }>(
        (answer) => inner[op](key, answer, timeWindow, max),
        (err, res) => (err ? memory()[op](key, cb, timeWindow, max) : cb(null, res)),
      );
    };
  return {
    incr: counted("incr"),
    read: counted("read"),
    reset: async (key) => {
      local?.lru.delete(key);
      if (!link.inRedis) return;
      try {
        await link.sendAsync(() => link.client.del(prefix + key));
      } catch {
        // An outage from now on: the key counts per process, in a store that holds nothing of it.
      }
    },
  };
}

/**
 * The plugin's `store` option: a class whose children (one per `createRateLimit`, i.e. per counter) are the plugin's
 * LocalStore (one LRU per counter), or with `link` a store in Redis (keys under `aquapilot-rl:<counter name>:`) that
 * counts per process while Redis is unreachable ({@link RedisLimitsLink}); each is handed to its counter through
 * `onStore` so the counter can reset a key. The root store itself counts nothing (`global: false`).
 * @throws at a counter's first use when it has no name or its name is taken.
 */
function resettableStore(link: RedisLimitsLink | null) {
  const names = new Set<string>();
  return class ResettableStore {
    incr(_key: string, cb: StoreCallback) {
      cb(new Error("rate limits are counted through createCounter only"));
    }
    child(params: CounterParams): CounterStore {
      const name = params.counterName;
      if (!name) throw new Error("a rate-limit counter needs a name (http/rate-limit.ts createCounter)");
      // Counters of one app share the store's key space (Redis): a name used twice would merge two counts.
      if (names.has(name)) throw new Error(`rate-limit counter ${name} is defined twice`);
      names.add(name);
      let store: CounterStore;
      if (link) store = redisCounterStore(link, `${REDIS_KEY_PREFIX}${name}:`, params.cache ?? 5000);
      else {
        const inner = new LocalStore(false, false, params.cache ?? 5000);
        store = {
          incr: (key, cb, timeWindow, max) => inner.incr(key, cb, timeWindow, max),
          read: (key, cb, timeWindow, max) => inner.read(key, cb, timeWindow, max),
          reset: async (key) => inner.lru.delete(key),
        };
      }
      params.onStore?.(store);
      return store;
    }
  };
}

/** What {@link registerRateLimiting} answers. */
export interface RateLimiting {
  /** The counters' Redis link (its state for readiness), or null when they count in memory (no REDIS_URL). */
  redis: RedisLimitsLink | null;
}

/**
 * Registers @fastify/rate-limit with `global: false` (no route is limited unless it asks). Counts live in memory per
 * process (the plugin's LRU store), or in Redis when `redisUrl` is given (the plugin's Redis store), so N
 * server processes share one count; the ioredis client is closed with the app. Call once on the root app before the
 * routes that use {@link createCounter} / {@link createLimiter}.
 * While Redis is unreachable each process counts on its own with the same limits ({@link RedisLimitsLink}): guessing
 * stays throttled per process (N processes allow N times a count), every limited call answers as it would otherwise,
 * and the outage and its end are logged once each.
 */
export function registerRateLimiting(app: FastifyInstance, opts: { redisUrl?: string } = {}): RateLimiting {
  let link: RedisLimitsLink | null = null;
  if (opts.redisUrl) {
    const redis = new RedisLimitsLink(opts.redisUrl, app.log);
    app.addHook("onClose", async () => redis.close());
    link = redis;
  }
  app.register(rateLimit, { global: false, store: resettableStore(link) as never });
  return { redis: link };
}

/**
 * The client address as a limit key, as the plugin keys it by default: IPv4 as is, IPv6 by its /64 (one household or
 * host gets one bucket however many addresses it rotates through). `request.ip` follows the app's trustProxy setting
 * (config TRUST_PROXY).
 */
export function clientAddressKey(request: FastifyRequest): string {
  return normalizeIP(request.ip);
}

/** A counter's state for one key: how many hits its current window holds and how long that window still runs. */
export interface CounterState {
  count: number;
  /** Time left in the window, ms (0 when the key holds no live window). */
  ttlMs: number;
}

/** Options of {@link createCounter}. */
export interface CounterOptions {
  /**
   * Unique name of the counter in the app: its keys live under it, so counters sharing one store (Redis) never
   * collide. Lower case letters, digits and dashes.
   */
  name: string;
  /**
   * Length of a key's window, ms, or a function of the key for counters whose keys each have their own length (the
   * same key must always get the same length). The window is fixed: it starts at the key's first hit and the count
   * is forgotten when it ends.
   */
  windowMs: number | ((key: string) => number);
  /** Most keys kept in memory per process (the in-memory store is an LRU); default 5,000. Redis ignores it. */
  cacheSize?: number;
}

/** A named counter on the plugin's store (memory or Redis); see {@link createCounter}. */
export interface Counter {
  readonly name: string;
  /** Counts one hit for `key` (atomic in either store) and answers the state after it. */
  hit(request: FastifyRequest, key: string): Promise<CounterState>;
  /** The state of `key` without counting. */
  peek(request: FastifyRequest, key: string): Promise<CounterState>;
  /** Forgets `key` (its count is 0 again). */
  reset(request: FastifyRequest, key: string): Promise<void>;
}

/**
 * A counter built on the plugin's `createRateLimit` (created lazily on first use, so it may be made before the
 * plugin has loaded): the plugin's stores count and expire; callers decide what a count means. The request is
 * needed by the plugin's API only; the key is given explicitly.
 * @throws when {@link registerRateLimiting} was not called on the app, or the name is used twice (at the first use).
 */
export function createCounter(app: FastifyInstance, opts: CounterOptions): Counter {
  if (!/^[a-z0-9-]+$/.test(opts.name)) throw new Error(`counter name ${JSON.stringify(opts.name)}: a-z, 0-9 and -`);
  let check: ReturnType<FastifyInstance["createRateLimit"]> | undefined;
  let store: CounterStore | undefined;
  const keys = new WeakMap<FastifyRequest, string>();
  const windowOf = opts.windowMs;
  const params: CounterParams = {
    counterName: opts.name,
    cache: opts.cacheSize ?? 5000,
    onStore: (s) => {
      store = s;
    },
  };
  function checker() {
    check ??= app.createRateLimit({
      ...params,
      // The plugin's own verdict is not used (callers read the count), so max never triggers anything.
      max: Number.MAX_SAFE_INTEGER,
      timeWindow: typeof windowOf === "number" ? windowOf : (_req: FastifyRequest, key: string) => windowOf(key),
      // The key is handed over through this map so the plugin's store sees it.
      keyGenerator: (req: FastifyRequest) => keys.get(req) ?? "",
    } as Parameters<FastifyInstance["createRateLimit"]>[0]);
    return check;
  }
  async function run(request: FastifyRequest, key: string, increment: boolean): Promise<CounterState> {
    const limit = checker();
    keys.set(request, key);
    try {
      const outcome = await limit(request, { increment });
      if (outcome.isAllowed) return { count: 0, ttlMs: 0 };
      return { count: outcome.max - outcome.remaining, ttlMs: Math.max(0, outcome.ttl) };
    } finally {
      keys.delete(request);
    }
  }
  return {
    name: opts.name,
    hit: (request, key) => run(request, key, true),
    peek: (request, key) => run(request, key, false),
    async reset(_request, key) {
      checker();
      await store?.reset(key);
    },
  };
}

/** One limit: at most `max` requests per `windowMs` for each key. */
export interface LimitRule {
  max: number;
  /** Length of the fixed window, ms. */
  windowMs: number;
  /**
   * The key of a request (e.g. a normalised MAC, a user id, the client address), or null to leave the request
   * uncounted by this rule.
   */
  key: (request: FastifyRequest) => string | null;
  /** The counter's name, unique in the app (see {@link CounterOptions.name}). */
  name: string;
}

/** Outcome of {@link Limiter}: within the limit, or over it with the seconds until the window ends. */
export type LimitOutcome = { limited: false } | { limited: true; retryAfterSeconds: number };

/** Counts one request against a rule; see {@link createLimiter}. */
export type Limiter = (request: FastifyRequest) => Promise<LimitOutcome>;

/**
 * A limiter for `rule` on a fixed-window {@link createCounter}: each call counts the request under
 * `rule.key(request)` and answers whether the limit is exceeded (the request that makes the count `max + 1` is the
 * first refused); the caller answers 429 in its own format.
 * @throws when {@link registerRateLimiting} was not called on the app (at the first request).
 */
export function createLimiter(app: FastifyInstance, rule: LimitRule): Limiter {
  const counter = createCounter(app, { name: rule.name, windowMs: rule.windowMs });
  return async (request) => {
    const key = rule.key(request);
    if (key === null) return { limited: false };
    const state = await counter.hit(request, key);
    if (state.count <= rule.max) return { limited: false };
    return { limited: true, retryAfterSeconds: retryAfterSeconds(state.ttlMs) };
  };
}

/** Whole seconds for a `Retry-After` header: `ms` rounded up, at least 1. */
export function retryAfterSeconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}
