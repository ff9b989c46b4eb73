import { createRequire } from "node:module";
import rateLimit, { normalizeIP } from "@fastify/rate-limit";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { Redis } from "ioredis";

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

/**
 * The plugin's `store` option: a class whose children (one per `createRateLimit`, i.e. per counter) are the plugin's
 * LocalStore (one LRU per counter) or RedisStore (keys under `aquapilot-rl:<counter name>:`), each handed to its
 * counter through `onStore` so the counter can reset a key. The root store itself counts nothing (`global: false`).
 * @throws at a counter's first use when it has no name or its name is taken.
 */
function resettableStore(redis: Redis | null) {
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
      const prefix = `${REDIS_KEY_PREFIX}${name}:`;
      let store: CounterStore;
      if (redis) {
        const inner = new RedisStore(false, false, redis, prefix);
        store = {
          incr: (key, cb, timeWindow, max) => inner.incr(key, cb, timeWindow, max),
          read: (key, cb, timeWindow, max) => inner.read(key, cb, timeWindow, max),
          reset: async (key) => {
            await redis.del(prefix + key);
          },
        };
      } else {
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

/**
 * Registers @fastify/rate-limit with `global: false` (no route is limited unless it asks). Counts live in memory per
 * process (the plugin's LRU store), or in Redis when `redisUrl` is given (the plugin's Redis store), so N
 * server processes share one count; the ioredis client is closed with the app. Call once on the root app before the
 * routes that use {@link createCounter} / {@link createLimiter}.
 * While Redis is unreachable a limited request fails (500 in the envelope) rather than going uncounted: the limits
 * guard sign-in and code sending, so they fail closed.
 */
export function registerRateLimiting(app: FastifyInstance, opts: { redisUrl?: string } = {}): void {
  let redis: Redis | null = null;
  if (opts.redisUrl) {
    // The plugin's advice for its Redis store: fail fast instead of queueing requests while Redis is away.
    const client = new Redis(opts.redisUrl, { connectTimeout: 500, maxRetriesPerRequest: 1 });
    client.on("error", (err) => app.log.warn({ err: err.message }, "rate-limit store: Redis error"));
    app.addHook("onClose", async () => {
      await client.quit().catch(() => client.disconnect());
    });
    redis = client;
  }
  app.register(rateLimit, { global: false, store: resettableStore(redis) as never });
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
 * @throws when {@link registerRateLimiting} was not called on the app, or the name is used twice (at the first use);
 *   when the Redis store fails (network).
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
