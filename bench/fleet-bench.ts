/**
 * Fleet push (goal: p99 ≤ 50 ms, none lost): N simulated devices, each reporting its state once per 10 s through the
 * real broker (Mosquitto), and M app sessions of the official SignalR client spread over households of 1–4 members;
 * device message → every member's session, latency p50/p99 and lost deliveries, against a bare `ws` relay fanning the
 * same payloads out to the same number of sockets. The devices run in one child process (createFleet: one MQTT
 * connection each, one shared scheduler), the sessions in child processes of at most {@link SESSIONS_PER_CHILD}
 * each. bench/README.md (f) and (g).
 */
import { type ChildProcess, fork } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Rng } from "@aquapilot/device-sim";
import type { AuthService } from "@aquapilot/server/auth/auth-service.ts";
import type { Db } from "@aquapilot/server/db/index.ts";
import { WebSocketServer } from "ws";
import type { ClientsStart, FleetRecord, SimStart } from "./fleet-worker.ts";
import { type LatencySummary, summarise } from "./stats.ts";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const WORKER = path.join(HERE, "fleet-worker.ts");

/** Sessions held by one client child process (the official client costs ~100 KB and a few timers per session). */
export const SESSIONS_PER_CHILD = 2500;

/** Sizes and durations of one fleet run. */
export interface FleetOptions {
  devices: number;
  sessions: number;
  /** Real ms between two reports of one device (default 10 000). */
  intervalMs?: number;
  /** Measured window, ms (default 30 000), after a warm-up of one interval. */
  measureMs?: number;
  /** How long after the window deliveries of its messages still count, ms (default 5 000). */
  graceMs?: number;
  /** Seed of the households' sizes (default 14). */
  seed?: number;
}

/** A provisioned fleet: devices with credentials, sessions with tokens, and who belongs to which household. */
export interface FleetPopulation {
  devices: Array<{ mac: string; secret: string; family: number }>;
  sessions: Array<{ index: number; token: string; family: number }>;
  families: number;
}

/** What one run measured. */
export interface FleetRunResult {
  /** Device messages sent in the window. */
  sent: number;
  /** Deliveries expected (each message × its household's members) and received within the grace time. */
  expected: number;
  delivered: number;
  lost: number;
  /** Deliveries per second over the window. */
  perSec: number;
  latency: LatencySummary;
  /** Memory of the child processes: per device (simulator) and per session (clients), bytes RSS. */
  simBytesPerDevice: number;
  clientBytesPerSession: number;
  clientChildren: number;
  sessionsConnected: number;
  devicesConnected: number;
}

/**
 * Households of 1–4 members (uniform, seeded) until `sessions` members exist; devices are dealt to the households in
 * turn, so with as many devices as sessions each household has two or three.
 * @returns for each session its household, and the number of households.
 */
export function planFamilies(sessions: number, seed = 14): { familyOf: number[]; families: number } {
  const rng = new Rng(seed);
  const familyOf: number[] = [];
  let family = 0;
  while (familyOf.length < sessions) {
    const size = 1 + Math.floor(rng.next() * 4);
    for (let i = 0; i < size && familyOf.length < sessions; i++) familyOf.push(family);
    family += 1;
  }
  return { familyOf, families: family };
}

/** A planned fleet before it is written anywhere: devices with credentials and each session's household. */
export interface FleetPlan {
  devices: FleetPopulation["devices"];
  familyOf: number[];
  families: number;
}

/**
 * Plans the fleet of `options`: the households ({@link planFamilies}) and `devices` devices dealt to them (MAC
 * `0B` + 10 hex digits of the index, a random secret each).
 */
export function planFleet(options: FleetOptions): FleetPlan {
  const { familyOf, families } = planFamilies(options.sessions, options.seed);
  const devices = Array.from({ length: options.devices }, (_, i) => ({
    mac: `0B${i.toString(16).toUpperCase().padStart(10, "0")}`,
    secret: randomBytes(18).toString("base64url"),
    family: i % families,
  }));
  return { devices, familyOf, families };
}

/**
 * Writes a planned fleet into the server's database directly (rows as the services leave them): one user per
 * session, one household per planned family (its first member administers it), the devices in their households (the
 * external broker checks their secrets; `secret_hash` is not used then), and signs every user in with
 * `auth.issueTokens` (a session row and an access token each, as the password grant issues).
 */
export async function provisionFleet(db: Db, auth: AuthService, plan: FleetPlan): Promise<FleetPopulation> {
  const { familyOf, families, devices } = plan;
  const now = new Date().toISOString();
  const run = randomBytes(3).toString("hex");
  const familyIds = Array.from({ length: families }, () => randomUUID());
  const users = familyOf.map((_, i) => ({
    id: randomUUID(),
    user_name: `fleet-${run}-${i}`,
    name: `Fleet ${i}`,
    email: null,
    phone_number: null,
    country_code: null,
    password_hash: "x",
    service_region: 2,
    language_type: "en",
    avatar: null,
    security_stamp: randomUUID(),
    is_deleted: 0,
    creation_time: now,
  }));
  const admins = new Map<number, string>();
  familyOf.forEach((f, i) => {
    if (!admins.has(f)) admins.set(f, users[i].id);
  });
  const chunk = 500;
  const insert = async <T>(rows: T[], write: (part: T[]) => Promise<unknown>) => {
    for (let i = 0; i < rows.length; i += chunk) await write(rows.slice(i, i + chunk));
  };
  await insert(users, (part) => db.insertInto("users").values(part).execute());
  await insert(
    familyIds.map((id, f) => ({ id, f })),
    (part) =>
      db
        .insertInto("families")
        .values(
          part.map(({ id, f }) => ({
            id,
            name: "Fleet home",
            address: null,
            longitude: null,
            latitude: null,
            avatar: null,
            creator_id: admins.get(f) ?? users[0].id,
            creation_time: now,
            province: null,
            city: null,
            district: null,
          })),
        )
        .execute(),
  );
  await insert(
    familyOf.map((f, i) => ({ f, i })),
    (part) =>
      db
        .insertInto("family_members")
        .values(
          part.map(({ f, i }) => ({
            id: randomUUID(),
            family_id: familyIds[f],
            user_id: users[i].id,
            is_admin: admins.get(f) === users[i].id ? 1 : 0,
            creation_time: now,
          })),
        )
        .execute(),
  );
  await insert(
    devices.map((d, i) => ({ d, i })),
    (part) =>
      db
        .insertInto("devices")
        .values(
          part.map(({ d, i }) => ({
            id: randomUUID(),
            mac: d.mac,
            secret_hash: "external-broker",
            name: `Softener ${i}`,
            image: null,
            model: null,
            device_serial_number: null,
            serial_number: null,
            firmware_version: null,
            family_id: familyIds[d.family],
            sort: i,
            creation_time: now,
          })),
        )
        .execute(),
  );
  const sessions: FleetPopulation["sessions"] = [];
  for (const [index, user] of users.entries()) {
    const { access_token } = await auth.issueTokens(user);
    sessions.push({ index, token: access_token, family: familyOf[index] });
  }
  return { devices, sessions, families };
}

/** A forked worker and a way to wait for its next message of a type. */
interface Worker {
  child: ChildProcess;
  next<T>(type: string, timeoutMs?: number): Promise<T>;
  send(message: unknown): void;
}

function forkWorker(role: "sim" | "clients"): Worker {
  const child = fork(WORKER, [role], { execArgv: ["--expose-gc"], stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const waiting: Array<{ type: string; resolve: (m: unknown) => void; reject: (e: Error) => void }> = [];
  child.on("message", (message: { type: string; message?: string }) => {
    if (message.type === "error") {
      for (const w of waiting.splice(0)) w.reject(new Error(`fleet ${role} worker: ${message.message}`));
      return;
    }
    const i = waiting.findIndex((w) => w.type === message.type);
    if (i >= 0) waiting.splice(i, 1)[0].resolve(message);
  });
  child.on("exit", (code) => {
    for (const w of waiting.splice(0)) w.reject(new Error(`fleet ${role} worker exited (${code})`));
  });
  return {
    child,
    send: (message) => child.send(message as never),
    next<T>(type: string, timeoutMs = 600_000) {
      return new Promise<T>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`fleet ${role} worker: no "${type}" in ${timeoutMs} ms`)),
          timeoutMs,
        );
        waiting.push({
          type,
          resolve: (m) => {
            clearTimeout(timer);
            resolve(m as T);
          },
          reject: (e) => {
            clearTimeout(timer);
            reject(e);
          },
        });
      });
    },
  };
}

interface Started {
  connected: number;
  failed?: number;
  firstError?: string;
  before: { rss: number };
  after: { rss: number };
}

/** Where a run sends its devices and sessions. */
export interface FleetTarget {
  mode: "system" | "bare";
  /** MQTT broker of the devices (system) — unused in bare mode. */
  brokerUrl: string;
  /** Base URL of the server or balancer (system) or ws:// URL of the relay (bare). */
  url: string;
  /** Called once every session and device is connected, before the warm-up (the system's memory snapshot). */
  onConnected?: () => void | Promise<void>;
}

/**
 * Runs one fleet push against `target`: forks the simulator and the client children, connects every session, then
 * every device (their first state arrives meanwhile), waits one interval, records for `measureMs`, waits `graceMs`
 * for late deliveries, and matches every delivery to its send: a member's session counts a message delivered when a
 * device change of kind `state` (bare: the relayed payload) carries that device's MAC and report time. Stops every
 * child before returning.
 * @throws when a child fails, or when fewer than 99 % of the sessions or devices connect.
 */
export async function runFleetPush(
  target: FleetTarget,
  population: FleetPopulation,
  options: FleetOptions,
): Promise<FleetRunResult> {
  const intervalMs = options.intervalMs ?? 10_000;
  const measureMs = options.measureMs ?? 30_000;
  const graceMs = options.graceMs ?? 5_000;
  const childCount = Math.max(1, Math.ceil(population.sessions.length / SESSIONS_PER_CHILD));
  const clients = Array.from({ length: childCount }, () => forkWorker("clients"));
  const sim = forkWorker("sim");
  const all = [sim, ...clients];
  try {
    const clientStarts = clients.map((c, k) => {
      const start: ClientsStart = {
        type: "start",
        mode: target.mode === "system" ? "signalr" : "bare",
        url: target.url,
        sessions: population.sessions
          .filter((s) => s.index % childCount === k)
          .map(({ index, token }) => ({ index, token })),
      };
      c.send(start);
      return c.next<Started>("started");
    });
    const clientStarted = await Promise.all(clientStarts);
    const sessionsConnected = clientStarted.reduce((a, s) => a + s.connected, 0);
    if (sessionsConnected < population.sessions.length * 0.99) {
      throw new Error(
        `only ${sessionsConnected} of ${population.sessions.length} sessions connected: ${clientStarted.find((s) => s.firstError)?.firstError}`,
      );
    }
    const simStart: SimStart = {
      type: "start",
      mode: target.mode === "system" ? "mqtt" : "bare",
      brokerUrl: target.brokerUrl,
      relayUrl: target.url,
      devices: population.devices.map(({ mac, secret }) => ({ mac, secret })),
      intervalMs,
    };
    sim.send(simStart);
    const simStarted = await sim.next<Started>("started");
    if (simStarted.connected < population.devices.length * 0.99) {
      throw new Error(`only ${simStarted.connected} of ${population.devices.length} devices connected`);
    }
    await target.onConnected?.();
    await sleep(intervalMs);
    for (const c of clients) c.send({ type: "record", on: true });
    sim.send({ type: "record", on: true });
    await sleep(measureMs);
    sim.send({ type: "record", on: false });
    await sleep(graceMs);
    for (const c of clients) c.send({ type: "record", on: false });
    const collect = async (w: Worker) => {
      const reply = w.next<{ records: FleetRecord[] }>("records");
      w.send({ type: "collect" });
      return (await reply).records;
    };
    const sends = await collect(sim);
    const receipts = (await Promise.all(clients.map(collect))).flat();
    const matched = matchDeliveries(population, sends, receipts);
    const clientBytes = clientStarted.reduce((a, s) => a + (s.after.rss - s.before.rss), 0);
    return {
      ...matched,
      perSec: matched.delivered / (measureMs / 1000),
      simBytesPerDevice: (simStarted.after.rss - simStarted.before.rss) / population.devices.length,
      clientBytesPerSession: clientBytes / Math.max(1, sessionsConnected),
      clientChildren: childCount,
      sessionsConnected,
      devicesConnected: simStarted.connected,
    };
  } finally {
    await Promise.all(
      all.map(async (w) => {
        if (w.child.exitCode !== null) return;
        const stopped = w.next("stopped", 60_000).catch(() => undefined);
        w.send({ type: "stop" });
        await stopped;
        if (w.child.exitCode === null) w.child.kill("SIGKILL");
      }),
    );
  }
}

/**
 * Matches receipts to sends: each send (device, report time) is expected in every session of the device's household;
 * the first receipt of it in a session gives that delivery's latency (receipt − send, ms). A receipt of a report time
 * not sent in the window (sent before it, or a repeat) is ignored.
 */
export function matchDeliveries(
  population: FleetPopulation,
  sends: readonly FleetRecord[],
  receipts: readonly FleetRecord[],
): { sent: number; expected: number; delivered: number; lost: number; latency: LatencySummary } {
  const familyOfDevice = new Map(population.devices.map((d) => [d.mac, d.family]));
  const members: number[][] = Array.from({ length: population.families }, () => []);
  for (const s of population.sessions) members[s.family].push(s.index);
  const firstReceipt = new Map<string, number>();
  for (const [mac, ts, at, session] of receipts) {
    const key = `${session}|${mac}|${ts}`;
    const prior = firstReceipt.get(key);
    if (prior === undefined || at < prior) firstReceipt.set(key, at);
  }
  const latencies: number[] = [];
  let expected = 0;
  const seen = new Set<string>();
  for (const [mac, ts, sentAt] of sends) {
    const sendKey = `${mac}|${ts}`;
    if (seen.has(sendKey)) continue;
    seen.add(sendKey);
    const family = familyOfDevice.get(mac);
    if (family === undefined) continue;
    for (const session of members[family]) {
      expected += 1;
      const at = firstReceipt.get(`${session}|${sendKey}`);
      if (at !== undefined) latencies.push(Math.max(0, at - sentAt));
    }
  }
  if (latencies.length === 0) throw new Error(`none of ${expected} expected deliveries arrived`);
  return {
    sent: seen.size,
    expected,
    delivered: latencies.length,
    lost: expected - latencies.length,
    latency: summarise(latencies),
  };
}

/**
 * The bare baseline's relay: a `ws` server on 127.0.0.1 (in the caller's process). Sessions connect on `/sub?s=<index>`
 * and the simulator's publisher on `/pub`; each payload (JSON with `mac`) is parsed, its household looked up and the
 * text sent to every member's socket — what the hub does minus authentication, the database and the protocol.
 */
export async function startBareRelay(
  population: FleetPopulation,
): Promise<{ url: string; close: () => Promise<void> }> {
  const familyOfDevice = new Map(population.devices.map((d) => [d.mac, d.family]));
  const sessionFamily = new Map(population.sessions.map((s) => [s.index, s.family]));
  const sockets: Array<Set<import("ws").WebSocket>> = Array.from({ length: population.families }, () => new Set());
  const server = new WebSocketServer({ host: "127.0.0.1", port: 0, backlog: 4096 });
  await new Promise<void>((resolve) => server.once("listening", resolve));
  server.on("connection", (socket, request) => {
    const url = new URL(request.url ?? "/", "http://relay");
    if (url.pathname === "/sub") {
      const family = sessionFamily.get(Number(url.searchParams.get("s")));
      if (family === undefined) return socket.close();
      sockets[family].add(socket);
      socket.on("close", () => sockets[family].delete(socket));
      return;
    }
    socket.on("message", (data) => {
      const text = data.toString();
      const family = familyOfDevice.get((JSON.parse(text) as { mac: string }).mac);
      if (family === undefined) return;
      for (const member of sockets[family]) member.send(text);
    });
  });
  const { port } = server.address() as { port: number };
  return {
    url: `ws://127.0.0.1:${port}`,
    close: async () => {
      for (const s of server.clients) s.terminate();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
