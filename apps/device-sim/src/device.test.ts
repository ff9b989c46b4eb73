/**
 * A simulated device on a real MQTT broker (Aedes on a free port): firmware update with and without failure,
 * set-config re-publishing the state, factory reset, clock drift corrected by sync-time, a firmware fault that garbles
 * every report until repaired.
 */
import { randomUUID } from "node:crypto";
import net, { type AddressInfo } from "node:net";
import {
  deviceTopic,
  MQTT_PROTOCOL_VERSION,
  type TMqttAck,
  type TMqttEvent,
  type TMqttState,
} from "@aquapilot/contract";
import { Aedes } from "aedes";
import mqtt, { type MqttClient } from "mqtt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SimulatedDevice, type SimulatedDeviceOptions } from "./device.ts";

let broker: Aedes;
let server: net.Server;
let url: string;
let cloud: MqttClient;
const devices: SimulatedDevice[] = [];
const inbox: Array<{ mac: string; channel: string; body: unknown }> = [];
let macSeq = 0;

beforeAll(async () => {
  broker = await Aedes.createBroker();
  server = net.createServer(broker.handle);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `mqtt://127.0.0.1:${(server.address() as AddressInfo).port}`;
  cloud = await mqtt.connectAsync(url, { clientId: "test-cloud", reconnectPeriod: 0 });
  await cloud.subscribeAsync("aq/v1/devices/+/+", { qos: 1 });
  cloud.on("message", (topic, payload) => {
    const [, , , mac, channel] = topic.split("/");
    const text = payload.toString("utf8");
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = { unreadable: text };
    }
    inbox.push({ mac, channel, body });
  });
});

afterAll(async () => {
  await Promise.all(devices.map((d) => d.stop()));
  await cloud?.endAsync();
  await new Promise<void>((resolve) => broker.close(() => resolve()));
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

async function waitFor<T>(probe: () => T, timeoutMs = 5000): Promise<NonNullable<T>> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = probe();
    if (v) return v as NonNullable<T>;
    if (Date.now() > until) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function startDevice(extra: Partial<SimulatedDeviceOptions> = {}): Promise<SimulatedDevice> {
  macSeq += 1;
  const d = new SimulatedDevice({
    brokerUrl: url,
    mac: `02DE000000${String(macSeq).padStart(2, "0")}`,
    secret: "s",
    seed: 1,
    tickMs: 50,
    otaStepMs: 20,
    reconnectPeriodMs: 0,
    family: { persons: 0 },
    ...extra,
  });
  devices.push(d);
  await d.start();
  return d;
}

function received<T>(mac: string, channel: string): T[] {
  return inbox.filter((m) => m.mac === mac && m.channel === channel).map((m) => m.body as T);
}

async function command(d: SimulatedDevice, name: string, params: Record<string, unknown> = {}): Promise<TMqttAck> {
  const id = randomUUID();
  const body = { v: MQTT_PROTOCOL_VERSION, id, ts: new Date().toISOString(), name, params };
  await cloud.publishAsync(deviceTopic(d.mac, "cmd"), JSON.stringify(body), { qos: 1 });
  return waitFor(() => received<TMqttAck>(d.mac, "ack").find((a) => a.id === id));
}

function otaEvents(mac: string): string[] {
  return received<TMqttEvent>(mac, "event")
    .filter((e) => e.type.startsWith("ota"))
    .map((e) => `${e.type}:${e.progress}`);
}

describe("firmware update", () => {
  it("reports 0 → 100 % and then the next version (no failure by default)", async () => {
    const d = await startDevice();
    expect((await command(d, "ota")).ok).toBe(true);
    await waitFor(() => received<TMqttState>(d.mac, "state").some((s) => s.firmwareVersion === "1.0.1"));
    expect(otaEvents(d.mac)).toEqual([0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100].map((p) => `ota-progress:${p}`));
    expect((await command(d, "ota", { version: "2.0.0" })).ok).toBe(true);
    expect((await command(d, "ota")).error).toBe("busy");
    await waitFor(() => d.firmwareVersion === "2.0.0");
  });

  it("fails part-way with otaFailureChance 1 and keeps the old version", async () => {
    const d = await startDevice({ otaFailureChance: 1 });
    const ended = new Promise<{ ok: boolean; failAt: number | null }>((resolve) => d.once("ota", resolve));
    expect((await command(d, "ota")).ok).toBe(true);
    const outcome = await ended;
    expect(outcome.ok).toBe(false);
    const failAt = outcome.failAt as number;
    const expected = [];
    for (let p = 0; p <= failAt; p += 10) expected.push(`ota-progress:${p}`);
    expected.push(`ota-failed:${failAt}`);
    await waitFor(() => otaEvents(d.mac).length === expected.length);
    expect(otaEvents(d.mac)).toEqual(expected);
    expect(d.firmwareVersion).toBe("1.0.0");
    expect(d.otaInProgress).toBeNull();
  });

  it("a seeded device fails the same updates on every run", async () => {
    // The generator is seeded with the seed and the MAC: the same device (same MAC) with the same seed again.
    const failures = async (seed: number) => {
      const d = await startDevice({ mac: "02DE0000FFFF", seed, otaFailureChance: 0.5, otaStepMs: 1 });
      const out: Array<number | null> = [];
      for (let i = 0; i < 6; i++) {
        const ended = new Promise<{ failAt: number | null }>((resolve) => d.once("ota", resolve));
        await command(d, "ota");
        out.push((await ended).failAt);
      }
      await d.stop();
      return out;
    };
    const a = await failures(7);
    expect(await failures(7)).toEqual(a);
    expect(a.some((f) => f !== null)).toBe(true);
  });
});

describe("settings, reset and clock", () => {
  it("set-config applies the settings and re-publishes the state; a bad value changes nothing", async () => {
    const d = await startDevice();
    const ack = await command(d, "set-config", { settings: { washTime: 7, rawWaterHardness: 500 } });
    expect(ack).toMatchObject({ ok: true, error: null });
    const state = await waitFor(() => received<TMqttState>(d.mac, "state").find((s) => s.settings?.washTime === 7));
    expect(state).toMatchObject({ capacityL: 2250, settings: { rawWaterHardness: 500 } });
    const bad = await command(d, "set-config", { settings: { washTime: 7000 } });
    expect(bad).toMatchObject({ ok: false, error: "invalid-setting:washTime" });
    expect(d.valve.getSettings().washTime).toBe(7);
  });

  it("factory reset restores the valve's settings and only reports the new state", async () => {
    const d = await startDevice();
    await command(d, "set-config", { settings: { washTime: 4 } });
    const before = inbox.length;
    d.factoryReset();
    const state = await waitFor(() => inbox.slice(before).find((m) => m.mac === d.mac && m.channel === "state"));
    expect((state.body as TMqttState).settings?.washTime).toBe(10);
    expect(d.connected).toBe(true);
    const channels = new Set(
      inbox
        .slice(before)
        .filter((m) => m.mac === d.mac)
        .map((m) => m.channel),
    );
    expect([...channels].every((c) => c === "state" || c === "event")).toBe(true);
  });

  it("drifts by clockDriftSecondsPerDay and sync-time sets the clock back", async () => {
    const start = Date.UTC(2025, 0, 6, 10, 0, 0);
    const d = await startDevice({ startTime: start, timeScale: 86_400, clockDriftSecondsPerDay: 60, tickMs: 1000 });
    await waitFor(() => d.valve.snapshot().clockDriftMs >= 60_000, 8000);
    const target = new Date(Date.UTC(2025, 5, 1, 8, 0, 0));
    expect((await command(d, "sync-time", { time: target.toISOString() })).ok).toBe(true);
    // sync-time re-publishes the state at once, on the new clock (drift back to 0)
    await waitFor(() => received<TMqttState>(d.mac, "state").find((s) => s.ts === target.toISOString()));
  });
});

describe("a firmware fault that garbles reports", () => {
  it("sends every state and telemetry report garbled, on its usual schedule, until repaired", async () => {
    const d = await startDevice({ timeScale: 600, stateIntervalMinutes: 1, telemetryIntervalMs: 100 });
    // The start-up status and state, sent before the fault, are in.
    await waitFor(() => received(d.mac, "state").length > 0);
    const before = inbox.length;
    d.garbleReports("{ not json");
    // The first garbled state at once, then the periodic ones (1 valve minute = 100 ms here) and telemetry.
    await waitFor(() => inbox.slice(before).filter((m) => m.mac === d.mac && m.channel === "state").length >= 3);
    await waitFor(() => inbox.slice(before).some((m) => m.mac === d.mac && m.channel === "telemetry"));
    const garbled = inbox
      .slice(before)
      .filter((m) => m.mac === d.mac && (m.channel === "state" || m.channel === "telemetry"));
    expect(garbled.filter((m) => (m.body as { unreadable?: string }).unreadable !== "{ not json")).toEqual([]);
    const repairedAt = inbox.length;
    d.repairReports();
    const state = await waitFor(() => inbox.slice(repairedAt).find((m) => m.mac === d.mac && m.channel === "state"));
    expect((state.body as TMqttState).v).toBe(MQTT_PROTOCOL_VERSION);
  });
});

describe("reports at the valve's own instants", () => {
  it("the state after a completed regeneration shows the whole capacity, reported at the cycle's end (1440×, a tap running)", async () => {
    // Each tick is 720 valve seconds here; the regeneration (4 × 1 min) ends inside one. With a tap open throughout,
    // a report taken at the tick's end would already be up to 96 L below the capacity.
    const d = await startDevice({
      timeScale: 1440,
      tickMs: 500,
      settings: {
        backWashTime: 1,
        absorbSaltSlowWashTime: 1,
        saltTankRefillTime: 1,
        washTime: 1,
        continuousWaterTime: 0,
        flowRateOff: 0,
      },
    });
    d.valve.injectDraw(8, 86_400);
    const ack = await command(d, "forced-regeneration");
    expect(ack).toMatchObject({ ok: true });
    const end = await waitFor(() => received<TMqttEvent>(d.mac, "event").find((e) => e.type === "regeneration-end"));
    const state = await waitFor(() =>
      received<TMqttState>(d.mac, "state").find((s) => s.station === 0 && Date.parse(s.ts) >= Date.parse(end.ts)),
    );
    expect(state.ts).toBe(end.ts);
    expect(state.remainingWaterL).toBe(state.capacityL);
    expect(state.capacityL).toBe(4500);
    // Later reports count the tap's water down from there.
    const later = await waitFor(() =>
      received<TMqttState>(d.mac, "state").find((s) => Date.parse(s.ts) > Date.parse(end.ts) + 3_600_000),
    );
    expect(later.remainingWaterL).toBeLessThan(4500);
  });
});
