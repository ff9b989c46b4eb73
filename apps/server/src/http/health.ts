import type { FastifyInstance } from "fastify";
import { sql } from "kysely";
import type { Db } from "../db/index.ts";

/** Liveness: answers 200 while the process runs and its event loop turns (docs/deploy.md "Health endpoints"). */
export const LIVENESS_PATH = "/livez";
/** Readiness: whether the process can serve (docs/deploy.md "Health endpoints"). */
export const READINESS_PATH = "/readyz";

/** Longest a readiness check may take before it counts as down, ms. */
export const CHECK_TIMEOUT_MS = 2_000;

/** One dependency's state: up with the round trip of its check, ms (0.1 ms steps), or down (latency null). */
export interface CheckResult {
  state: "up" | "down";
  latencyMs: number | null;
}

/** A dependency readiness looks at. */
export interface ReadinessCheck {
  /** Its key under `checks` in the answer (`database`, `redis`). */
  name: string;
  /**
   * Whether the process cannot serve without it: down → "not-ready" (503). A check that is not required makes the
   * process "degraded" (still 200: it serves, with less).
   */
  required: boolean;
  /** Checks once; may reject or take long: a rejection and {@link CHECK_TIMEOUT_MS} count as down. */
  run(): Promise<CheckResult>;
}

/** The answer of GET {@link READINESS_PATH}. */
export interface Readiness {
  status: "ready" | "degraded" | "not-ready";
  checks: Record<string, CheckResult>;
}

/**
 * The database as a required check: `SELECT 1` on the app's query layer (SQLite or PostgreSQL), its round trip as the
 * latency.
 */
export function databaseCheck(db: Db): ReadinessCheck {
  return {
    name: "database",
    required: true,
    async run() {
      const start = performance.now();
      await sql`select 1`.execute(db);
      return { state: "up", latencyMs: elapsedMs(start) };
    },
  };
}

/** Milliseconds since `start` (a `performance.now()`), to 0.1 ms. */
function elapsedMs(start: number): number {
  return Math.round((performance.now() - start) * 10) / 10;
}

/** Runs `check` within {@link CHECK_TIMEOUT_MS}; a rejection or the timeout is down. */
async function runCheck(check: ReadinessCheck): Promise<CheckResult> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<CheckResult>((resolve) => {
    timer = setTimeout(() => resolve({ state: "down", latencyMs: null }), CHECK_TIMEOUT_MS);
  });
  try {
    return await Promise.race([check.run(), timeout]);
  } catch {
    return { state: "down", latencyMs: null };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Runs every check at once and rates the process: "not-ready" when a required check is down, else "degraded" when
 * any other is down, else "ready".
 */
export async function readiness(checks: readonly ReadinessCheck[]): Promise<Readiness> {
  const results = await Promise.all(checks.map(runCheck));
  let status: Readiness["status"] = "ready";
  const out: Record<string, CheckResult> = {};
  checks.forEach((check, i) => {
    const result = results[i] as CheckResult;
    out[check.name] = result;
    if (result.state !== "down") return;
    if (check.required) status = "not-ready";
    else if (status === "ready") status = "degraded";
  });
  return { status, checks: out };
}

/**
 * Serves the probes of a supervisor or load balancer, outside the API prefix, open (no token), never rate limited,
 * logged at warn and above only (a probe every few seconds would fill the log), JSON with `Cache-Control: no-store`:
 * - GET {@link LIVENESS_PATH}: 200 `{ "status": "live" }` while the process answers at all;
 * - GET {@link READINESS_PATH}: {@link Readiness}, 200 when "ready" or "degraded", 503 when "not-ready".
 * Kubernetes' liveness and readiness probes follow the same split (kubernetes.io, "Configure Liveness, Readiness and
 * Startup Probes").
 */
export function registerHealth(app: FastifyInstance, checks: readonly ReadinessCheck[]): void {
  app.get(LIVENESS_PATH, { logLevel: "warn" }, async (_request, reply) =>
    reply.header("cache-control", "no-store").send({ status: "live" }),
  );
  app.get(READINESS_PATH, { logLevel: "warn" }, async (_request, reply) => {
    const answer = await readiness(checks);
    return reply
      .code(answer.status === "not-ready" ? 503 : 200)
      .header("cache-control", "no-store")
      .send(answer);
  });
}
