/**
 * A child process of the fleet benchmark (bench/fleet-bench.ts), driven over IPC:
 *   `node bench/fleet-worker.ts sim`     — the simulated fleet: every device a {@link SimulatedDevice} with its own
 *     MQTT connection, all on one shared scheduler (createFleet), reporting its state every `intervalMs`; or, for the
 *     bare baseline, the same devices' state payloads on the same schedule sent over one `ws` socket to the relay;
 *   `node bench/fleet-worker.ts clients` — app sessions: the official `@microsoft/signalr` client on hub 1 (WebSockets,
 *     bearer token), or for the bare baseline one plain `ws` socket per session on the relay.
 * Every time is `performance.timeOrigin + performance.now()` (ms since the epoch, sub-ms), comparable across the
 * processes of one machine. Messages in: start, record (on/off), collect, stop; out: started, records, stopped.
 */
import { performance } from "node:perf_hooks";
import { HUB_METHODS, HUB_PATHS, type TDeviceChangeMessage } from "@aquapilot/contract";
import { createFleet, type Fleet, SharedScheduler } from "@aquapilot/device-sim";
import { HttpTransportType, type HubConnection, HubConnectionBuilder, LogLevel } from "@microsoft/signalr";
import WebSocket from "ws";

/** Wall-clock ms with sub-ms resolution, comparable between processes. */
const wallNow = () => performance.timeOrigin + performance.now();

/** One delivery or send: [device MAC, report time (epoch ms), at (epoch ms), session index (receipts only)]. */
export type FleetRecord = [mac: string, ts: number, at: number, session?: number];

/** Start message of the `sim` role. */
export interface SimStart {
  type: "start";
  mode: "mqtt" | "bare";
  brokerUrl: string;
  relayUrl?: string;
  devices: Array<{ mac: string; secret: string }>;
  /** Real ms between two state reports of one device. */
  intervalMs: number;
}

/** Start message of the `clients` role. */
export interface ClientsStart {
  type: "start";
  mode: "signalr" | "bare";
  /** Server (or balancer) base URL, or the relay's ws:// URL in bare mode. */
  url: string;
  /** Sessions: global index and access token (bare: the index alone is the relay's key). */
  sessions: Array<{ index: number; token: string }>;
  /** Connections opened at once (default 50). */
  concurrency?: number;
}

/** Memory of this process (bytes). */
export function memory(): { rss: number; heapUsed: number } {
  const m = process.memoryUsage();
  return { rss: m.rss, heapUsed: m.heapUsed };
}

function send(message: unknown): void {
  process.send?.(message);
}

async function settle(): Promise<void> {
  for (let i = 0; i < 3; i++) {
    (globalThis as { gc?: () => void }).gc?.();
    await new Promise((r) => setTimeout(r, 100));
  }
}

let recording = false;
const records: FleetRecord[] = [];

async function runSim(start: SimStart): Promise<() => Promise<void>> {
  await settle();
  const before = memory();
  const scheduler = new SharedScheduler();
  const fleet: Fleet = createFleet({
    brokerUrl: start.brokerUrl,
    devices: start.devices,
    timeScale: 1,
    scheduler,
    connectConcurrency: 50,
    deviceOptions: {
      tickMs: 1000,
      telemetryIntervalMs: 0,
      // The state report every intervalMs comes from the scheduler below; the model's own (every 15 simulated minutes,
      // and on station changes) stays as it is.
      reconnectPeriodMs: 1000,
    },
  });
  if (start.mode === "mqtt") {
    for (const device of fleet.devices) {
      device.on("state", (state: { ts: string }) => {
        if (recording && device.connected) records.push([device.mac, Date.parse(state.ts), wallNow()]);
      });
    }
    for (const device of fleet.devices) {
      scheduler.every(start.intervalMs, () => {
        if (device.connected) device.publishState();
      });
    }
    const connected = await fleet.start();
    await settle();
    send({ type: "started", connected, before, after: memory() });
    return () => fleet.stop();
  }
  // Bare: the same devices' state payloads, same rhythm, one socket to the relay.
  const socket = new WebSocket(`${start.relayUrl}/pub`);
  await new Promise((resolve, reject) => {
    socket.once("open", resolve);
    socket.once("error", reject);
  });
  for (const device of fleet.devices) {
    scheduler.every(start.intervalMs, () => {
      const at = wallNow();
      const ts = new Date(Math.round(at)).toISOString();
      const text = JSON.stringify({ ...device.state(), ts, mac: device.mac });
      socket.send(text);
      if (recording) records.push([device.mac, Date.parse(ts), at]);
    });
  }
  await settle();
  send({ type: "started", connected: fleet.devices.length, before, after: memory() });
  return async () => {
    scheduler.stop();
    socket.close();
  };
}

async function runClients(start: ClientsStart): Promise<() => Promise<void>> {
  await settle();
  const before = memory();
  const concurrency = start.concurrency ?? 50;
  const connections: HubConnection[] = [];
  const sockets: WebSocket[] = [];
  let failed = 0;
  let firstError = "";
  const openOne = async ({ index, token }: { index: number; token: string }) => {
    if (start.mode === "bare") {
      const socket = new WebSocket(`${start.url}/sub?s=${index}`);
      await new Promise((resolve, reject) => {
        socket.once("open", resolve);
        socket.once("error", reject);
      });
      socket.on("message", (data) => {
        const at = wallNow();
        const m = JSON.parse(data.toString()) as { mac: string; ts: string };
        if (recording) records.push([m.mac, Date.parse(m.ts), at, index]);
      });
      sockets.push(socket);
      return;
    }
    const connection = new HubConnectionBuilder()
      .withUrl(start.url + HUB_PATHS.deviceChange, {
        accessTokenFactory: () => token,
        transport: HttpTransportType.WebSockets,
      })
      .configureLogging(LogLevel.None)
      .build();
    connection.on(HUB_METHODS.deviceChange, (json: string) => {
      const at = wallNow();
      if (!recording) return;
      const m = JSON.parse(json) as TDeviceChangeMessage;
      if (m.kind === "state" && m.lastReportTime) records.push([m.mac, Date.parse(m.lastReportTime), at, index]);
    });
    await connection.start();
    connections.push(connection);
  };
  for (let i = 0; i < start.sessions.length; i += concurrency) {
    await Promise.all(
      start.sessions.slice(i, i + concurrency).map((s) =>
        openOne(s).catch((err: Error) => {
          failed += 1;
          firstError ||= err.message;
        }),
      ),
    );
  }
  await settle();
  send({
    type: "started",
    connected: connections.length + sockets.length,
    failed,
    firstError,
    before,
    after: memory(),
  });
  return async () => {
    await Promise.all(connections.map((c) => c.stop().catch(() => undefined)));
    for (const s of sockets) s.close();
  };
}

const role = process.argv[2];
if (role !== "sim" && role !== "clients") throw new Error(`usage: fleet-worker.ts sim|clients (got ${role})`);
let stop: (() => Promise<void>) | null = null;
process.on("message", (message: { type: string; on?: boolean }) => {
  void (async () => {
    switch (message.type) {
      case "start":
        stop =
          role === "sim" ? await runSim(message as unknown as SimStart) : await runClients(message as ClientsStart);
        return;
      case "record":
        recording = message.on === true;
        return;
      case "collect":
        send({ type: "records", records: records.splice(0), memory: memory() });
        return;
      case "stop":
        await stop?.();
        send({ type: "stopped" });
        process.disconnect?.();
        setTimeout(() => process.exit(0), 500).unref();
        return;
    }
  })().catch((err: Error) => {
    send({ type: "error", message: err.stack ?? err.message });
  });
});
