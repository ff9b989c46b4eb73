/**
 * Benchmark (c): telemetry ingest. N provisioned devices, each with its own MQTT connection (username and clientId =
 * MAC, password = secret), publish `telemetry` (ZMqttTelemetry, QoS 1 as the simulator does) as fast as a shared
 * in-flight window and each device's own in-flight limit allow, through the real path — embedded Aedes broker (argon2 credentials, ACL) → device gateway
 * (zod, SQLite insert into device_telemetry, hourly/daily rollups, device_state, bus) — against a bare Aedes broker
 * in the same process with one subscriber that only counts the same messages.
 */
import net from "node:net";
import { performance } from "node:perf_hooks";
import { allDevicesTopic, deviceTopic, MQTT_PROTOCOL_VERSION, type TMqttTelemetry } from "@aquapilot/contract";
import type { DevSystem } from "@aquapilot/dev";
import { provisionDevice } from "@aquapilot/server/modules/devices/provision.ts";
import { Aedes } from "aedes";
import mqtt, { type MqttClient } from "mqtt";

/** Run parameters of the ingest benchmark (shared by the system path and the bare broker). */
export interface IngestOptions {
  /** Simulated devices, one MQTT connection each (default 50). */
  devices?: number;
  /** Publishing time, ms (default 8000); the drain that follows is part of the measured time. */
  durationMs?: number;
  /** Most messages published but not yet stored/delivered, over all devices (default 1000). */
  window?: number;
  /**
   * Most QoS 1 messages one device has published and not yet had acknowledged (default 20, i.e. the window spread
   * over the default 50 devices): devices pipeline like real firmware within the broker's Receive Maximum instead of
   * waiting for each PUBACK (bench/README.md (c)). 1 gives the earlier stop-and-wait devices.
   */
  inFlightPerDevice?: number;
  /** Longest wait for the backlog to drain after publishing stops, ms (default 120 000). */
  drainTimeoutMs?: number;
}

/** Outcome of one ingest run. */
export interface IngestResult {
  devices: number;
  /** Messages the devices published (each acknowledged by the broker, QoS 1). */
  published: number;
  /** Messages stored (system: rows in device_telemetry) or delivered (bare: counted by the subscriber). */
  done: number;
  /** Seconds from the first publish until the last message was stored/delivered. */
  seconds: number;
  /** `done ÷ seconds`, messages per second. */
  perSec: number;
}

/** A device identity that may connect to a broker (secret unused on the bare broker). */
interface Identity {
  mac: string;
  secret: string;
}

/** Counter of finished messages with a cheap "wait for the next one" (or 50 ms, whichever first). */
class Progress {
  count = 0;
  private waiters: Array<() => void> = [];

  bump(): void {
    this.count++;
    const w = this.waiters;
    this.waiters = [];
    for (const resolve of w) resolve();
  }

  next(): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, 50);
      this.waiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}

/** MACs BE…0001, BE…0002, … (12 hex digits) of the benchmark's devices; `prefix` keeps runs apart. */
function benchMacs(prefix: string, n: number): string[] {
  return Array.from(
    { length: n },
    (_, i) =>
      `${prefix}${(i + 1)
        .toString(16)
        .toUpperCase()
        .padStart(12 - prefix.length, "0")}`,
  );
}

/**
 * The i-th telemetry message of a device: 10 s of device time after the previous one (the simulator's telemetry
 * interval), starting at `t0`, 0.5 L per interval at 3 L/min. So an hour holds at most 360 raw rows per device, as
 * in real use, and the rollup of each message costs what it costs in production.
 */
function telemetry(t0: number, i: number): string {
  const body: TMqttTelemetry = {
    v: MQTT_PROTOCOL_VERSION,
    ts: new Date(t0 + i * 10_000).toISOString(),
    totalWaterL: 1000 + i * 0.5,
    flowRateLpm: 3,
    intervalWaterL: 0.5,
  };
  return JSON.stringify(body);
}

/**
 * Connects every device, then lets each publish telemetry (QoS 1, at most `inFlightPerDevice` unacknowledged) until
 * `durationMs` has passed, as long as fewer than `window` messages are published but not yet finished; then waits until all are
 * finished (`progress` reaches `published`, or the drain timeout) and `drained()` resolves.
 */
async function drive(
  brokerUrl: string,
  identities: Identity[],
  progress: Progress,
  opts: Required<IngestOptions>,
  drained: () => Promise<void>,
): Promise<{ published: number; seconds: number }> {
  const clients: MqttClient[] = [];
  try {
    for (const d of identities) {
      clients.push(
        await mqtt.connectAsync(brokerUrl, {
          clientId: d.mac,
          username: d.mac,
          password: d.secret,
          clean: true,
          reconnectPeriod: 0,
        }),
      );
    }
    const t0 = Date.UTC(2026, 0, 1); // device clock of the first message (a past, hour-aligned instant)
    let published = 0;
    const started = performance.now();
    const end = started + opts.durationMs;
    await Promise.all(
      clients.map(async (client, k) => {
        const topic = deviceTopic(identities[k].mac, "telemetry");
        // Up to inFlightPerDevice unacknowledged publishes, sent in order; the next waits for an acknowledgement.
        const unacked = new Set<Promise<unknown>>();
        for (let i = 0; performance.now() < end; ) {
          if (published - progress.count >= opts.window) {
            await progress.next();
            continue;
          }
          if (unacked.size >= opts.inFlightPerDevice) {
            await Promise.race(unacked);
            continue;
          }
          published++;
          const acked = client.publishAsync(topic, telemetry(t0, i++), { qos: 1 }).finally(() => unacked.delete(acked));
          unacked.add(acked);
        }
        await Promise.all(unacked);
      }),
    );
    const deadline = performance.now() + opts.drainTimeoutMs;
    while (progress.count < published && performance.now() < deadline) await progress.next();
    await drained();
    return { published, seconds: (performance.now() - started) / 1000 };
  } finally {
    await Promise.all(clients.map((c) => c.endAsync().catch(() => undefined)));
  }
}

function withDefaults(o: IngestOptions): Required<IngestOptions> {
  return {
    devices: o.devices ?? 50,
    durationMs: o.durationMs ?? 8000,
    window: o.window ?? 1000,
    inFlightPerDevice: o.inFlightPerDevice ?? 20,
    drainTimeoutMs: o.drainTimeoutMs ?? 120_000,
  };
}

/**
 * Measures telemetry stored per second on the running system: provisions `devices` new devices with
 * `provisionDevice` (MACs BE00000000xx, unbound to any family), drives them (see {@link IngestOptions}), counts a
 * message as finished when the gateway announces its `state` change on the bus, waits for `gateway.idle()`, then
 * counts the devices' rows in device_telemetry. Also checks that the hourly rollups hold every row.
 * @throws when the rollups disagree with the raw rows.
 */
export async function measureSystemIngest(system: DevSystem, options: IngestOptions = {}): Promise<IngestResult> {
  const opts = withDefaults(options);
  const identities = benchMacs("BE", opts.devices).map((mac, i) => ({ mac, secret: `bench-secret-${i}` }));
  const ids: string[] = [];
  for (const d of identities) ids.push((await provisionDevice(system.db, { ...d, name: `Bench ${d.mac}` })).id);
  const macs = new Set(identities.map((d) => d.mac));
  const progress = new Progress();
  const unsubscribe = system.bus.subscribe((event) => {
    if (event.type === "device.changed" && event.message.kind === "state" && macs.has(event.message.mac)) {
      progress.bump();
    }
  });
  try {
    const run = await drive(system.deviceLink.brokerUrl, identities, progress, opts, () =>
      system.deviceLink.gateway.idle(),
    );
    const { rows } = await system.db
      .selectFrom("device_telemetry")
      .select((eb) => eb.fn.countAll<number>().as("rows"))
      .where("device_id", "in", ids)
      .executeTakeFirstOrThrow();
    const { samples } = await system.db
      .selectFrom("device_water_hourly")
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>("samples"), eb.lit(0)).as("samples"))
      .where("device_id", "in", ids)
      .executeTakeFirstOrThrow();
    if (Number(samples) !== Number(rows)) throw new Error(`rollups hold ${samples} samples for ${rows} raw rows`);
    const done = Number(rows);
    return { devices: opts.devices, published: run.published, done, seconds: run.seconds, perSec: done / run.seconds };
  } finally {
    unsubscribe();
  }
}

/**
 * The bare limit: a plain Aedes broker (no authentication, no ACL, no persistence beyond Aedes' in-memory default)
 * on 127.0.0.1 and a free port, one mqtt.js subscriber on `aq/v1/devices/+/telemetry` (QoS 1) that only counts,
 * and the same devices, payloads, window and duration as the system run. Closes everything before returning.
 */
export async function measureBareIngest(options: IngestOptions = {}): Promise<IngestResult> {
  const opts = withDefaults(options);
  const broker = await Aedes.createBroker();
  const server = net.createServer(broker.handle);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `mqtt://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  const subscriber = await mqtt.connectAsync(url, { clientId: "bare-counter", clean: true, reconnectPeriod: 0 });
  try {
    const progress = new Progress();
    subscriber.on("message", () => progress.bump());
    await subscriber.subscribeAsync(allDevicesTopic("telemetry"), { qos: 1 });
    const identities = benchMacs("BF", opts.devices).map((mac) => ({ mac, secret: "" }));
    const run = await drive(url, identities, progress, opts, async () => {});
    return {
      devices: opts.devices,
      published: run.published,
      done: progress.count,
      seconds: run.seconds,
      perSec: progress.count / run.seconds,
    };
  } finally {
    await subscriber.endAsync().catch(() => undefined);
    await new Promise<void>((resolve) => broker.close(() => resolve()));
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
