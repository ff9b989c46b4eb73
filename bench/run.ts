/**
 * `npm run bench`: starts the whole system in this process (temporary DATA_DIR, free ports, 3 simulated softeners,
 * the seeded demo owner), then runs, one after the other and only against 127.0.0.1:
 *   (a) HTTP — family-device/get-list-by-family-id at 50 connections vs a bare Fastify route with the same query,
 *       and the same on a second system with its per-process caches off;
 *   (b) real time — device `state` publish → SignalR hub 1 client vs a bare `ws` relay;
 *   (c) telemetry ingest — 50 devices publishing telemetry, messages stored per second vs a bare Aedes broker;
 *   (d) month statistics on a year of per-minute telemetry — rollups vs one GROUP BY over the raw rows;
 * then, with a system of its own, (e) the web first screen (bench/web-bench.ts): Lighthouse mobile on
 * #/login and #/index/home vs a static page of the same first screen.
 * `npm run bench -- --fleet` runs only the fleet figures (bench/fleet-part.ts: (f) 10,000 devices and
 * 10,000 SignalR sessions vs a bare `ws` relay; (g) with --scale-out one vs two server processes behind nginx).
 * Prints each figure with its ratio to the bare baseline, then a Markdown table (also written to bench/results.md).
 * See bench/README.md for what is measured and the caveats.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { endpoints } from "@aquapilot/contract";
import { DEMO_ACCOUNT, type DevSystem, startDevSystem } from "@aquapilot/dev";
import { readFleetFile } from "@aquapilot/device-sim";
import { loadConfig } from "@aquapilot/server/config.ts";
import { signInDemo } from "./demo-sign-in.ts";
import { isFleetFlag, parseFleetFlags, runFleetBenchmarks } from "./fleet-part.ts";
import { type BareServer, type LoadResult, medianLoad, runLoad, startBareServer } from "./http-bench.ts";
import { type IngestResult, measureBareIngest, measureSystemIngest } from "./ingest-bench.ts";
import { makeStatePayloads, measureBareRelayRoundTrips, measureSystemRoundTrips } from "./realtime-bench.ts";
import { composeResults, type ResultsPart, splitResults } from "./results-table.ts";
import { measureMonthStatistics } from "./statistics-bench.ts";
import { fmt, ratio } from "./stats.ts";
import { RUNS, reportWebBench, runWebBench } from "./web-bench.ts";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const CONNECTIONS = 50;
const DURATION_SEC = 8;
/** Alternating system/bare pairs of the HTTP row (its figures are the medians of each side). */
const HTTP_PAIRS = 3;
const CHANGES = 300;
const WARMUP_CHANGES = 20;
const INGEST_DEVICES = 50;
const INGEST_WINDOW = 1000;
/** QoS 1 messages one ingest device may have unacknowledged (bench/README.md (c)). */
const INGEST_IN_FLIGHT_PER_DEVICE = 20;
const STAT_RUNS = 200;

/** Checks once that both routes answer the same devices, so the load runs compare like with like. */
async function checkSameAnswer(systemUrl: string, token: string, bareUrl: string): Promise<number> {
  const sys = (await (await fetch(systemUrl, { headers: { authorization: `Bearer ${token}` } })).json()) as {
    success: boolean;
    result: Array<{ id: string }>;
  };
  const bare = (await (await fetch(bareUrl)).json()) as Array<{ id: string }>;
  const same = sys.success && sys.result.map((d) => d.id).join() === bare.map((d) => d.id).join();
  if (!same || bare.length === 0) throw new Error(`routes disagree: ${JSON.stringify({ sys, bare })}`);
  return bare.length;
}

function printLoad(label: string, r: LoadResult): void {
  const problems = r.non2xx + r.errors > 0 ? `  (!) non-2xx ${r.non2xx}, errors/timeouts ${r.errors}` : "";
  console.log(
    `  ${label.padEnd(13)} ${fmt(r.requestsPerSec, 0).padStart(8)} req/s   p50 ${fmt(r.p50Ms)} ms   p99 ${fmt(r.p99Ms)} ms   (${r.total} requests)${problems}`,
  );
}

/**
 * (c) Telemetry ingest on a running system: the system path, then the bare Aedes broker, printed with their ratio
 * (bench/README.md (c)). Used by the server part and by `--ingest`.
 */
async function runIngestBenchmark(system: DevSystem): Promise<{ system: IngestResult; bare: IngestResult }> {
  console.log(
    `\n(c) Telemetry ingest: ${INGEST_DEVICES} devices × QoS 1 telemetry for ${DURATION_SEC} s ` +
      `(at most ${INGEST_WINDOW} in flight, ${INGEST_IN_FLIGHT_PER_DEVICE} per device), then drain`,
  );
  const ingestOptions = {
    devices: INGEST_DEVICES,
    durationMs: DURATION_SEC * 1000,
    window: INGEST_WINDOW,
    inFlightPerDevice: INGEST_IN_FLIGHT_PER_DEVICE,
  };
  const ingestSystem = await measureSystemIngest(system, ingestOptions);
  const ingestBare = await measureBareIngest(ingestOptions);
  const ingestLine = (label: string, r: IngestResult, what: string) =>
    console.log(
      `  ${label.padEnd(8)} ${fmt(r.perSec, 0).padStart(8)} msg/s ${what}   (${fmt(r.done, 0)} of ` +
        `${fmt(r.published, 0)} published in ${fmt(r.seconds, 2)} s)`,
    );
  ingestLine("system", ingestSystem, "stored (device_telemetry rows + rollups)");
  ingestLine("bare", ingestBare, "delivered to one counting subscriber");
  console.log(`  ratio system ÷ bare: msg/s ${ratio(ingestSystem.perSec, ingestBare.perSec)}`);

  return { system: ingestSystem, bare: ingestBare };
}

/** What the HTTP row asks of a running system: the demo owner's token and household, and the list's URL. */
async function listTarget(system: DevSystem): Promise<{ token: string; familyId: string; url: string }> {
  const token = (await signInDemo(system.url)).access_token;
  const { family_id: familyId } = await system.db
    .selectFrom("family_members as m")
    .innerJoin("users as u", "u.id", "m.user_id")
    .select("m.family_id")
    .where("u.email", "=", DEMO_ACCOUNT.email)
    .executeTakeFirstOrThrow();
  const url = `${system.url}${endpoints.getFamilyDevices.path}?familyId=${encodeURIComponent(familyId)}`;
  return { token, familyId, url };
}

/**
 * A system on a temporary DATA_DIR of its own (free ports, 3 simulated softeners, the demo owner), with `env` added to
 * its configuration. The caller closes it and removes `dataDir`; a failed start removes it here.
 * @throws what {@link startDevSystem} throws.
 */
async function startBenchSystem(env: Record<string, string> = {}): Promise<{ system: DevSystem; dataDir: string }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "aquapilot-bench-"));
  const config = loadConfig({
    DATA_DIR: dataDir,
    PORT: "0",
    MQTT_PORT: "0",
    LOG_LEVEL: "warn",
    SIM_DEVICES: "3",
    ...env,
  });
  try {
    return { system: await startDevSystem(config), dataDir };
  } catch (err) {
    fs.rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
}

/** Runs (a)–(d) against one system started here; returns their rows and note for bench/results.md. */
async function runServerBenchmarks(): Promise<ResultsPart> {
  const started = await startBenchSystem();
  const { dataDir } = started;
  const system = started.system;
  let bare: BareServer | null = null;
  let uncached: { system: DevSystem; dataDir: string } | null = null;
  const closeUncached = async () => {
    const u = uncached;
    uncached = null;
    if (!u) return;
    await u.system.close();
    fs.rmSync(u.dataDir, { recursive: true, force: true });
  };
  try {
    const { token, familyId, url: systemUrl } = await listTarget(system);
    bare = await startBareServer(system.db);
    const bareUrl = bare.urlFor(familyId);
    const deviceCount = await checkSameAnswer(systemUrl, token, bareUrl);
    // The same system with its per-process caches off: every request reads the token's user, the membership and
    // the list from the database, as the bare route reads the list.
    uncached = await startBenchSystem({ AUTH_CACHE_MS: "0" });
    const cold = await listTarget(uncached.system);
    let listDrops = 0;
    const stopCounting = system.bus.subscribe((e) => {
      if (e.type === "device.changed" && e.familyId === familyId) listDrops++;
    });

    // (a) HTTP
    console.log(
      `\n(a) HTTP GET ${endpoints.getFamilyDevices.path} (${deviceCount} devices), ${CONNECTIONS} connections, ` +
        `${HTTP_PAIRS} alternating system/caches-off/bare rounds of 1 s warm-up + ${DURATION_SEC} s, autocannon in a ` +
        `worker thread`,
    );
    const systemRuns: LoadResult[] = [];
    const uncachedRuns: LoadResult[] = [];
    const bareRuns: LoadResult[] = [];
    for (let i = 0; i < HTTP_PAIRS; i++) {
      systemRuns.push(await runLoad(systemUrl, { authorization: `Bearer ${token}` }, { durationSec: DURATION_SEC }));
      printLoad("system", systemRuns[i] as LoadResult);
      uncachedRuns.push(
        await runLoad(cold.url, { authorization: `Bearer ${cold.token}` }, { durationSec: DURATION_SEC }),
      );
      printLoad("caches off", uncachedRuns[i] as LoadResult);
      bareRuns.push(await runLoad(bareUrl, {}, { durationSec: DURATION_SEC }));
      printLoad("bare", bareRuns[i] as LoadResult);
    }
    stopCounting();
    await closeUncached();
    const httpSystem = medianLoad(systemRuns);
    const httpUncached = medianLoad(uncachedRuns);
    const httpBare = medianLoad(bareRuns);
    printLoad("median system", httpSystem);
    printLoad("median caches off", httpUncached);
    printLoad("median bare", httpBare);
    console.log(
      `  ratio system ÷ bare: req/s ${ratio(httpSystem.requestsPerSec, httpBare.requestsPerSec)}, ` +
        `p50 ${ratio(httpSystem.p50Ms, httpBare.p50Ms)}, p99 ${ratio(httpSystem.p99Ms, httpBare.p99Ms)}; ` +
        `caches off ÷ bare: req/s ${ratio(httpUncached.requestsPerSec, httpBare.requestsPerSec)}; the household's ` +
        `list dropped ${listDrops} times by its softeners' reports during the runs`,
    );

    // (b) Real time
    const fleetDevice = system.fleet.devices[0];
    const identity = readFleetFile(path.join(dataDir, "sim-fleet.json")).devices.find((d) => d.mac === fleetDevice.mac);
    if (!identity) throw new Error(`device ${fleetDevice.mac} missing from sim-fleet.json`);
    const payloads = makeStatePayloads(fleetDevice.state(), WARMUP_CHANGES + CHANGES);
    await fleetDevice.stop(); // the benchmark's mqtt.js client takes over this device's identity
    console.log(
      `\n(b) Device state change → SignalR client (${CHANGES} changes one at a time after ${WARMUP_CHANGES} warm-up)`,
    );
    const rtOptions = { count: CHANGES, warmup: WARMUP_CHANGES, timeoutMs: 5000 };
    const rtSystem = await measureSystemRoundTrips({
      baseUrl: system.url,
      brokerUrl: system.deviceLink.brokerUrl,
      token,
      device: { mac: identity.mac, secret: identity.secret },
      payloads,
      options: rtOptions,
    });
    const rtBare = await measureBareRelayRoundTrips(payloads, rtOptions);
    const line = (label: string, r: typeof rtSystem) =>
      console.log(
        `  ${label.padEnd(8)} p50 ${fmt(r.summary.p50, 2)} ms   p99 ${fmt(r.summary.p99, 2)} ms   ` +
          `mean ${fmt(r.summary.mean, 2)} ms   max ${fmt(r.summary.max, 2)} ms   ` +
          `(${r.summary.count} received, ${r.lost} lost, payload ${fmt(r.payloadBytes, 0)} B)`,
      );
    line("system", rtSystem);
    line("bare ws", rtBare);
    console.log(
      `  ratio system ÷ bare: p50 ${ratio(rtSystem.summary.p50, rtBare.summary.p50)}, ` +
        `p99 ${ratio(rtSystem.summary.p99, rtBare.summary.p99)}`,
    );

    // (c) Telemetry ingest
    const { system: ingestSystem, bare: ingestBare } = await runIngestBenchmark(system);

    // (d) Month statistics on a year of data
    console.log(`\n(d) Month statistics (reportTimeType 1) on a year of per-minute telemetry, ${STAT_RUNS} runs each`);
    const st = await measureMonthStatistics(system.db, { runs: STAT_RUNS });
    console.log(
      `  loaded ${fmt(st.rows, 0)} rows in ${fmt(st.loadSeconds, 1)} s; backfillRollups wrote ${fmt(st.hours, 0)} ` +
        `hours in ${fmt(st.backfillSeconds, 1)} s; June 2025: ${st.days} days, ${fmt(st.monthWaterL, 0)} L`,
    );
    const statLine = (label: string, s: typeof st.system) =>
      console.log(
        `  ${label.padEnd(8)} p50 ${fmt(s.p50, 2)} ms   p99 ${fmt(s.p99, 2)} ms   mean ${fmt(s.mean, 2)} ms   max ${fmt(s.max, 2)} ms`,
      );
    statLine("system", st.system);
    statLine("bare", st.bare);
    console.log(
      `  ratio system ÷ bare: p50 ${ratio(st.system.p50, st.bare.p50)}, p99 ${ratio(st.system.p99, st.bare.p99)} ` +
        `(rollups answer in ${fmt((100 * st.system.p50) / st.bare.p50, 1)} % of the raw query's p50)`,
    );

    const cpus = os.cpus();
    const rows = [
      `| HTTP family-device list, ${CONNECTIONS} conn, median of ${HTTP_PAIRS} × ${DURATION_SEC} s | Throughput (req/s; goal ≥ ×0.80) | ${fmt(httpSystem.requestsPerSec, 0)} | ${fmt(httpBare.requestsPerSec, 0)} | ${ratio(httpSystem.requestsPerSec, httpBare.requestsPerSec)} |`,
      `| | Latency p50 (ms) | ${fmt(httpSystem.p50Ms)} | ${fmt(httpBare.p50Ms)} | ${ratio(httpSystem.p50Ms, httpBare.p50Ms)} |`,
      `| | Latency p99 (ms; goal 20) | ${fmt(httpSystem.p99Ms)} | ${fmt(httpBare.p99Ms)} | ${ratio(httpSystem.p99Ms, httpBare.p99Ms)} |`,
      `| HTTP family-device list, the same rounds, per-process caches off (AUTH_CACHE_MS=0) | Throughput (req/s) | ${fmt(httpUncached.requestsPerSec, 0)} | ${fmt(httpBare.requestsPerSec, 0)} | ${ratio(httpUncached.requestsPerSec, httpBare.requestsPerSec)} |`,
      `| | Latency p99 (ms) | ${fmt(httpUncached.p99Ms)} | ${fmt(httpBare.p99Ms)} | ${ratio(httpUncached.p99Ms, httpBare.p99Ms)} |`,
      `| Device state → SignalR client, ${CHANGES} sequential changes | Latency p50 (ms) | ${fmt(rtSystem.summary.p50, 2)} | ${fmt(rtBare.summary.p50, 2)} | ${ratio(rtSystem.summary.p50, rtBare.summary.p50)} |`,
      `| | Latency p99 (ms) | ${fmt(rtSystem.summary.p99, 2)} | ${fmt(rtBare.summary.p99, 2)} | ${ratio(rtSystem.summary.p99, rtBare.summary.p99)} |`,
      `| Telemetry ingest, ${INGEST_DEVICES} devices, ${DURATION_SEC} s + drain | Messages stored / delivered per s | ${fmt(ingestSystem.perSec, 0)} | ${fmt(ingestBare.perSec, 0)} | ${ratio(ingestSystem.perSec, ingestBare.perSec)} |`,
      `| Month statistics, 1 device × ${fmt(st.rows, 0)} per-minute rows, ${STAT_RUNS} runs | Latency p50 (ms) | ${fmt(st.system.p50, 2)} | ${fmt(st.bare.p50, 2)} | ${ratio(st.system.p50, st.bare.p50)} |`,
      `| | Latency p99 (ms) | ${fmt(st.system.p99, 2)} | ${fmt(st.bare.p99, 2)} | ${ratio(st.system.p99, st.bare.p99)} |`,
    ];
    const note =
      `Measured ${new Date().toISOString().slice(0, 10)} on ${cpus.length} × ${cpus[0]?.model.trim() ?? "CPU"}, ` +
      `Node ${process.version}, SQLite (WAL), embedded Aedes broker; load generator, clients and server on the ` +
      `same machine. Bare baselines: a Fastify route running the same Kysely query with no auth, envelope or ` +
      `validation; a \`ws\` relay forwarding the same ${fmt(rtSystem.payloadBytes, 0)}-byte payloads socket to socket; ` +
      `a plain Aedes broker with one subscriber that only counts the same telemetry; one \`SELECT date(ts), ` +
      `sum(interval_water_l) … GROUP BY 1\` over the month's raw telemetry rows.`;
    return { rows, note };
  } finally {
    await bare?.app.close();
    await system.close();
    await closeUncached();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const USAGE =
  "usage: npm run bench [-- server | web] [--built] [--reports=DIR]\n" +
  "       npm run bench -- --fleet [--devices=N] [--sessions=N] [--measure=SECONDS] [--scale-out]\n" +
  "       npm run bench -- --ingest";

/**
 * `--ingest`: only (c), on a system of its own started like the server part's; prints the figures and writes nothing
 * (bench/results.md keeps its rows). A quick check of the ingest path, about 30 s.
 */
async function runIngestOnly(): Promise<void> {
  const { system, dataDir } = await startBenchSystem();
  try {
    await runIngestBenchmark(system);
  } finally {
    await system.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * `npm run bench [-- server | web] [--built] [--reports=DIR]`, or `npm run bench -- --ingest` (only (c), nothing
 * written): both parts by default, the server benchmarks (a)–(d)
 * first, then the web benchmark (e), never at the same time; `server` or `web` runs only that part (the
 * other part's rows in bench/results.md stay). `--built`: the web app is already built, skip the build;
 * `--reports=DIR`: keep every Lighthouse run's HTML report in DIR. Prints the table and writes bench/results.md
 * (a failed server part keeps its previous rows; the web part still runs). `--fleet` runs the fleet part alone
 * (bench/fleet-part.ts; its sizes `--devices=N --sessions=N`, default 10,000 each, `--measure=S` seconds, default 30,
 * and `--scale-out`); the other parts' rows stay.
 * @throws Error on an unknown argument or when a part fails (the server part's error after the web part ran).
 */
async function main(argv: string[]): Promise<void> {
  const parts = argv.filter((a) => !a.startsWith("--"));
  const flags = argv.filter((a) => a.startsWith("--"));
  const unknown = [
    ...parts.filter((p) => p !== "server" && p !== "web"),
    ...flags.filter((f) => f !== "--built" && f !== "--ingest" && !f.startsWith("--reports=") && !isFleetFlag(f)),
  ];
  if (unknown.length) throw new Error(`unknown argument ${unknown.join(" ")}\n${USAGE}`);
  if (flags.includes("--ingest")) {
    if (parts.length > 0 || flags.includes("--fleet")) throw new Error(`--ingest runs alone\n${USAGE}`);
    await runIngestOnly();
    return;
  }
  const resultsFile = path.join(HERE, "results.md");
  const previous = splitResults(fs.existsSync(resultsFile) ? fs.readFileSync(resultsFile, "utf8") : null);
  if (flags.includes("--fleet")) {
    if (parts.length) throw new Error(`--fleet runs alone\n${USAGE}`);
    const fleet = await runFleetBenchmarks(parseFleetFlags(flags));
    const table = composeResults(previous.server, previous.web, fleet);
    console.log(`\n${table}`);
    fs.writeFileSync(resultsFile, table);
    console.log(`(written to ${path.relative(process.cwd(), resultsFile)})`);
    return;
  }
  if (flags.some((f) => isFleetFlag(f))) throw new Error(`${flags.join(" ")} only go with --fleet\n${USAGE}`);
  const runServer = parts.length === 0 || parts.includes("server");
  const runWeb = parts.length === 0 || parts.includes("web");
  const reportsDir = flags.find((f) => f.startsWith("--reports="))?.slice("--reports=".length) || null;

  // A failing server part does not cost the web figures: its old rows stay, and the error is thrown at the end.
  let failure: unknown = null;
  let server = previous.server;
  if (runServer) {
    try {
      server = await runServerBenchmarks();
    } catch (err) {
      failure = err;
      console.error("server benchmarks failed (their rows in results.md are kept):", err);
    }
  }
  let web = previous.web;
  if (runWeb) {
    console.log(
      `\n(e) Web first screen: Lighthouse mobile × ${RUNS} on a static page, #/login, and #/index/home and #/Device signed in`,
    );
    const result = await runWebBench({
      built: flags.includes("--built"),
      reportsDir: reportsDir && path.resolve(reportsDir),
    });
    web = reportWebBench(result);
  }
  const table = composeResults(server, web, previous.fleet);
  console.log(`\n${table}`);
  fs.writeFileSync(resultsFile, table);
  console.log(`(written to ${path.relative(process.cwd(), resultsFile)})`);
  if (failure) throw failure;
}

main(process.argv.slice(2)).then(
  () => {
    // Everything is closed, so the process ends by itself; say so loudly if a handle still holds it open.
    setTimeout(() => {
      console.error("bench: a handle kept the process alive 5 s after closing; exiting");
      process.exit(1);
    }, 5000).unref();
  },
  (err: unknown) => {
    console.error(err);
    process.exitCode = 1;
    setTimeout(() => process.exit(1), 5000).unref();
  },
);
