/**
 * `npm run bench -- --fleet [--devices=N] [--sessions=N] [--measure=S] [--scale-out]`: the fleet figures
 * (bench/README.md (f) and (g)), and their rows for bench/results.md.
 *   (f) one server process in this process (startDevSystem of the development launcher: SQLite, the hubs, the gateway
 *       on a throwaway Mosquitto) vs the bare `ws` relay in this process;
 *   (g) with --scale-out, also the same push on PostgreSQL + Redis + Mosquitto with one and then two server processes
 *       (`node apps/server/src/server.ts`) behind nginx.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import v8 from "node:v8";
import { runInNewContext } from "node:vm";
import { startDevSystem } from "@aquapilot/dev";
import { createAuthService } from "@aquapilot/server/auth/auth-service.ts";
import { loadConfig } from "@aquapilot/server/config.ts";
import {
  type FleetOptions,
  type FleetRunResult,
  planFleet,
  provisionFleet,
  runFleetPush,
  startBareRelay,
} from "./fleet-bench.ts";
import { startFleetBroker } from "./fleet-broker.ts";
import { runScaleOut, type ScaleOutResult } from "./fleet-scale-out.ts";
import type { ResultsPart } from "./results-table.ts";
import { fmt, ratio } from "./stats.ts";

v8.setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

/** Memory of this process after a full collection, bytes. */
function settledMemory(): { rss: number; heapUsed: number } {
  gc();
  gc();
  const m = process.memoryUsage();
  return { rss: m.rss, heapUsed: m.heapUsed };
}

const MB = 1024 * 1024;
const KB = 1024;

function printRun(label: string, r: FleetRunResult): void {
  console.log(
    `  ${label.padEnd(10)} p50 ${fmt(r.latency.p50, 2)} ms   p99 ${fmt(r.latency.p99, 2)} ms   max ${fmt(r.latency.max, 1)} ms   ` +
      `${fmt(r.perSec, 0)} deliveries/s   ${fmt(r.delivered, 0)} of ${fmt(r.expected, 0)} delivered, ${fmt(r.lost, 0)} lost ` +
      `(${fmt(r.sent, 0)} device messages; ${r.sessionsConnected} sessions in ${r.clientChildren} client processes, ` +
      `${r.devicesConnected} devices)`,
  );
}

/** Parsed flags of the fleet part. */
export interface FleetFlags extends FleetOptions {
  scaleOut: boolean;
}

/**
 * Reads `--devices=N`, `--sessions=N`, `--measure=S` (seconds), `--scale-out` (defaults 10,000, 10,000, 30 s, off).
 * @throws Error on a non-positive or non-integer size.
 */
export function parseFleetFlags(flags: readonly string[]): FleetFlags {
  const value = (name: string, fallback: number) => {
    const flag = flags.find((f) => f.startsWith(`--${name}=`));
    if (!flag) return fallback;
    const n = Number(flag.slice(name.length + 3));
    if (!Number.isInteger(n) || n <= 0) throw new Error(`--${name} must be a positive integer, got ${flag}`);
    return n;
  };
  return {
    devices: value("devices", 10_000),
    sessions: value("sessions", 10_000),
    measureMs: value("measure", 30) * 1000,
    scaleOut: flags.includes("--scale-out"),
  };
}

/** The flags the fleet part understands (run.ts checks arguments against them). */
export function isFleetFlag(flag: string): boolean {
  return flag === "--fleet" || flag === "--scale-out" || /^--(devices|sessions|measure)=/.test(flag);
}

/**
 * Runs (f) and, with `scaleOut`, (g); prints every figure with its ratio to the bare relay and answers the rows and
 * note for bench/results.md.
 * @throws when a run fails (servers, brokers and children it started are stopped first).
 */
export async function runFleetBenchmarks(flags: FleetFlags): Promise<ResultsPart> {
  const options: FleetOptions = { ...flags, intervalMs: 10_000 };
  const plan = planFleet(options);
  const label = `${fmt(flags.devices, 0)} devices × 1 state / 10 s, ${fmt(flags.sessions, 0)} sessions in ${fmt(plan.families, 0)} households of 1–4`;
  console.log(`\n(f) Fleet push, one server process: ${label}, ${fmt((options.measureMs ?? 0) / 1000, 0)} s measured`);
  const load = os.loadavg().map((l) => l.toFixed(2));
  console.log(`  machine load before the run (1, 5, 15 min): ${load.join(", ")} on ${os.cpus().length} cores`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "aquapilot-fleet-"));
  const broker = await startFleetBroker(plan.devices);
  let system: Awaited<ReturnType<typeof startDevSystem>> | null = null;
  let systemRun: FleetRunResult;
  let serverBytesPerSession = 0;
  let bareRun: FleetRunResult;
  try {
    system = await startDevSystem(
      loadConfig({
        DATA_DIR: dataDir,
        PORT: "0",
        LOG_LEVEL: "warn",
        SIM_DEVICES: "0",
        MQTT_URL: broker.gatewayUrl,
        MQTT_BROKER_KIND: "plain",
        // One process: wildcard subscriptions to every device (the fleet is written into the database after the
        // start, which assigned subscriptions would only read at their 30 s resync; (g) measures those).
        MQTT_SUBSCRIPTIONS: "plain",
        RATE_LIMIT_SCALE: "1000",
      }),
    );
    const population = await provisionFleet(system.db, system.app.auth, plan);
    const before = settledMemory();
    systemRun = await runFleetPush(
      {
        mode: "system",
        brokerUrl: broker.url,
        url: system.url,
        onConnected: () => {
          const after = settledMemory();
          serverBytesPerSession = (after.rss - before.rss) / flags.sessions;
        },
      },
      population,
      options,
    );
    printRun("system", systemRun);
    await system.close();
    system = null;
    const relay = await startBareRelay(population);
    try {
      bareRun = await runFleetPush({ mode: "bare", brokerUrl: "", url: relay.url }, population, options);
    } finally {
      await relay.close();
    }
    printRun("bare ws", bareRun);
  } finally {
    await system?.close();
    await broker.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  console.log(
    `  ratio system ÷ bare: deliveries/s ${ratio(systemRun.perSec, bareRun.perSec)}, p50 ${ratio(systemRun.latency.p50, bareRun.latency.p50)}, ` +
      `p99 ${ratio(systemRun.latency.p99, bareRun.latency.p99)}   (goal: p99 ≤ 50 ms, 0 lost, ≥ ×0.50 throughput)`,
  );
  console.log(
    `  memory: server ${fmt(serverBytesPerSession / KB, 1)} KB RSS per session (this process, sessions and devices connected); ` +
      `official client ${fmt(systemRun.clientBytesPerSession / KB, 1)} KB per session; simulator ` +
      `${fmt(systemRun.simBytesPerDevice / KB, 1)} KB RSS per device (mqtt.js connection + valve model), ` +
      `${fmt((systemRun.simBytesPerDevice * flags.devices) / MB, 0)} MB for the fleet`,
  );
  const title = `Fleet push, ${label}, 1 server process`;
  const rows = [
    `| ${title} | Latency p50 (ms) | ${fmt(systemRun.latency.p50, 2)} | ${fmt(bareRun.latency.p50, 2)} | ${ratio(systemRun.latency.p50, bareRun.latency.p50)} |`,
    `| | Latency p99 (ms; goal 50) | ${fmt(systemRun.latency.p99, 2)} | ${fmt(bareRun.latency.p99, 2)} | ${ratio(systemRun.latency.p99, bareRun.latency.p99)} |`,
    `| | Deliveries per s (goal ≥ ×0.50) | ${fmt(systemRun.perSec, 0)} | ${fmt(bareRun.perSec, 0)} | ${ratio(systemRun.perSec, bareRun.perSec)} |`,
    `| | Lost (goal 0) | ${fmt(systemRun.lost, 0)} of ${fmt(systemRun.expected, 0)} | ${fmt(bareRun.lost, 0)} of ${fmt(bareRun.expected, 0)} | n/a |`,
    `| | Server memory per session (KB RSS) | ${fmt(serverBytesPerSession / KB, 1)} | n/a | n/a |`,
    `| | Simulator memory per device (KB RSS) | ${fmt(systemRun.simBytesPerDevice / KB, 1)} | n/a | n/a |`,
  ];
  let scale: ScaleOutResult | null = null;
  if (flags.scaleOut) {
    console.log(`\n(g) Fleet scale-out: the same push on PostgreSQL + Redis + Mosquitto, behind nginx`);
    scale = await runScaleOut(plan, options, async (db, dir) =>
      provisionFleet(db, createAuthService({ db, dataDir: dir }), plan),
    );
    for (const r of scale.runs) printRun(`${r.processes} process${r.processes > 1 ? "es" : ""}`, r.result);
    const [one, two] = scale.runs;
    console.log(
      `  ratio two ÷ one process: deliveries/s ${ratio(two.result.perSec, one.result.perSec)}, p99 ${ratio(two.result.latency.p99, one.result.latency.p99)}; ` +
        `two processes ÷ bare: deliveries/s ${ratio(two.result.perSec, bareRun.perSec)}, p99 ${ratio(two.result.latency.p99, bareRun.latency.p99)}`,
    );
    for (const r of scale.runs) {
      rows.push(
        `| Fleet scale-out, ${label}, ${r.processes} server process${r.processes > 1 ? "es" : ""} behind nginx (PostgreSQL, Redis, Mosquitto) | Latency p99 (ms) | ${fmt(r.result.latency.p99, 2)} | ${fmt(bareRun.latency.p99, 2)} | ${ratio(r.result.latency.p99, bareRun.latency.p99)} |`,
        `| | Latency p50 (ms) | ${fmt(r.result.latency.p50, 2)} | ${fmt(bareRun.latency.p50, 2)} | ${ratio(r.result.latency.p50, bareRun.latency.p50)} |`,
        `| | Deliveries per s | ${fmt(r.result.perSec, 0)} | ${fmt(bareRun.perSec, 0)} | ${ratio(r.result.perSec, bareRun.perSec)} |`,
        `| | Lost | ${fmt(r.result.lost, 0)} of ${fmt(r.result.expected, 0)} | ${fmt(bareRun.lost, 0)} of ${fmt(bareRun.expected, 0)} | n/a |`,
      );
    }
  }
  const cpus = os.cpus();
  const note =
    `Fleet push: measured ${new Date().toISOString().slice(0, 10)} on ${cpus.length} × ${cpus[0]?.model.trim() ?? "CPU"}, ` +
    `Node ${process.version}, load average ${load[0]} before the run; every process on the same machine: the simulator (one process, one mqtt.js connection ` +
    `per device, one shared scheduler), ${systemRun.clientChildren} processes of official @microsoft/signalr clients, ` +
    `Debian's Mosquitto, the server (SQLite, in the bench's process${scale ? "; for the scale-out: PostgreSQL, Redis and nginx from Debian too" : ""}). ` +
    `Latency: the device's state publish → a session's handler, per member session; lost: deliveries not received ` +
    `within 5 s after the window. Bare baseline: a \`ws\` relay in the bench's process forwarding the same devices' ` +
    `state payloads, on the same schedule, to every household member's socket.`;
  return { rows, note };
}
