import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { fileURLToPath } from "node:url";
import { endpoints } from "@aquapilot/contract";
import { DEMO_ACCOUNT } from "@aquapilot/dev";
import { afterAll, describe, expect, it } from "vitest";
import { call } from "../test/call.ts";
import { ENGINES, openTestDatabase, type TestDatabase } from "../test/databases.ts";

/**
 * Crash suite: the real server process as `npm start` runs it (the development launcher `node apps/dev/src/main.ts`,
 * Node's own type stripping, with its simulated softeners and the embedded broker) is killed with SIGKILL in the middle of a burst of acknowledged writes —
 * after-sales requests, device renames and commands through the device-control API answered by the simulator — then
 * started again on the same DATA_DIR / database. Every write the server acknowledged (HTTP 200) must be there after the restart.
 *
 * The process is the server itself (no wrapper process between), so SIGKILL reaches it.
 */

const SERVER_DIR = fileURLToPath(new URL("..", import.meta.url));
const SERVER_ENTRY = fileURLToPath(new URL("../../dev/src/main.ts", import.meta.url));
const START_TIMEOUT_MS = 90_000;
/** The kill comes once this many writes were acknowledged (plus a random 0–300 ms), or after 8 s of burst. */
const KILL_AFTER_ACKS = 150;

interface ServerProcess {
  child: ChildProcess;
  url: string;
  output: () => string;
  exited: Promise<NodeJS.Signals | number | null>;
}

/** Starts the development launcher with `env` and resolves once it prints where it runs. @throws when it exits or hangs. */
function startServer(env: NodeJS.ProcessEnv): Promise<ServerProcess> {
  const child = spawn(process.execPath, [SERVER_ENTRY], {
    cwd: SERVER_DIR,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let text = "";
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
    child.once("exit", (code, signal) => resolve(signal ?? code)),
  );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`server did not start in ${START_TIMEOUT_MS} ms:\n${text.slice(-4000)}`));
    }, START_TIMEOUT_MS);
    const onData = (chunk: Buffer) => {
      text += chunk.toString();
      const match = /AquaPilot is running at (http:\/\/\S+)/.exec(text);
      if (match) {
        clearTimeout(timer);
        resolve({ child, url: match[1], output: () => text, exited });
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    void exited.then((how) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${how}) before it was ready:\n${text.slice(-4000)}`));
    });
  });
}

/** A request's time limit (20 s, as `signal` of each `call`): a request the kill cut off must not hang the test. */
const limit = () => AbortSignal.timeout(20_000);

async function signIn(url: string): Promise<string> {
  const res = await fetch(`${url}/connect/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "password",
      username: DEMO_ACCOUNT.email,
      password: DEMO_ACCOUNT.password,
    }),
  });
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

interface Device {
  id: string;
  name: string;
  online: boolean;
}

async function devicesOf(url: string, token: string, familyId: string): Promise<Device[]> {
  const r = await call({ url }, endpoints.getFamilyDevices, { as: token, signal: limit(), query: { familyId } });
  if (r.status !== 200) throw new Error(`device list: ${r.status}`);
  return r.result as Device[];
}

/** What the burst got acknowledged (HTTP 200). */
interface Acknowledged {
  afterSales: Array<{ id: string; description: string }>;
  /** deviceId → index of the last acknowledged rename (name `crash-<d>-<index>`) and how many were acknowledged */
  renames: Map<string, { last: number; count: number }>;
  renameCount: number;
  commands: Array<{ commandId: string; status: string }>;
  /** requests cut off by the kill (sent, never answered) */
  inFlightLost: number;
}

const figures: string[] = [];
afterAll(() => {
  for (const line of figures) console.log(line);
});

describe.each(ENGINES)("crash suite: SIGKILL during a burst of writes, on %s", (engine) => {
  let database: TestDatabase | undefined;
  let server: ServerProcess | undefined;

  afterAll(async () => {
    if (server && server.child.exitCode === null && server.child.signalCode === null) {
      server.child.kill("SIGTERM");
      await Promise.race([server.exited, new Promise((r) => setTimeout(r, 10_000))]);
      if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill("SIGKILL");
    }
    await database?.close();
  });

  it("0 acknowledged after-sales, renames or commands lost", async () => {
    database = await openTestDatabase(engine);
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      APP_ENV: "test",
      HOST: "127.0.0.1",
      PORT: "0",
      MQTT_PORT: "0",
      DATA_DIR: database.dataDir,
      SIM_DEVICES: "2",
      SIM_TIME_SCALE: "1",
      LOG_LEVEL: "warn",
    };
    for (const name of ["DATABASE_URL", "MQTT_URL", "REDIS_URL", "SMTP_URL", "MQTT_PUBLIC_URL"]) delete env[name];
    if (database.databaseUrl) env.DATABASE_URL = database.databaseUrl;

    server = await startServer(env);
    const token = await signIn(server.url);
    const families = await call(server, endpoints.getFamilies, { as: token, signal: limit() });
    const familyId = families.result.items[0].id;
    const url = server.url;
    const until = Date.now() + 30_000;
    let devices = await devicesOf(url, token, familyId);
    while (!devices.every((d) => d.online) && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 200));
      devices = await devicesOf(url, token, familyId);
    }
    expect(devices).toHaveLength(2);
    expect(devices.every((d) => d.online)).toBe(true);

    // ---- the burst ----
    const acked: Acknowledged = { afterSales: [], renames: new Map(), renameCount: 0, commands: [], inFlightLost: 0 };
    const total = () => acked.afterSales.length + acked.renameCount + acked.commands.length;
    let killed = false;
    /** Runs `step` again and again until the kill; a request cut off by it is counted, not acknowledged. */
    const worker = async (step: (n: number) => Promise<void>) => {
      for (let n = 0; !killed; n++) {
        try {
          await step(n);
        } catch {
          if (killed) acked.inFlightLost++;
          else await new Promise((r) => setTimeout(r, 20));
        }
      }
    };
    const afterSaleWorker = (w: number) =>
      worker(async (n) => {
        const description = `crash ${engine} worker ${w} request ${n}`;
        const r = await call({ url }, endpoints.createAfterSale, {
          as: token,
          signal: limit(),
          body: { deviceId: devices[n % devices.length].id, description },
        });
        if (r.status === 200) {
          acked.afterSales.push({ id: r.result.id, description });
        }
      });
    const renameWorker = (d: number) =>
      worker(async (n) => {
        const deviceId = devices[d].id;
        const r = await call({ url }, endpoints.updateDeviceName, {
          as: token,
          signal: limit(),
          query: { deviceId, name: `crash-${d}-${n}` },
        });
        if (r.status === 200) {
          acked.renames.set(deviceId, { last: n, count: (acked.renames.get(deviceId)?.count ?? 0) + 1 });
          acked.renameCount++;
        }
      });
    const commandWorker = (d: number) =>
      worker(async () => {
        const commandId = randomUUID();
        const r = await call({ url }, endpoints.controlDevice, {
          as: token,
          signal: limit(),
          query: { deviceId: devices[d].id, commandId },
          body: { command: "sync-time" },
        });
        if (r.status === 200) {
          acked.commands.push({ commandId, status: r.result.status });
        }
      });
    const workers = [
      ...[0, 1, 2, 3].map(afterSaleWorker),
      ...devices.map((_, d) => renameWorker(d)),
      ...devices.flatMap((_, d) => [commandWorker(d), commandWorker(d)]),
    ];
    const burstStarted = Date.now();
    while (total() < KILL_AFTER_ACKS && Date.now() - burstStarted < 8000) await new Promise((r) => setTimeout(r, 10));
    await new Promise((r) => setTimeout(r, Math.random() * 300));
    // kill -9 while requests are in flight: no shutdown hook runs, nothing is flushed by the server.
    killed = true;
    server.child.kill("SIGKILL");
    expect(await server.exited).toBe("SIGKILL");
    const burstMs = Date.now() - burstStarted;
    await Promise.all(workers);
    expect(acked.afterSales.length).toBeGreaterThan(0);
    expect(acked.renameCount).toBeGreaterThan(0);
    expect(acked.commands.length).toBeGreaterThan(0);

    // ---- restart on the same DATA_DIR / database and look for every acknowledged write ----
    server = await startServer(env);
    const after = server.url;
    // The session of the first start survived as well: its access token still works.
    const found = await call({ url: after }, endpoints.getAfterSaleList, {
      as: token,
      signal: limit(),
      query: { maxResultCount: 1000 },
    });
    expect(found.status).toBe(200);
    const stored = new Map<string, string>();
    for (let skip = 0; ; skip += 1000) {
      const page = await call({ url: after }, endpoints.getAfterSaleList, {
        as: token,
        signal: limit(),
        query: { maxResultCount: 1000, skipCount: skip },
      });
      const items = page.result.items;
      for (const item of items) stored.set(item.id, item.description);
      if (items.length < 1000) break;
    }
    const lostAfterSales = acked.afterSales.filter((a) => stored.get(a.id) !== a.description);
    expect(lostAfterSales).toEqual([]);

    const names = new Map((await devicesOf(after, token, familyId)).map((d) => [d.id, d.name]));
    const lostRenames: string[] = [];
    let renamesKept = 0;
    for (const [deviceId, { last, count }] of acked.renames) {
      const d = devices.findIndex((x) => x.id === deviceId);
      // Renames of one device were sequential: its final name must be the last acknowledged one, or the one after it
      // (sent, committed, its answer cut off by the kill). Then every acknowledged rename of it held, in order.
      if ([`crash-${d}-${last}`, `crash-${d}-${last + 1}`].includes(names.get(deviceId) ?? "")) renamesKept += count;
      else lostRenames.push(`${deviceId}: acknowledged crash-${d}-${last}, found ${names.get(deviceId)}`);
    }
    expect(lostRenames).toEqual([]);

    const lostCommands: string[] = [];
    for (const c of acked.commands) {
      const r = await call({ url: after }, endpoints.getCommandStatus, {
        as: token,
        signal: limit(),
        query: { commandId: c.commandId },
      });
      const status = (r.result as { status?: string } | undefined)?.status;
      if (r.status !== 200 || status !== c.status) lostCommands.push(`${c.commandId}: ${r.status} ${status}`);
    }
    expect(lostCommands).toEqual([]);

    const acknowledged = total();
    const foundCount =
      acked.afterSales.length - lostAfterSales.length + renamesKept + acked.commands.length - lostCommands.length;
    expect(foundCount).toBe(acknowledged);
    figures.push(
      `crash (${engine}): SIGKILL after ${burstMs} ms of burst; ${acknowledged} acknowledged writes ` +
        `(${acked.afterSales.length} after-sales, ${acked.renameCount} renames, ${acked.commands.length} commands), ` +
        `${foundCount} found after restart, 0 lost; ${stored.size} after-sales stored in all; ` +
        `${acked.inFlightLost} requests cut off unacknowledged`,
    );
  }, 240_000);
});
