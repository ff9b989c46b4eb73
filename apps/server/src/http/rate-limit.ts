import rateLimit, { normalizeIP } from "@fastify/rate-limit";
import type { FastifyInstance, FastifyRequest } from "fastify";

/**
 * Registers @fastify/rate-limit with `global: false` (no route is limited unless it asks), in memory per process.
 * Call once on the root app before the routes that use {@link createLimiter}. With several server processes each
 * counts its own requests (a limit of N per minute becomes at most N per process); a shared store (the plugin's
 * `redis` option) would make it global.
 */
export function registerRateLimiting(app: FastifyInstance): void {
  app.register(rateLimit, { global: false });
}

/**
 * The client address as a limit key, as the plugin keys it by default: IPv4 as is, IPv6 by its /64 (one household or
 * host gets one bucket however many addresses it rotates through). `request.ip` follows the app's trustProxy setting.
 */
export function clientAddressKey(request: FastifyRequest): string {
  return normalizeIP(request.ip);
}

/** One limit: at most `max` requests per `windowMs` for each key. */
export interface LimitRule {
  max: number;
  /** Length of the fixed window, ms. */
  windowMs: number;
  /**
   * The key of a request (e.g. a normalised MAC, a user id, the client address), or null to leave the request
   * uncounted by this rule. Keys of different limiters never collide (each has its own store).
   */
  key: (request: FastifyRequest) => string | null;
}

/** Outcome of {@link Limiter}: within the limit, or over it with the seconds until the window ends. */
export type LimitOutcome = { limited: false } | { limited: true; retryAfterSeconds: number };

/** Counts one request against a rule; see {@link createLimiter}. */
export type Limiter = (request: FastifyRequest) => Promise<LimitOutcome>;

/**
 * A limiter for `rule` built on the plugin's `createRateLimit` (created lazily on first use, so it may be made
 * before the plugin has loaded). Each call counts the request under `rule.key(request)` and answers whether the
 * limit is exceeded; the caller answers 429 in its own format.
 * @throws when {@link registerRateLimiting} was not called on the app (at the first request).
 */
export function createLimiter(app: FastifyInstance, rule: LimitRule): Limiter {
  let check: ReturnType<FastifyInstance["createRateLimit"]> | undefined;
  const keys = new WeakMap<FastifyRequest, string>();
  return async (request) => {
    const key = rule.key(request);
    if (key === null) return { limited: false };
    check ??= app.createRateLimit({
      max: rule.max,
      timeWindow: rule.windowMs,
      // The key was computed above; the request is keyed through this map so the plugin's store sees it.
      keyGenerator: (req) => keys.get(req) ?? "",
    });
    keys.set(request, key);
    try {
      const outcome = await check(request);
      if (outcome.isAllowed || !outcome.isExceeded) return { limited: false };
      return { limited: true, retryAfterSeconds: Math.max(1, outcome.ttlInSeconds) };
    } finally {
      keys.delete(request);
    }
  };
}
