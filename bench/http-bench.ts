/**
 * Benchmark (a): the family device list over HTTP (spec §7 family-device/get-list-by-family-id) through the whole
 * server — bearer token check, zod validation, membership check, the household's answer (query, ABP envelope,
 * serialisation; kept per process until a bus event changes it) — against a bare Fastify route that runs
 * the same Kysely query on the same database and returns the rows as they come.
 */
import type { AddressInfo } from "node:net";
import type { Db } from "@aquapilot/server/db/index.ts";
import { familyDeviceRows } from "@aquapilot/server/modules/family-device/service.ts";
import autocannon from "autocannon";
import Fastify, { type FastifyInstance } from "fastify";
import { median } from "./stats.ts";

/** Load parameters of one autocannon run. */
export interface LoadOptions {
  /** Concurrent keep-alive connections (default 50). */
  connections?: number;
  /** Measured run, seconds (default 8). */
  durationSec?: number;
  /** Discarded run before the measured one, seconds (default 1). */
  warmupSec?: number;
  /** Worker threads generating load (default 1: off the server's event loop; 0: the server's own thread). */
  workers?: number;
}

/** What one load run measured: throughput in req/s (mean of per-second samples) and latency in ms. */
export interface LoadResult {
  url: string;
  requestsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  /** Completed requests in the measured run. */
  total: number;
  /** Answers that were not 2xx (a non-zero count means the figure is not about the happy path). */
  non2xx: number;
  /** Socket errors plus timeouts. */
  errors: number;
}

/**
 * Runs autocannon (programmatic API) with GET on `url` and returns its figures. Only ever pointed at 127.0.0.1.
 * @throws when autocannon rejects the options or cannot run.
 */
export async function runLoad(
  url: string,
  headers: Record<string, string> = {},
  options: LoadOptions = {},
): Promise<LoadResult> {
  const connections = options.connections ?? 50;
  const warmupSec = options.warmupSec ?? 1;
  const result = await autocannon({
    url,
    method: "GET",
    headers,
    connections,
    duration: options.durationSec ?? 8,
    timeout: 10,
    workers: options.workers ?? 1,
    ...(warmupSec > 0 ? { warmup: { connections, duration: warmupSec } } : {}),
  });
  return {
    url,
    requestsPerSec: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    total: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

/**
 * The per-figure median of several runs of one URL (throughput, p50 and p99 each on its own, so they may come from
 * different runs; totals, non-2xx answers and errors summed). The HTTP row alternates the system and the bare route
 * (bench/run.ts): on this shared 2-core machine one route's throughput moved ×2 between runs minutes apart, so a
 * single run of each compared two moments of the machine more than the two routes.
 * @throws Error when `runs` is empty.
 */
export function medianLoad(runs: readonly LoadResult[]): LoadResult {
  const first = runs[0];
  if (!first) throw new Error("medianLoad: no runs");
  return {
    url: first.url,
    requestsPerSec: median(runs.map((r) => r.requestsPerSec)),
    p50Ms: median(runs.map((r) => r.p50Ms)),
    p99Ms: median(runs.map((r) => r.p99Ms)),
    total: runs.reduce((n, r) => n + r.total, 0),
    non2xx: runs.reduce((n, r) => n + r.non2xx, 0),
    errors: runs.reduce((n, r) => n + r.errors, 0),
  };
}

/** A running bare baseline server. */
export interface BareServer {
  app: FastifyInstance;
  /** Full URL of the bare route for `familyId`, e.g. http://127.0.0.1:41234/family-devices?familyId=… */
  urlFor(familyId: string): string;
}

/**
 * Starts a bare Fastify instance on 127.0.0.1 and a free port with one route, `GET /family-devices?familyId=`,
 * that answers {@link familyDeviceRows} as plain JSON: no auth, no envelope, no validation, no logging.
 * Close it with `app.close()`.
 */
export async function startBareServer(db: Db): Promise<BareServer> {
  const app = Fastify({ logger: false });
  app.get("/family-devices", async (request) => {
    const { familyId } = request.query as { familyId: string };
    return familyDeviceRows(db, familyId);
  });
  await app.listen({ host: "127.0.0.1", port: 0 });
  const { port } = app.server.address() as AddressInfo;
  return {
    app,
    urlFor: (familyId) => `http://127.0.0.1:${port}/family-devices?familyId=${encodeURIComponent(familyId)}`,
  };
}
