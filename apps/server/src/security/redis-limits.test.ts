import { type ChildProcess, spawn } from "node:child_process";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openTestDatabase, type TestDatabase } from "../../test/databases.ts";
import { insertUser } from "../../test/factories.ts";
import { freePort, waitForPort } from "../../test/free-port.ts";
import { createTestApp, defaultTestEngine, type TestApp } from "../../test/helpers.ts";
import {
  redisServerBinary,
  redisServerRequirement,
  startThrowawayRedis,
  type ThrowawayRedis,
} from "../../test/redis-server.ts";
import { skipUnlessInstalled } from "../../test/required-programs.ts";
import { hashPassword } from "../auth/passwords.ts";
import { REDIS_COMMAND_TIMEOUT_MS, REDIS_KEY_PREFIX } from "../http/rate-limit.ts";
import { DEFAULT_LIMITS } from "./limits.ts";

const external = process.env.TEST_REDIS_URL;
const binary = external ? null : redisServerBinary();
const skip = skipUnlessInstalled("rate limits in Redis", [
  redisServerRequirement(external ?? binary, "or set TEST_REDIS_URL"),
]);

/**
 * The limits with REDIS_URL: two app instances on one database and one Redis count together, a
 * successful sign-in on one resets the count the other sees, and each counter keeps its own keys. Uses TEST_REDIS_URL,
 * else a throwaway redis-server on a free port, else is skipped, saying why (a failure under CI:
 * test/required-programs.ts).
 */
describe.skipIf(skip)("rate limits in Redis, shared by two processes", () => {
  let server: ChildProcess | undefined;
  let url: string;
  let database: TestDatabase;
  let one: TestApp;
  let two: TestApp;
  let redis: Redis;
  let userId: string;

  const token = (app: TestApp, password: string, ip: string) =>
    app.app.inject({
      method: "POST",
      url: "/connect/token",
      remoteAddress: ip,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: new URLSearchParams({ grant_type: "password", username: "shared@example.com", password }).toString(),
    });

  beforeAll(async () => {
    if (external) url = external;
    else {
      const port = await freePort();
      server = spawn(binary!, ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], {
        stdio: "ignore",
      });
      url = `redis://127.0.0.1:${port}/0`;
    }
    redis = new Redis(url, { maxRetriesPerRequest: 20 });
    // The spawned server may still be starting: connection errors until then are retried, not reported.
    redis.on("error", () => {});
    await redis.ping();
    // A private namespace on a shared Redis: clear what an earlier run left.
    const stale = await redis.keys(`${REDIS_KEY_PREFIX}*`);
    if (stale.length) await redis.del(...stale);
    database = await openTestDatabase(defaultTestEngine());
    userId = await insertUser(database.db, "shared", new Date().toISOString(), { email: "shared@example.com" });
    await database.db
      .updateTable("users")
      .set({ password_hash: await hashPassword("right-pass-1") })
      .where("id", "=", userId)
      .execute();
    const env = { REDIS_URL: url, RATE_LIMIT_SCALE: "1" };
    one = await createTestApp({ database, env });
    two = await createTestApp({ database, env });
  });

  afterAll(async () => {
    await one?.close({ keepDatabase: true });
    await two?.close({ keepDatabase: true });
    await database?.close();
    await redis?.quit();
    server?.kill("SIGTERM");
  });

  it("counts one account's failures across both processes; a success on one resets them for both", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < DEFAULT_LIMITS.signIn.delayAfter + 1; i++) {
      statuses.push((await token(i % 2 ? two : one, `wrong-${i}`, `198.51.100.${i}`)).statusCode);
    }
    const delayAfter = DEFAULT_LIMITS.signIn.delayAfter;
    expect(statuses).toEqual([...Array(delayAfter).fill(400), 429]);
    const keys = await redis.keys(`${REDIS_KEY_PREFIX}*`);
    // Each counter under its own name: the same address key in two counters never collides.
    expect(keys).toContain(`${REDIS_KEY_PREFIX}signin-account-failures:u:${userId}`);
    expect(keys).toContain(`${REDIS_KEY_PREFIX}signin-address:198.51.100.0`);
    expect(keys).toContain(`${REDIS_KEY_PREFIX}signin-address-failures:198.51.100.0`);
    expect(await redis.get(`${REDIS_KEY_PREFIX}signin-account-failures:u:${userId}`)).toBe(String(delayAfter));

    // Past the 2 s delay (Redis keeps real time), the right password on process two…
    await new Promise((r) => setTimeout(r, 2100));
    expect((await token(two, "right-pass-1", "192.0.2.1")).statusCode).toBe(200);
    expect(await redis.exists(`${REDIS_KEY_PREFIX}signin-account-failures:u:${userId}`)).toBe(0);
    // …and process one sees a fresh count: five plain 400s again.
    for (let i = 0; i < delayAfter; i++) expect((await token(one, "wrong", "192.0.2.2")).statusCode).toBe(400);
    console.log(`redis limits: ${delayAfter} failures shared by 2 processes, reset by a success; ${keys.length} keys`);
  });
});

/** Redis's password in the outage suites: it must never reach a log line. */
const PASSWORD = "limits-test-Pa55word-q9";
const OUTAGE = "rate limits: Redis unreachable; counting per process";
const BACK = "rate limits: Redis back; counting in Redis again";

/** The app's log lines (pino's JSON) from line `from` on whose message is `msg`. */
function logged(app: TestApp, msg: string, from = 0): Array<Record<string, unknown>> {
  return app.logs
    .slice(from)
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => line.msg === msg);
}

/** Log lines at error or fatal, or holding a stack trace. */
const errorLines = (app: TestApp) => app.logs.filter((line) => /"level":(50|60)|"stack"/.test(line));

/** A user signing in with `right-pass-1`; answers its id. */
async function userWithPassword(database: TestDatabase, email: string): Promise<string> {
  const id = await insertUser(database.db, email.split("@")[0] as string, new Date().toISOString(), { email });
  const hash = await hashPassword("right-pass-1");
  await database.db.updateTable("users").set({ password_hash: hash }).where("id", "=", id).execute();
  return id;
}

/** A password grant for `username` from client address `ip`. */
const grant = (app: TestApp, username: string, password: string, ip: string) =>
  app.app.inject({
    method: "POST",
    url: "/connect/token",
    remoteAddress: ip,
    headers: { "content-type": "application/x-www-form-urlencoded" },
    payload: new URLSearchParams({ grant_type: "password", username, password }).toString(),
  });

/** GET /readyz: its status code and body. */
async function readiness(app: TestApp) {
  const res = await app.app.inject({ method: "GET", url: "/readyz" });
  return { code: res.statusCode, body: res.json() as unknown };
}

const databaseUp = { state: "up", latencyMs: expect.any(Number) };
const readyWithRedis = {
  code: 200,
  body: { status: "ready", checks: { database: databaseUp, redis: { state: "up", latencyMs: expect.any(Number) } } },
};
const degraded = {
  code: 200,
  body: { status: "degraded", checks: { database: databaseUp, redis: { state: "down", latencyMs: null } } },
};

/**
 * `delayAfter + 1` wrong passwords for `email` on `app` (each from its own address, numbered from `firstIp` in
 * 203.0.113.0/24): answers their status codes and the last answer.
 */
async function wrongPasswords(app: TestApp | ((i: number) => TestApp), email: string, firstIp: number) {
  const answers = [];
  for (let i = 0; i <= DEFAULT_LIMITS.signIn.delayAfter; i++) {
    const on = typeof app === "function" ? app(i) : app;
    answers.push(await grant(on, email, `wrong-${i}`, `203.0.113.${firstIp + i}`));
  }
  return { statuses: answers.map((a) => a.statusCode), last: answers[answers.length - 1]! };
}

/** What a process answers to one account's guesses: `delayAfter` plain 400s, then 429 (OAuth shape) with Retry-After. */
const throttled = [...Array(DEFAULT_LIMITS.signIn.delayAfter).fill(400), 429];

/**
 * REDIS_URL set but nothing listening: each process counts on its own with the same limits (no 500), logs the outage
 * once without the password, and reports itself degraded. Needs no redis-server.
 */
describe("rate limits with REDIS_URL while Redis is unreachable from the start", () => {
  it("count per process: normal answers, then a 429 with Retry-After; the outage logged once; readiness degraded", async () => {
    const port = await freePort();
    const database = await openTestDatabase(defaultTestEngine());
    await userWithPassword(database, "alone@example.com");
    const app = await createTestApp({
      database,
      env: { REDIS_URL: `redis://:${PASSWORD}@127.0.0.1:${port}/0`, RATE_LIMIT_SCALE: "1" },
    });
    try {
      const { statuses, last } = await wrongPasswords(app, "alone@example.com", 0);
      expect(statuses).toEqual(throttled);
      expect(last.json()).toMatchObject({ error: "invalid_grant" });
      expect(Number(last.headers["retry-after"])).toBeGreaterThanOrEqual(1);
      expect(await readiness(app)).toEqual(degraded);
      const outage = logged(app, OUTAGE);
      expect(outage).toHaveLength(1);
      expect(outage[0]).toMatchObject({ level: 40 });
      expect(String(outage[0]?.redis)).toContain(`127.0.0.1:${port}`);
      expect(errorLines(app)).toEqual([]);
      expect(app.logs.join("\n")).not.toContain(PASSWORD);
    } finally {
      await app.close();
    }
  });
});

const outageBinary = redisServerBinary();
const skipOutage = skipUnlessInstalled("a Redis outage under the rate limits", [redisServerRequirement(outageBinary)]);

/**
 * Two app instances on one database and a throwaway redis-server (with a password) that stops and starts again: during
 * the outage each process counts per process with the same limits (normal answers, a 429 with Retry-After past its
 * own count), logs the outage once and reports itself degraded; once Redis is back each logs the end once, is ready
 * again, and counts in Redis again from zero (the outage's in-memory counts dropped).
 */
describe.skipIf(skipOutage)("a Redis outage under two processes", () => {
  let redis: ThrowawayRedis;
  let database: TestDatabase;
  let one: TestApp;
  let two: TestApp;
  let userId: string;
  const email = "outage@example.com";

  beforeAll(async () => {
    redis = await startThrowawayRedis(outageBinary!, { password: PASSWORD });
    database = await openTestDatabase(defaultTestEngine());
    userId = await userWithPassword(database, email);
    const env = { REDIS_URL: redis.url, RATE_LIMIT_SCALE: "1" };
    one = await createTestApp({ database, env });
    two = await createTestApp({ database, env });
  });

  afterAll(async () => {
    await one?.close({ keepDatabase: true });
    await two?.close({ keepDatabase: true });
    await database?.close();
    await redis?.stop();
  });

  it("degrades to per-process counts while Redis is away, logged once each way, and counts in Redis again after", async () => {
    const both = [one, two];
    for (const app of both) expect(await readiness(app)).toEqual(readyWithRedis);

    // This outage's lines are those from the stop on (a loaded machine may have made the start-up connection fail once).
    const atStop = new Map(both.map((app) => [app, app.logs.length]));
    const ofOutage = (app: TestApp, msg: string) => logged(app, msg, atStop.get(app));
    await redis.stop();
    await vi.waitFor(
      () => {
        for (const app of both) expect(ofOutage(app, OUTAGE)).toHaveLength(1);
      },
      { timeout: 10_000, interval: 20 },
    );
    for (const app of both) expect(await readiness(app)).toEqual(degraded);
    // Each process counts the account's failures on its own, with the same limit.
    for (const [n, app] of both.entries()) {
      const { statuses, last } = await wrongPasswords(app, email, 10 * n);
      expect(statuses).toEqual(throttled);
      expect(last.json()).toMatchObject({ error: "invalid_grant" });
      expect(Number(last.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    }
    for (const app of both) {
      expect(ofOutage(app, OUTAGE)).toHaveLength(1);
      expect(errorLines(app)).toEqual([]);
    }

    await redis.start();
    await vi.waitFor(
      () => {
        for (const app of both) expect(ofOutage(app, BACK)).toHaveLength(1);
      },
      { timeout: 15_000, interval: 20 },
    );
    for (const app of both) {
      expect(ofOutage(app, BACK)[0]).toMatchObject({ level: 30, downMs: expect.any(Number) });
      expect(await readiness(app)).toEqual(readyWithRedis);
    }
    // Shared again, from zero: the failures alternate between the processes and still meet one limit.
    const after = await wrongPasswords((i) => both[i % 2] as TestApp, email, 100);
    expect(after.statuses).toEqual(throttled);
    const direct = new Redis(redis.url);
    try {
      expect(await direct.get(`${REDIS_KEY_PREFIX}signin-account-failures:u:${userId}`)).toBe(
        String(DEFAULT_LIMITS.signIn.delayAfter),
      );
    } finally {
      await direct.quit();
    }
    for (const app of both) {
      expect(ofOutage(app, OUTAGE)).toHaveLength(1);
      expect(ofOutage(app, BACK)).toHaveLength(1);
      expect(errorLines(app)).toEqual([]);
      expect(app.logs.join("\n")).not.toContain(PASSWORD);
    }
    console.log(
      `redis outage: ${throttled.length} grants per process counted in memory, back after ${ofOutage(one, BACK)[0]?.downMs} ms`,
    );
  });
});

/**
 * A Redis that stops answering without closing its connections (the process frozen with SIGSTOP, as a hung host or a
 * network that drops packets would be): the first limited call waits for its deadline only, then every call counts
 * per process; once Redis answers again (SIGCONT) the renewed connection becomes ready and the counting returns.
 */
describe.skipIf(skipOutage)("a Redis that stops answering", () => {
  let server: ChildProcess | undefined;
  let database: TestDatabase;
  let app: TestApp;

  beforeAll(async () => {
    const port = await freePort();
    server = spawn(outageBinary!, ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], {
      stdio: "ignore",
    });
    await waitForPort(port, "redis-server");
    database = await openTestDatabase(defaultTestEngine());
    await userWithPassword(database, "frozen@example.com");
    app = await createTestApp({ database, env: { REDIS_URL: `redis://127.0.0.1:${port}/0`, RATE_LIMIT_SCALE: "1" } });
  });

  afterAll(async () => {
    server?.kill("SIGCONT");
    await app?.close();
    server?.kill("SIGTERM");
  });

  it("is taken as an outage at the first call's deadline, and left when Redis answers again", async () => {
    expect(await readiness(app)).toEqual(readyWithRedis);
    const atFreeze = app.logs.length;
    server!.kill("SIGSTOP");
    const { statuses, last } = await wrongPasswords(app, "frozen@example.com", 200);
    expect(statuses).toEqual(throttled);
    expect(Number(last.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    const outage = logged(app, OUTAGE, atFreeze);
    expect(outage).toHaveLength(1);
    expect(outage[0]?.err).toBe(`no answer within ${REDIS_COMMAND_TIMEOUT_MS} ms`);
    expect(await readiness(app)).toEqual(degraded);

    server!.kill("SIGCONT");
    await vi.waitFor(() => expect(logged(app, BACK, atFreeze)).toHaveLength(1), { timeout: 15_000, interval: 20 });
    expect(await readiness(app)).toEqual(readyWithRedis);
    expect(logged(app, OUTAGE, atFreeze)).toHaveLength(1);
    expect(errorLines(app)).toEqual([]);
  });
});
