import Fastify from "fastify";
import { Kysely, PostgresDialect } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { freePort } from "../../test/free-port.ts";
import { createTestApp, type TestApp } from "../../test/helpers.ts";
import type { Database } from "../db/index.ts";
import { CHECK_TIMEOUT_MS, databaseCheck, type ReadinessCheck, readiness, registerHealth } from "./health.ts";

const up = (name: string, required: boolean): ReadinessCheck => ({
  name,
  required,
  run: async () => ({ state: "up", latencyMs: 1.5 }),
});
const down = (name: string, required: boolean): ReadinessCheck => ({
  name,
  required,
  run: async () => ({ state: "down", latencyMs: null }),
});

describe("readiness: the rating of the checks", () => {
  it("is ready when every check is up, degraded when one not required is down, not-ready when a required one is", async () => {
    expect(await readiness([up("database", true), up("redis", false)])).toEqual({
      status: "ready",
      checks: { database: { state: "up", latencyMs: 1.5 }, redis: { state: "up", latencyMs: 1.5 } },
    });
    expect((await readiness([up("database", true), down("redis", false)])).status).toBe("degraded");
    expect((await readiness([down("database", true), up("redis", false)])).status).toBe("not-ready");
    expect((await readiness([down("redis", false), down("database", true)])).status).toBe("not-ready");
    expect((await readiness([down("database", true), down("redis", false)])).status).toBe("not-ready");
  });

  it("counts a check that throws, or has not answered within the timeout, as down", async () => {
    const throwing: ReadinessCheck = {
      name: "database",
      required: true,
      run: () => Promise.reject(new Error("ECONNREFUSED")),
    };
    expect(await readiness([throwing])).toEqual({
      status: "not-ready",
      checks: { database: { state: "down", latencyMs: null } },
    });
    vi.useFakeTimers();
    try {
      const hanging: ReadinessCheck = { name: "redis", required: false, run: () => new Promise(() => {}) };
      const answer = readiness([up("database", true), hanging]);
      await vi.advanceTimersByTimeAsync(CHECK_TIMEOUT_MS);
      expect(await answer).toEqual({
        status: "degraded",
        checks: { database: { state: "up", latencyMs: 1.5 }, redis: { state: "down", latencyMs: null } },
      });
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("GET /readyz with the database unreachable", () => {
  it("answers 503 not-ready, the database down", async () => {
    // A PostgreSQL pool aimed at a port nothing listens on: every query fails to connect.
    const port = await freePort();
    const db = new Kysely<Database>({
      dialect: new PostgresDialect({
        pool: new pg.Pool({ connectionString: `postgres://nobody@127.0.0.1:${port}/none` }),
      }),
    });
    const app = Fastify();
    registerHealth(app, [databaseCheck(db)]);
    try {
      const res = await app.inject({ method: "GET", url: "/readyz" });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ status: "not-ready", checks: { database: { state: "down", latencyMs: null } } });
      expect((await app.inject({ method: "GET", url: "/livez" })).statusCode).toBe(200);
    } finally {
      await app.close();
      await db.destroy();
    }
  });
});

/** The probes on the server's app (no REDIS_URL: the limits count in memory, so readiness has no Redis check). */
describe("GET /livez and /readyz on the app", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it("/livez answers 200 live, with no token, never stored", async () => {
    const res = await t.app.inject({ method: "GET", url: "/livez" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: "live" });
    expect(res.headers["cache-control"]).toBe("no-store");
  });

  it("/readyz answers 200 ready with the database's round trip and no Redis check, never stored, outside /api", async () => {
    const res = await t.app.inject({ method: "GET", url: "/readyz" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      status: "ready",
      checks: { database: { state: "up", latencyMs: expect.any(Number) } },
    });
    expect(res.headers["cache-control"]).toBe("no-store");
    // Outside the API prefix.
    expect((await t.app.inject({ method: "GET", url: "/api/readyz" })).statusCode).toBe(404);
  });

  it("is not rate limited and not logged per request (a probe every few seconds)", async () => {
    const statuses = new Set<number>();
    for (let i = 0; i < 50; i++) statuses.add((await t.app.inject({ method: "GET", url: "/readyz" })).statusCode);
    expect([...statuses]).toEqual([200]);
    expect(t.logs.filter((line) => /"url":"\/(readyz|livez)"/.test(line))).toEqual([]);
    // The same filter finds a request logged at info (the 404 of a path outside the probes).
    await t.app.inject({ method: "GET", url: "/readyz/x" });
    expect(t.logs.filter((line) => /"url":"\/(readyz|livez)/.test(line))).not.toEqual([]);
  });
});
