import { type ChildProcess, spawn } from "node:child_process";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase, type TestDatabase } from "../../test/databases.ts";
import { insertUser } from "../../test/factories.ts";
import { freePort } from "../../test/free-port.ts";
import { createTestApp, defaultTestEngine, type TestApp } from "../../test/helpers.ts";
import { redisServerBinary, redisServerRequirement } from "../../test/redis-server.ts";
import { skipUnlessInstalled } from "../../test/required-programs.ts";
import { hashPassword } from "../auth/passwords.ts";
import { REDIS_KEY_PREFIX } from "../http/rate-limit.ts";
import { DEFAULT_LIMITS } from "./limits.ts";

const external = process.env.TEST_REDIS_URL;
const binary = external ? null : redisServerBinary();
const skip = skipUnlessInstalled("rate limits in Redis", [
  redisServerRequirement(external ?? binary, "or set TEST_REDIS_URL"),
]);

/**
 * The limits with REDIS_URL: two app instances on one database and one Redis count together, a
 * successful sign-in on one resets the count the other sees, each counter keeps its own keys, and an unreachable
 * Redis fails closed. Uses TEST_REDIS_URL, else a throwaway redis-server on a free port, else is skipped, saying why
 * (a failure under CI: test/required-programs.ts).
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

  it("fails closed when Redis is unreachable: an error, never an unchecked sign-in", async () => {
    const port = await freePort();
    const database2 = await openTestDatabase(defaultTestEngine());
    const down = await createTestApp({
      database: database2,
      env: { REDIS_URL: `redis://127.0.0.1:${port}/0`, RATE_LIMIT_SCALE: "1" },
    });
    try {
      const res = await down.app.inject({
        method: "POST",
        url: "/connect/token",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        payload: "grant_type=password&username=a@example.com&password=x",
      });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toMatchObject({ success: false, error: { code: "Internal" } });
    } finally {
      await down.close();
    }
  });
});
