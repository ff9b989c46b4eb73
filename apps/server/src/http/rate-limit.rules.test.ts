import Fastify, { type FastifyInstance, type FastifyRequest } from "fastify";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createCounter, createLimiter, registerRateLimiting } from "./rate-limit.ts";

// Pure suites of the fixed-window counters and limiters every rate limit is built on: the real @fastify/rate-limit
// plugin counting in memory on an app that never listens, with a fake Date (its in-memory store reads Date.now).

const SECOND = 1000;
const MINUTE = 60 * SECOND;

/** A request from client address `ip`, on no particular route (what the plugin reads of a request). */
const from = (ip = "192.0.2.1", headers: Record<string, string> = {}) =>
  ({ ip, headers, routeOptions: {} }) as unknown as FastifyRequest;

async function appWithLimits(): Promise<FastifyInstance> {
  const app = Fastify();
  registerRateLimiting(app);
  await app.ready();
  return app;
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(new Date("2026-03-10T12:00:00.000Z"));
});
afterEach(() => {
  vi.useRealTimers();
});

describe("createCounter", () => {
  it("accepts names of lower-case letters, digits and dashes only", async () => {
    const app = await appWithLimits();
    expect(createCounter(app, { name: "code-target-2", windowMs: MINUTE }).name).toBe("code-target-2");
    for (const name of ["", "Code", "code_target", "code target", "code.target", "code/", " x", "x "])
      expect(() => createCounter(app, { name, windowMs: MINUTE })).toThrow(/a-z, 0-9 and -/);
  });

  it("counts hits per key in a fixed window that starts at the key's first hit", async () => {
    const counter = createCounter(await appWithLimits(), { name: "c", windowMs: MINUTE });
    expect(await counter.hit(from(), "a")).toEqual({ count: 1, ttlMs: MINUTE });
    vi.advanceTimersByTime(20 * SECOND);
    expect(await counter.hit(from(), "a")).toEqual({ count: 2, ttlMs: 40 * SECOND });
    expect(await counter.hit(from(), "b")).toEqual({ count: 1, ttlMs: MINUTE });
    vi.advanceTimersByTime(40 * SECOND);
    // The window of "a" has ended: its count starts again.
    expect(await counter.hit(from(), "a")).toEqual({ count: 1, ttlMs: MINUTE });
  });

  it("counts by the key given, whatever the request", async () => {
    const counter = createCounter(await appWithLimits(), { name: "c", windowMs: MINUTE });
    await counter.hit(from("192.0.2.1"), "same");
    expect(await counter.hit(from("198.51.100.2"), "same")).toMatchObject({ count: 2 });
    expect(await counter.hit(from("192.0.2.1"), "other")).toMatchObject({ count: 1 });
  });

  it("peek answers the state without counting; an unknown or ended key is 0 with no time left", async () => {
    const counter = createCounter(await appWithLimits(), { name: "c", windowMs: MINUTE });
    expect(await counter.peek(from(), "a")).toEqual({ count: 0, ttlMs: 0 });
    await counter.hit(from(), "a");
    vi.advanceTimersByTime(15 * SECOND);
    expect(await counter.peek(from(), "a")).toEqual({ count: 1, ttlMs: 45 * SECOND });
    expect(await counter.peek(from(), "a")).toEqual({ count: 1, ttlMs: 45 * SECOND });
    vi.advanceTimersByTime(45 * SECOND);
    expect(await counter.peek(from(), "a")).toEqual({ count: 0, ttlMs: 0 });
  });

  it("a window may depend on the key", async () => {
    const counter = createCounter(await appWithLimits(), {
      name: "c",
      windowMs: (key) => (key.startsWith("long") ? 10 * MINUTE : MINUTE),
    });
    expect(await counter.hit(from(), "long-1")).toEqual({ count: 1, ttlMs: 10 * MINUTE });
    expect(await counter.hit(from(), "short-1")).toEqual({ count: 1, ttlMs: MINUTE });
  });

  it("reset forgets one key only", async () => {
    const counter = createCounter(await appWithLimits(), { name: "c", windowMs: MINUTE });
    await counter.hit(from(), "a");
    await counter.hit(from(), "a");
    await counter.hit(from(), "b");
    await counter.reset(from(), "a");
    expect(await counter.peek(from(), "a")).toEqual({ count: 0, ttlMs: 0 });
    expect(await counter.peek(from(), "b")).toMatchObject({ count: 1 });
    expect(await counter.hit(from(), "a")).toEqual({ count: 1, ttlMs: MINUTE });
  });

  it("keeps at most cacheSize keys in memory: the least recently used is forgotten", async () => {
    const counter = createCounter(await appWithLimits(), { name: "c", windowMs: MINUTE, cacheSize: 2 });
    await counter.hit(from(), "a");
    await counter.hit(from(), "b");
    await counter.hit(from(), "c");
    expect(await counter.peek(from(), "a")).toEqual({ count: 0, ttlMs: 0 });
    expect(await counter.peek(from(), "c")).toMatchObject({ count: 1 });
  });

  it("counters of one app count apart, and a name may be used once", async () => {
    const app = await appWithLimits();
    const one = createCounter(app, { name: "one", windowMs: MINUTE });
    const two = createCounter(app, { name: "two", windowMs: MINUTE });
    await one.hit(from(), "k");
    expect(await two.hit(from(), "k")).toMatchObject({ count: 1 });
    const again = createCounter(app, { name: "one", windowMs: MINUTE });
    await expect(again.hit(from(), "k")).rejects.toThrow(/defined twice/);
  });

  it("reset is a use too: it claims the counter's name, even before any hit", async () => {
    const app = await appWithLimits();
    await createCounter(app, { name: "c", windowMs: MINUTE }).reset(from(), "k");
    await expect(createCounter(app, { name: "c", windowMs: MINUTE }).hit(from(), "k")).rejects.toThrow(/defined twice/);
  });

  it("fails at first use when the plugin is not registered", async () => {
    const counter = createCounter(Fastify(), { name: "c", windowMs: MINUTE });
    await expect(counter.hit(from(), "k")).rejects.toThrow();
  });
});

describe("createLimiter", () => {
  it("lets max requests per key through in a window; the next is refused with the seconds left", async () => {
    const limiter = createLimiter(await appWithLimits(), {
      name: "l",
      max: 2,
      windowMs: MINUTE,
      key: (request) => request.ip,
    });
    expect(await limiter(from("192.0.2.1"))).toEqual({ limited: false });
    vi.advanceTimersByTime(10 * SECOND + 500);
    expect(await limiter(from("192.0.2.1"))).toEqual({ limited: false });
    expect(await limiter(from("192.0.2.1"))).toEqual({ limited: true, retryAfterSeconds: 50 });
    expect(await limiter(from("192.0.2.2"))).toEqual({ limited: false });
    vi.advanceTimersByTime(49 * SECOND + 500);
    expect(await limiter(from("192.0.2.1"))).toEqual({ limited: false });
  });

  it("a request without a key is not counted", async () => {
    const limiter = createLimiter(await appWithLimits(), {
      name: "l",
      max: 1,
      windowMs: MINUTE,
      key: (request) => (request.headers["x-mac"] as string | undefined) ?? null,
    });
    for (let i = 0; i < 3; i++) expect(await limiter(from())).toEqual({ limited: false });
    expect(await limiter(from("192.0.2.1", { "x-mac": "A1" }))).toEqual({ limited: false });
    expect(await limiter(from("192.0.2.9", { "x-mac": "A1" }))).toEqual({ limited: true, retryAfterSeconds: 60 });
  });
});
