/**
 * Benchmark (b): a device's state change reaching an app session, through the real path — MQTT `state` publish
 * with the device's own credentials → embedded broker → device gateway (zod, SQLite write) → bus → hub 1 →
 * official SignalR client — against a bare `ws` relay that forwards the same payloads from one socket to another.
 * Changes are sent one at a time: the next leaves when the previous one has been received (or timed out).
 */
import { performance } from "node:perf_hooks";
import {
  deviceTopic,
  HUB_METHODS,
  HUB_PATHS,
  MQTT_PROTOCOL_VERSION,
  type TDeviceChangeMessage,
  type TMqttState,
} from "@aquapilot/contract";
import { HttpTransportType, type HubConnection, HubConnectionBuilder, LogLevel } from "@microsoft/signalr";
import mqtt from "mqtt";
import WebSocket, { WebSocketServer } from "ws";
import { type LatencySummary, summarise } from "./stats.ts";

/** Run parameters shared by the system path and the bare relay. */
export interface RoundTripOptions {
  /** Measured changes (default 300). */
  count?: number;
  /** Changes sent first and not measured (default 20). */
  warmup?: number;
  /** Wait per change before it counts as lost, ms (default 5000). */
  timeoutMs?: number;
}

/** Latencies of one round-trip run, ms, plus what was lost and how big the payloads were. */
export interface RoundTripResult {
  summary: LatencySummary;
  /** Changes not received within the timeout (not part of the summary). */
  lost: number;
  /** Mean payload size, bytes (UTF-8 JSON). */
  payloadBytes: number;
}

/** A device of the running system whose `state` topic the benchmark drives. */
export interface DeviceCredentials {
  mac: string;
  secret: string;
}

/**
 * Makes the state payloads of a run: the device's last reported state with a unique `ts` each (ms apart, from now)
 * and a flow rate that alternates, so every message is a change the gateway records. Units as in ZMqttState.
 */
export function makeStatePayloads(base: TMqttState, n: number): TMqttState[] {
  const t0 = Date.now();
  return Array.from({ length: n }, (_, i) => ({
    ...base,
    v: MQTT_PROTOCOL_VERSION,
    ts: new Date(t0 + i).toISOString(),
    flowRateLpm: i % 2 === 0 ? 6.25 : 3.75,
  }));
}

/** Sends `payloads` one by one and times each until `onReceived(ts)` is called for it. */
async function sequentialRoundTrips(
  payloads: TMqttState[],
  warmup: number,
  timeoutMs: number,
  send: (text: string) => Promise<void> | void,
  register: (deliver: (ts: string) => void) => void,
): Promise<RoundTripResult> {
  let waiting: { ts: string; resolve: (at: number) => void } | null = null;
  register((ts) => {
    const at = performance.now();
    // Compare instants, not strings: a store may write the same time with another precision.
    if (waiting && Date.parse(ts) === Date.parse(waiting.ts)) waiting.resolve(at);
  });
  const latencies: number[] = [];
  let lost = 0;
  let bytes = 0;
  for (const [i, payload] of payloads.entries()) {
    const text = JSON.stringify(payload);
    let timer: NodeJS.Timeout | undefined;
    const received = new Promise<number | null>((resolve) => {
      waiting = { ts: payload.ts, resolve };
      timer = setTimeout(() => resolve(null), timeoutMs);
    });
    const sentAt = performance.now();
    await send(text);
    const at = await received;
    clearTimeout(timer);
    waiting = null;
    if (i < warmup) continue;
    bytes += Buffer.byteLength(text);
    if (at === null) lost++;
    else latencies.push(at - sentAt);
  }
  if (latencies.length === 0) throw new Error(`no change was received within ${timeoutMs} ms`);
  return { summary: summarise(latencies), lost, payloadBytes: bytes / (payloads.length - warmup) };
}

/**
 * Measures device state change → SignalR client receive on the running system at `baseUrl`. Connects hub 1 with
 * `token` (WebSockets transport), connects an mqtt.js client as the device (username and clientId = MAC, password =
 * secret; the simulated device with this MAC must be stopped first), reports it online, then publishes the
 * payloads (QoS 1, retained, as the simulator does) and waits for each `DeviceChangContentTypeMessage` of kind
 * "state" whose `lastReportTime` is the payload's `ts`. Closes both clients before returning.
 * @throws when the hub or the broker refuses the connection, or when no change arrives at all.
 */
export async function measureSystemRoundTrips(input: {
  baseUrl: string;
  brokerUrl: string;
  token: string;
  device: DeviceCredentials;
  payloads: TMqttState[];
  options?: RoundTripOptions;
}): Promise<RoundTripResult> {
  const { device, options = {} } = input;
  const connection: HubConnection = new HubConnectionBuilder()
    .withUrl(input.baseUrl + HUB_PATHS.deviceChange, {
      accessTokenFactory: () => input.token,
      transport: HttpTransportType.WebSockets,
    })
    .configureLogging(LogLevel.Warning)
    .build();
  const statusTopic = deviceTopic(device.mac, "status");
  const client = await mqtt.connectAsync(input.brokerUrl, {
    clientId: device.mac,
    username: device.mac,
    password: device.secret,
    clean: true,
    reconnectPeriod: 0,
    will: { topic: statusTopic, payload: Buffer.from(JSON.stringify({ v: 1, online: false })), qos: 1, retain: true },
  });
  try {
    // The hub also announces the status published below; only the state changes after it are measured.
    connection.on(HUB_METHODS.deviceChange, () => {});
    await connection.start();
    await client.publishAsync(
      statusTopic,
      JSON.stringify({ v: MQTT_PROTOCOL_VERSION, online: true, ts: new Date().toISOString() }),
      { qos: 1, retain: true },
    );
    const stateTopic = deviceTopic(device.mac, "state");
    return await sequentialRoundTrips(
      input.payloads,
      options.warmup ?? 20,
      options.timeoutMs ?? 5000,
      async (text) => {
        await client.publishAsync(stateTopic, text, { qos: 1, retain: true });
      },
      (deliver) =>
        connection.on(HUB_METHODS.deviceChange, (json: string) => {
          const message = JSON.parse(json) as TDeviceChangeMessage;
          if (message.kind === "state" && message.mac === device.mac && message.lastReportTime) {
            deliver(message.lastReportTime);
          }
        }),
    );
  } finally {
    await connection.stop().catch(() => undefined);
    await client
      .publishAsync(statusTopic, JSON.stringify({ v: MQTT_PROTOCOL_VERSION, online: false }), {
        qos: 1,
        retain: true,
      })
      .catch(() => undefined);
    await client.endAsync().catch(() => undefined);
  }
}

/**
 * The bare limit: a `ws` server on 127.0.0.1 that forwards every message from the publisher socket (`/pub`) to the
 * subscriber socket (`/sub`), driven with the same payloads, sequentially, the subscriber parsing each as JSON.
 * Everything it opens is closed before it returns.
 * @throws when no message arrives at all.
 */
export async function measureBareRelayRoundTrips(
  payloads: TMqttState[],
  options: RoundTripOptions = {},
): Promise<RoundTripResult> {
  const server = new WebSocketServer({ host: "127.0.0.1", port: 0 });
  await new Promise<void>((resolve) => server.once("listening", resolve));
  const { port } = server.address() as { port: number };
  let subscriber: WebSocket | null = null;
  server.on("connection", (socket, request) => {
    if (request.url === "/sub") subscriber = socket;
    else socket.on("message", (data, isBinary) => subscriber?.send(data, { binary: isBinary }));
  });
  const open = (path: string) =>
    new Promise<WebSocket>((resolve, reject) => {
      const socket = new WebSocket(`ws://127.0.0.1:${port}${path}`);
      socket.once("open", () => resolve(socket));
      socket.once("error", reject);
    });
  const sub = await open("/sub");
  const pub = await open("/pub");
  try {
    return await sequentialRoundTrips(
      payloads,
      options.warmup ?? 20,
      options.timeoutMs ?? 5000,
      (text) => pub.send(text),
      (deliver) => sub.on("message", (data) => deliver((JSON.parse(data.toString()) as TMqttState).ts)),
    );
  } finally {
    pub.close();
    sub.close();
    for (const socket of server.clients) socket.terminate();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
