/**
 * (g) Fleet scale-out: the fleet push of fleet-bench.ts on the scaled shape of docs/deploy.md — a throwaway
 * PostgreSQL, redis-server and Mosquitto (fleet-broker.ts) from Debian's packages, and one, then two server processes
 * (`node apps/server/src/server.ts`, DATABASE_URL, REDIS_URL, MQTT_URL with shared subscriptions, one DATA_DIR)
 * behind a throwaway nginx (round robin, no stickiness). Sessions and devices connect through nginx and the broker
 * exactly as in (f).
 */
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type Db, openDatabase } from "@aquapilot/server/db/index.ts";
import { freePort, waitForPort } from "@aquapilot/server/test/free-port.ts";
import { nginxBinary, startThrowawayNginx } from "@aquapilot/server/test/nginx.ts";
import { findPgBin, startThrowawayPostgres } from "@aquapilot/server/test/postgres-server.ts";
import { redisServerBinary, startThrowawayRedis } from "@aquapilot/server/test/redis-server.ts";
import {
  type FleetOptions,
  type FleetPlan,
  type FleetPopulation,
  type FleetRunResult,
  runFleetPush,
} from "./fleet-bench.ts";
import { startFleetBroker } from "./fleet-broker.ts";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** One and two processes' runs. */
export interface ScaleOutResult {
  runs: Array<{ processes: number; result: FleetRunResult }>;
}

/**
 * Starts `node apps/server/src/server.ts` with `env` and resolves once it prints "AquaPilot is running at" and
 * listens on `port`; `stop()` ends it with SIGTERM (SIGKILL after 15 s).
 * @throws with its output when it exits or does not start within 60 s.
 */
async function startServerProcess(port: number, env: Record<string, string>): Promise<{ stop: () => Promise<void> }> {
  const child: ChildProcess = spawn(process.execPath, ["apps/server/src/server.ts"], {
    cwd: REPO,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? "/tmp", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const keep = (d: Buffer) => {
    output = (output + d.toString()).slice(-16_384);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const until = Date.now() + 60_000;
  while (!output.includes("AquaPilot is running at")) {
    if (child.exitCode !== null || Date.now() > until) {
      child.kill("SIGKILL");
      throw new Error(`server on ${port} did not start:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  await waitForPort(port, `server ${port}`);
  return {
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/**
 * Runs the push of `plan` once with one server process and once with two, each on fresh PostgreSQL, Redis and
 * Mosquitto servers (so the second run inherits no rows, sessions or retained messages of the first). `provision`
 * writes the plan into the migrated database (with `dataDir`'s JWT key) and answers the population.
 * @throws when a program is missing (PostgreSQL, redis-server, Mosquitto, nginx) or a run fails; everything started
 *   is stopped first.
 */
export async function runScaleOut(
  plan: FleetPlan,
  options: FleetOptions,
  provision: (db: Db, dataDir: string) => Promise<FleetPopulation>,
): Promise<ScaleOutResult> {
  const pgBin = findPgBin();
  const redisBin = redisServerBinary();
  const nginx = nginxBinary();
  if (!pgBin || !redisBin || !nginx) {
    throw new Error(
      "scale-out needs postgresql, redis-server and nginx (apt-get install postgresql redis-server nginx)",
    );
  }
  const runs: ScaleOutResult["runs"] = [];
  for (const processes of [1, 2]) {
    const stops: Array<() => Promise<void> | void> = [];
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "aquapilot-fleet-scale-"));
    stops.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    try {
      const pg = await startThrowawayPostgres(pgBin);
      stops.push(() => pg.stop());
      const redis = await startThrowawayRedis(redisBin);
      stops.push(() => redis.stop());
      const broker = await startFleetBroker(plan.devices);
      stops.push(() => broker.close());
      const { db } = await openDatabase({ databaseUrl: pg.url, dataDir });
      let population: FleetPopulation;
      try {
        population = await provision(db, dataDir);
      } finally {
        await db.destroy();
      }
      const ports: number[] = [];
      for (let i = 0; i < processes; i++) {
        const port = await freePort();
        ports.push(port);
        const server = await startServerProcess(port, {
          APP_ENV: "test",
          PORT: String(port),
          DATABASE_URL: pg.url,
          REDIS_URL: redis.url,
          MQTT_URL: broker.gatewayUrl,
          MQTT_BROKER_KIND: "plain",
          DATA_DIR: dataDir,
          GATEWAY_CLIENT_ID: `aquapilot-gw-fleet-${i}`,
          SIM_DEVICES: "0",
          LOG_LEVEL: "warn",
          RATE_LIMIT_SCALE: "1000",
        });
        stops.push(() => server.stop());
      }
      // A proxied WebSocket holds two connections; no one nginx worker may hold more than the 20,000 files allowed.
      const balancer = await startThrowawayNginx(
        nginx,
        ports.map((p) => `127.0.0.1:${p}`),
        { workers: 2, workerConnections: Math.min(19_000, Math.max(4096, options.sessions * 2 + 1000)) },
      );
      stops.push(() => balancer.stop());
      const result = await runFleetPush(
        { mode: "system", brokerUrl: broker.url, url: balancer.url },
        population,
        options,
      );
      runs.push({ processes, result });
    } finally {
      for (const stop of stops.reverse()) await stop();
    }
  }
  return { runs };
}
