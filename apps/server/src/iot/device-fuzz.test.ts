import { randomUUID } from "node:crypto";
import {
  deviceFlowStatisticsCsv,
  deviceTopic,
  endpoints,
  MQTT_MAX_PACKET_BYTES,
  type MqttChannel,
  REPORTED_SETTING_RULES,
  ZMqttAck,
  ZMqttEvent,
  ZMqttState,
  ZMqttStatus,
  ZMqttTelemetry,
} from "@aquapilot/contract";
import { seedDemoIfEmpty } from "@aquapilot/dev";
import { DEFAULT_SETTINGS, SimulatedDevice } from "@aquapilot/device-sim";
import mqtt, { type MqttClient } from "mqtt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call } from "../../test/call.ts";
import { ENGINES } from "../../test/databases.ts";
import { bearer, createTestApp, type TestApp } from "../../test/helpers.ts";
import { InProcessBus } from "../bus.ts";
import { recordClockDrift } from "../modules/statistics/freshness.ts";
import { rollupTelemetryBatch } from "../modules/statistics/index.ts";
import { type DeviceLink, GATEWAY_REJECT_REASONS, type IotLogger, startDeviceLink } from "./index.ts";

/**
 * Device fuzz suite: hostile payloads on every device topic, published through the real embedded broker
 * with mqtt.js — as the device itself and as another registered device — against the real gateway on both engines.
 * Expected: nothing stored (every device table identical), no crash (no error logged, the gateway still records the
 * next valid message), and the statistics API answering exactly as before.
 */

const A = { mac: "02F0000000A1", secret: "fuzz-secret-a-0123456789abcdef" };
const B = { mac: "02F0000000B2", secret: "fuzz-secret-b-0123456789abcdef" };
const C = { mac: "02F0000000C3", secret: "fuzz-secret-c-0123456789abcdef" };
const CHANNELS = ["status", "state", "telemetry", "event", "ack"] as const;
const SCHEMAS = {
  status: ZMqttStatus,
  state: ZMqttState,
  telemetry: ZMqttTelemetry,
  event: ZMqttEvent,
  ack: ZMqttAck,
} as const;

/** Values every field of every message is replaced with (the schema decides which are hostile for which field). */
const FIELD_VALUES: unknown[] = [
  null,
  true,
  0,
  -1,
  1.5,
  1e308,
  -1e308,
  2 ** 53,
  "",
  "x",
  "NaN",
  "Infinity",
  "1e308",
  "garbage-ts",
  "2026-13-45T25:61:00Z",
  "a".repeat(300),
  "\u0000",
  "\u001b[2J",
  "💧".repeat(100),
  "../../etc/passwd",
  "'; DROP TABLE devices; --",
  [],
  [1, 2, 3],
  {},
  { $gt: "" },
  JSON.parse('{"__proto__": {"polluted": true}}'),
];

/** Whole payloads that are not a message at all. */
const RAW_PAYLOADS: Array<string | Buffer> = [
  "not json",
  "{",
  "[]",
  "null",
  "0",
  '"text"',
  "{}",
  '{"v":1}',
  "\ufeff{}",
  Buffer.from([0xff, 0xfe, 0xfd, 0x00]),
  `${"[".repeat(5000)}${"]".repeat(5000)}`,
  JSON.stringify({ v: 1, ts: "2026-01-01T00:00:00Z", a: "\u0000".repeat(1000) }),
];

/** A log sink counting what the device link writes (errors mean a message crashed the pipeline). */
function countingLogger() {
  const lines: Array<{ level: string; obj: object; msg?: string }> = [];
  const at =
    (level: string) =>
    (obj: object, msg?: string): void => {
      lines.push({ level, obj, msg });
    };
  const logger: IotLogger = { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
  return { logger, lines };
}

async function waitFor<T>(probe: () => T | Promise<T>, timeoutMs = 10_000): Promise<NonNullable<T>> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v as NonNullable<T>;
    if (Date.now() > until) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 25));
  }
}

const sum = (r: Readonly<Record<string, number>>) => Object.values(r).reduce((a, b) => a + b, 0);

/** The snapshot's rows without the refusal memory of `device_state` (compared on its own). */
function withoutRefusal<T extends { state: unknown[] }>(rows: T): T {
  const state = (rows.state as Array<Record<string, unknown>>).map(
    ({ reports_refused_since: _s, reports_refused_reason: _r, updated_at: _u, ...rest }) => rest,
  );
  return { ...rows, state };
}

describe.each(ENGINES)("device fuzz on %s", (engine) => {
  let t: TestApp;
  let link: DeviceLink;
  let log: ReturnType<typeof countingLogger>;
  let owner: string;
  let familyId: string;
  const ids: Record<string, string> = {};
  const clients: MqttClient[] = [];
  const sims: SimulatedDevice[] = [];

  /** A raw MQTT connection as device `spec`; resolves on CONNACK. */
  async function connect(spec: { mac: string; secret: string }): Promise<MqttClient> {
    const c = mqtt.connect(link.brokerUrl, {
      clientId: spec.mac,
      username: spec.mac,
      password: spec.secret,
      reconnectPeriod: 0,
      connectTimeout: 5000,
    });
    clients.push(c);
    c.on("error", () => {});
    await new Promise<void>((resolve, reject) => {
      c.once("connect", () => resolve());
      c.once("error", reject);
    });
    return c;
  }

  /** Publishes a packet the broker must refuse by closing the connection; resolves when it did. */
  async function publishAndExpectClose(c: MqttClient, topic: string, payload: string | Buffer): Promise<void> {
    const closed = new Promise<void>((resolve) => c.once("close", () => resolve()));
    c.publish(topic, payload, { qos: 0 });
    await Promise.race([
      closed,
      new Promise((_, reject) => setTimeout(() => reject(new Error(`broker kept the connection (${topic})`)), 5000)),
    ]);
  }

  const iso = (offsetMs = 0) => new Date(Date.now() + offsetMs).toISOString();
  const fullSettings = () => ({ ...DEFAULT_SETTINGS, saltUsedKg: 3 });
  const validState = (over: Record<string, unknown> = {}) => ({
    v: 1,
    ts: iso(),
    station: 0,
    stationRemainingSeconds: null,
    stationStartedAt: null,
    stationDurationSeconds: null,
    serviceRemainingSeconds: null,
    remainingWaterL: 4400,
    capacityL: 4500,
    flowRateLpm: 0,
    totalWaterL: 100,
    vacation: false,
    closeReason: null,
    firmwareVersion: "1.2.3",
    model: "AQ-S25",
    serialNumber: "RV0001",
    deviceSerialNumber: "AQ0001",
    regenerationCount: 1,
    settings: fullSettings(),
    ...over,
  });
  const validMessage = (channel: (typeof CHANNELS)[number]): Record<string, unknown> => {
    switch (channel) {
      case "status":
        return { v: 1, online: true, ts: iso() };
      case "state":
        return validState();
      case "telemetry":
        return { v: 1, ts: iso(), totalWaterL: 100, flowRateLpm: 0, intervalWaterL: 0 };
      case "event":
        return { v: 1, ts: iso(), id: randomUUID(), type: "station", station: 1 };
      case "ack":
        return { v: 1, id: "fuzz-command", ts: iso(), ok: false, error: "busy" };
    }
  };

  /** Every device row, state, record and rollup, and the statistics API's answers, as comparable JSON. */
  async function snapshot() {
    const db = t.db;
    const rows = {
      devices: await db.selectFrom("devices").selectAll().orderBy("mac").execute(),
      state: await db.selectFrom("device_state").selectAll().orderBy("device_id").execute(),
      telemetry: await db.selectFrom("device_telemetry").selectAll().orderBy("device_id").orderBy("ts").execute(),
      events: await db.selectFrom("device_events").selectAll().orderBy("device_id").orderBy("id").execute(),
      commands: await db.selectFrom("device_commands").selectAll().orderBy("id").execute(),
      hourly: await db
        .selectFrom("device_water_hourly")
        .selectAll()
        .orderBy("device_id")
        .orderBy("hour_start")
        .execute(),
      daily: await db.selectFrom("device_water_daily").selectAll().orderBy("device_id").orderBy("day").execute(),
    };
    const api: Record<string, unknown> = {};
    for (const mac of [A.mac, B.mac]) {
      const deviceId = ids[mac];
      for (const reportTimeType of [1, 2, 3]) {
        const r = await call(t, endpoints.deviceFlowStatistics, { as: owner, body: { deviceId, reportTimeType } });
        expect(r.status).toBe(200);
        api[`stats ${mac} ${reportTimeType}`] = r.body;
      }
      const from = iso(-3 * 86_400_000).slice(0, 10);
      const to = iso(3 * 86_400_000).slice(0, 10);
      // One after the other, as the app asks; the raw text, so any change of the answer shows.
      const reads = {
        cycles: () => call(t, endpoints.getRegenerationCycles, { as: owner, query: { deviceId } }),
        salt: () => call(t, endpoints.getSaltStatus, { as: owner, query: { deviceId } }),
        csv: () => call(t, deviceFlowStatisticsCsv, { as: owner, query: { deviceId, from, to, granularity: "raw" } }),
      };
      for (const [name, read] of Object.entries(reads)) {
        const r = await read();
        expect(r.status).toBe(200);
        api[`${name} ${mac}`] = r.text;
      }
    }
    const list = await call(t, endpoints.getFamilyDevices, { as: owner, query: { familyId } });
    expect(list.status).toBe(200);
    // Without the fields saying the reports are refused (the rows are checked for them): the rest must not change.
    const items = (list.body as { result: Array<Record<string, unknown>> }).result;
    api.devices = items.map(({ reportsRefusedSince: _s, reportsRefusedReason: _r, ...rest }) => rest);
    return { rows, api };
  }

  beforeAll(async () => {
    t = await createTestApp({ engine });
    await seedDemoIfEmpty(t.db, {
      devices: [A, B, C].map((d, i) => ({ ...d, name: `Fuzz ${i}`, model: "AQ-S25" })),
    });
    owner = await bearer(t.app, "demo", "demo1234");
    for (const d of await t.db.selectFrom("devices").select(["id", "mac", "family_id"]).execute()) {
      ids[d.mac] = d.id;
      familyId = d.family_id ?? familyId;
    }
    log = countingLogger();
    link = await startDeviceLink({
      db: t.db,
      bus: new InProcessBus(),
      dataDir: t.database.dataDir,
      mqttHost: "127.0.0.1",
      mqttPort: 0,
      logger: log.logger,
      onTelemetry: rollupTelemetryBatch,
    });
    // A short, real history for A: online, water, one regeneration.
    const a = await connect(A);
    await a.publishAsync(deviceTopic(A.mac, "status"), JSON.stringify({ v: 1, online: true }), { qos: 1 });
    let total = 85;
    for (const litres of [5, 5, 5]) {
      total += litres;
      const body = { v: 1, ts: iso(), totalWaterL: total, flowRateLpm: 6, intervalWaterL: litres };
      await a.publishAsync(deviceTopic(A.mac, "telemetry"), JSON.stringify(body), { qos: 1 });
      await new Promise((r) => setTimeout(r, 5));
    }
    await a.publishAsync(deviceTopic(A.mac, "state"), JSON.stringify(validState()), { qos: 1 });
    for (const e of [
      { type: "regeneration-start" },
      { type: "station", station: 1 },
      { type: "regeneration-end", waterL: 50, saltKg: 3 },
    ]) {
      await a.publishAsync(deviceTopic(A.mac, "event"), JSON.stringify({ v: 1, ts: iso(), id: randomUUID(), ...e }), {
        qos: 1,
      });
    }
    await waitFor(async () => {
      const n = await t.db.selectFrom("device_events").select("id").where("device_id", "=", ids[A.mac]).execute();
      return n.length === 3;
    });
    await link.gateway.idle();
    a.end(true);
  });

  afterAll(async () => {
    for (const c of clients) c.end(true);
    for (const s of sims) await s.stop();
    await link?.close();
    await t?.close();
  });

  it("stores nothing from hostile payloads on any topic, crashes nowhere, and leaves the statistics as they were", async () => {
    const before = await snapshot();
    expect((before.rows.telemetry as unknown[]).length).toBe(3);
    const rejectedBefore = sum(link.gateway.rejected);
    const oversizedBefore = link.broker?.stats.oversizedPackets ?? 0;
    let expectedRejections = 0;
    let schemaAccepted = 0;
    let published = 0;

    // 1. As the device itself, on its own topics: every field of every message replaced, removed, and raw junk.
    let a = await connect(A);
    // QoS 1, up to 100 in flight (one connection keeps their order): each resolves on the broker's PUBACK.
    const inFlight: Array<Promise<unknown>> = [];
    const flush = async () => {
      await Promise.all(inFlight.splice(0));
    };
    const send = async (c: MqttClient, mac: string, channel: MqttChannel, payload: string | Buffer) => {
      inFlight.push(c.publishAsync(deviceTopic(mac, channel), payload, { qos: 1 }));
      published++;
      if (inFlight.length >= 100) await flush();
    };
    for (const channel of CHANNELS) {
      const base = validMessage(channel);
      const variants: unknown[] = [];
      for (const field of Object.keys(base)) {
        for (const value of FIELD_VALUES) variants.push({ ...base, [field]: value });
        const { [field]: _removed, ...rest } = base;
        variants.push(rest);
      }
      for (const variant of variants) {
        // What the contract accepts is a valid message, not a hostile one: those are left to the other tests.
        if (SCHEMAS[channel].safeParse(variant).success) {
          schemaAccepted++;
          continue;
        }
        await send(a, A.mac, channel, JSON.stringify(variant));
        expectedRejections++;
      }
      for (const raw of RAW_PAYLOADS) {
        await send(a, A.mac, channel, raw);
        expectedRejections++;
      }
    }
    // The probe's own findings, all within the size limit: a year-9999 time with a 1e308 total, a 65-character event
    // id, control characters in the identity, and 1,000 unknown settings on an otherwise broken state.
    const probe: Array<[MqttChannel, unknown]> = [
      ["state", validState({ ts: "garbage-ts" })],
      ["state", validState({ totalWaterL: 1e308 })],
      ["state", validState({ model: "AQ\u0000S25\u001b[31m" })],
      [
        "state",
        validState({
          station: 42,
          settings: Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`k${i}`, i])),
        }),
      ],
      ["telemetry", { v: 1, ts: "9999-12-31T23:59:59Z", totalWaterL: 1e308, flowRateLpm: 0, intervalWaterL: 1e308 }],
      ["event", { v: 1, ts: iso(), id: "e".repeat(65), type: "station", station: 1 }],
    ];
    for (const [channel, payload] of probe) {
      expect(SCHEMAS[channel as keyof typeof SCHEMAS].safeParse(payload).success).toBe(false);
      await send(a, A.mac, channel, JSON.stringify(payload));
      expectedRejections++;
    }
    // An empty payload clears a retained message: ignored, neither stored nor counted.
    await send(a, A.mac, "state", "");
    await flush();

    // 2. Oversized: the broker closes the connection before reading the body (10 MB model, 100 KB event id, 20,000
    // unknown settings, and one just over the limit on every other topic).
    const oversized: Array<[MqttChannel, string]> = [
      ["state", JSON.stringify(validState({ model: "M".repeat(10_000_000) }))],
      ["event", JSON.stringify({ v: 1, ts: iso(), id: "i".repeat(100_000), type: "station", station: 1 })],
      [
        "state",
        JSON.stringify(
          validState({ settings: Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`u${i}`, i])) }),
        ),
      ],
      ...(["status", "telemetry", "ack"] as MqttChannel[]).map(
        (ch) => [ch, `{"v":1,"pad":"${" ".repeat(MQTT_MAX_PACKET_BYTES)}"}`] as [MqttChannel, string],
      ),
    ];
    for (const [channel, payload] of oversized) {
      if (!a.connected) a = await connect(A);
      await publishAndExpectClose(a, deviceTopic(A.mac, channel), payload);
      published++;
    }

    // 3. As another registered device: into A's tree (the broker closes the connection), and junk on its own topics.
    let crossClosed = 0;
    for (const channel of [...CHANNELS, "cmd" as const]) {
      const b = await connect(B);
      const body = channel === "state" ? validState({ totalWaterL: 1e6 }) : validMessage(channel as "status");
      await publishAndExpectClose(b, deviceTopic(A.mac, channel), JSON.stringify(body));
      crossClosed++;
      published++;
    }
    const b = await connect(B);
    for (const channel of CHANNELS) {
      for (const raw of RAW_PAYLOADS) {
        await send(b, B.mac, channel, raw);
        expectedRejections++;
      }
      await send(b, B.mac, channel, JSON.stringify({ ...validMessage(channel), v: 2 }));
      expectedRejections++;
    }
    await flush();

    // Every message that reached the gateway was refused, each counted once under its reason.
    await waitFor(() => sum(link.gateway.rejected) - rejectedBefore === expectedRejections, 20_000);
    await link.gateway.idle();
    expect(link.broker?.stats.oversizedPackets).toBe(oversizedBefore + oversized.length);
    expect(Object.keys(link.gateway.rejected).sort()).toEqual([...GATEWAY_REJECT_REASONS].sort());
    const closedLines = log.lines.filter((l) => l.msg === "mqtt connection closed: packet too large");
    expect(closedLines.map((l) => (l.obj as { client?: string }).client)).toContain(A.mac);
    const errors = log.lines.filter((l) => l.level === "error");
    expect(errors).toEqual([]);
    // No log line carries a password or a payload.
    const logged = JSON.stringify(log.lines);
    expect(logged).not.toContain(A.secret);
    expect(logged).not.toContain(B.secret);
    expect(logged).not.toContain("MMMMMMMMMM");

    const after = await snapshot();
    // The one thing the refusals leave: each device remembers since when and why its reports are refused.
    for (const mac of [A.mac, B.mac]) {
      const refused = (after.rows.state as Array<Record<string, unknown>>).find((r) => r.device_id === ids[mac]);
      expect(refused?.reports_refused_since, mac).toEqual(expect.any(String));
      expect(GATEWAY_REJECT_REASONS).toContain(refused?.reports_refused_reason);
    }
    expect(withoutRefusal(after.rows)).toEqual(withoutRefusal(before.rows));
    expect(after.api).toEqual(before.api);

    // Still alive, and the comparison can fail: one valid message changes both the rows and the statistics.
    await send(
      b,
      B.mac,
      "telemetry",
      JSON.stringify({ ...validMessage("telemetry"), totalWaterL: 7, intervalWaterL: 7 }),
    );
    await flush();
    await waitFor(async () => {
      const r = await t.db.selectFrom("device_telemetry").select("ts").where("device_id", "=", ids[B.mac]).execute();
      return r.length === 1;
    });
    await link.gateway.idle();
    const changed = await snapshot();
    expect(changed.rows.telemetry).not.toEqual(before.rows.telemetry);
    const day = changed.api[`stats ${B.mac} 3`] as { result: { totals: { waterL: number } } };
    expect(day.result.totals.waterL).toBe(7);

    console.log(
      `device fuzz (${engine}): ${published.toLocaleString("en")} payloads on ${CHANNELS.length + 1} topics — ` +
        `${expectedRejections.toLocaleString("en")} refused by the gateway, ${oversized.length} oversized closed by the broker, ` +
        `${crossClosed} cross-device closed, ${schemaAccepted} generated variants valid and left out; ` +
        `0 stored, ${errors.length} errors, statistics unchanged (${Object.keys(before.api).length} answers compared)`,
    );
  });

  it("stores implausible times as the receive time, drops unknown and out-of-range settings, and the drift warning fires", async () => {
    const a = await connect(A);
    const corrected = link.gateway.corrected;
    const settings: Record<string, unknown> = { ...fullSettings(), washTime: 1e308, resinVolume: 30 };
    for (let i = 0; i < 500; i++) settings[`unknown${i}`] = "x";
    const startedAt = "1970-01-01T00:00:00.000Z";
    const state1970 = validState({
      ts: "1970-01-01T00:05:00.000Z",
      station: 1,
      stationRemainingSeconds: 300,
      stationStartedAt: startedAt,
      stationDurationSeconds: 600,
      serviceRemainingSeconds: 5000,
      settings,
    });
    const t0 = Date.now();
    await a.publishAsync(deviceTopic(A.mac, "state"), JSON.stringify(state1970), { qos: 1 });
    const telemetry9999 = { v: 1, ts: "9999-12-31T23:59:59.000Z", totalWaterL: 105, flowRateLpm: 3, intervalWaterL: 5 };
    // Three messages with the same implausible time, sent back to back: three rows (receive times kept distinct).
    await Promise.all(
      [5, 0, 0].map((intervalWaterL) =>
        a.publishAsync(deviceTopic(A.mac, "telemetry"), JSON.stringify({ ...telemetry9999, intervalWaterL }), {
          qos: 1,
        }),
      ),
    );
    const eventId = randomUUID();
    const event = { v: 1, ts: "2099-01-01T00:00:00.000Z", id: eventId, type: "vacation" };
    await a.publishAsync(deviceTopic(A.mac, "event"), JSON.stringify(event), { qos: 1 });
    const stored = await waitFor(() =>
      t.db.selectFrom("device_events").selectAll().where("id", "=", eventId).executeTakeFirst(),
    );
    await link.gateway.idle();
    expect(Math.abs(Date.parse(stored.ts) - Date.parse(stored.received_at))).toBeLessThan(50); // the receive time
    const state = await t.db
      .selectFrom("device_state")
      .selectAll()
      .where("device_id", "=", ids[A.mac])
      .executeTakeFirstOrThrow();
    // Pinned a day behind the server, the station's 5 minutes kept.
    expect(Math.abs(Date.parse(state.last_report_time ?? "") - (t0 - 86_400_000))).toBeLessThan(10_000);
    expect(Date.parse(state.last_report_time ?? "") - Date.parse(state.station_started_at ?? "")).toBe(300_000);
    const kept = JSON.parse(state.settings_json ?? "{}") as Record<string, unknown>;
    expect(Object.keys(kept).every((k) => Object.hasOwn(REPORTED_SETTING_RULES, k))).toBe(true);
    expect(kept).toMatchObject({ resinVolume: 30, saltUsedKg: 3 });
    expect(kept.washTime).toBeUndefined();
    const telemetry = await t.db
      .selectFrom("device_telemetry")
      .selectAll()
      .where("device_id", "=", ids[A.mac])
      .where("total_water_l", "=", 105)
      .where("interval_water_l", "=", 5)
      .executeTakeFirstOrThrow();
    expect(Math.abs(Date.parse(telemetry.ts) - Date.parse(telemetry.received_at ?? ""))).toBeLessThan(50);
    expect(link.gateway.corrected.timeReplaced - corrected.timeReplaced).toBe(5);
    const replaced = await t.db
      .selectFrom("device_telemetry")
      .select("ts")
      .where("device_id", "=", ids[A.mac])
      .where("total_water_l", "=", 105)
      .execute();
    expect(new Set(replaced.map((r) => r.ts)).size).toBe(3);
    expect(link.gateway.corrected.settingsDropped - corrected.settingsDropped).toBe(501);
    expect(link.gateway.corrected.stationStartDropped).toBe(corrected.stationStartDropped);

    // The clock keeps reading 1970: reports ≥ 5 s apart measure its pace (real time; the first after the jump only
    // re-anchors), and the drift the app warns about (recorded as the device-control tracker does on each new report)
    // is a day behind.
    for (const second of [6, 12]) {
      await new Promise((r) => setTimeout(r, 5200));
      const ts = `1970-01-01T00:05:${second}.000Z`.replace(":6.", ":06.");
      const later = validState({ ts, totalWaterL: 105, settings: fullSettings() });
      await a.publishAsync(deviceTopic(A.mac, "state"), JSON.stringify(later), { qos: 1 });
    }
    const row = await waitFor(async () => {
      const r = await t.db
        .selectFrom("device_state")
        .selectAll()
        .where("device_id", "=", ids[A.mac])
        .executeTakeFirst();
      return r?.clock_rate === 1 ? r : null;
    });
    await recordClockDrift(t.db, ids[A.mac], row.last_report_time ?? "", new Date());
    const salt = await call(t, endpoints.getSaltStatus, { as: owner, query: { deviceId: ids[A.mac] } });
    const drift = salt.result.clockDriftSeconds as number;
    expect(drift).toBeLessThanOrEqual(-86_000);
    a.end(true);
    console.log(
      `device times (${engine}): 5 implausible times replaced, 501 setting keys dropped, drift warning at ${Math.round(drift)} s`,
    );
  });

  it("takes counters that go down for a counter reset, with or without a reconnection, and records it in the timeline", async () => {
    const resetsBefore = link.gateway.corrected.counterRestarts;
    const rejectedBefore = sum(link.gateway.rejected);
    const resetEvents = () =>
      t.db
        .selectFrom("device_events")
        .select(["type", "ts"])
        .where("device_id", "=", ids[A.mac])
        .where("type", "=", "counter-reset")
        .execute();
    const eventsBefore = (await resetEvents()).length;
    const a = await connect(A);
    // No reconnection: a totaliser back at zero (a factory reset) is believed at once.
    const fresh = validState({ ts: iso(), totalWaterL: 0, regenerationCount: 0, settings: fullSettings() });
    await a.publishAsync(deviceTopic(A.mac, "state"), JSON.stringify(fresh), { qos: 1 });
    const row = await waitFor(async () => {
      const r = await t.db
        .selectFrom("device_state")
        .selectAll()
        .where("device_id", "=", ids[A.mac])
        .executeTakeFirst();
      return r?.total_water_l === 0 ? r : null;
    });
    expect(row.regeneration_count).toBe(0);
    expect(row.reports_refused_since).toBeNull(); // an accepted report ends the refusal
    expect(link.gateway.corrected.counterRestarts).toBe(resetsBefore + 1);
    // Counting on from the reset, then a second reset in telemetry: each is a reset, none is refused.
    await a.publishAsync(
      deviceTopic(A.mac, "telemetry"),
      JSON.stringify({ ...validMessage("telemetry"), ts: iso(1), totalWaterL: 8, intervalWaterL: 8 }),
      { qos: 1 },
    );
    await a.publishAsync(
      deviceTopic(A.mac, "telemetry"),
      JSON.stringify({ ...validMessage("telemetry"), ts: iso(2), totalWaterL: 2, intervalWaterL: 2 }),
      { qos: 1 },
    );
    await waitFor(() => link.gateway.corrected.counterRestarts === resetsBefore + 2);
    expect(sum(link.gateway.rejected)).toBe(rejectedBefore);
    const events = await resetEvents();
    expect(events.length).toBe(eventsBefore + 2);
    // The water since each reset is what the device metered: 8 L and 2 L, never a negative difference of totals.
    const water = await t.db
      .selectFrom("device_telemetry")
      .select("interval_water_l")
      .where("device_id", "=", ids[A.mac])
      .where("ts", ">=", events.at(-2)?.ts ?? "")
      .execute();
    expect(water.map((w) => w.interval_water_l).every((l) => l >= 0)).toBe(true);
    a.end(true);
  });

  it("keeps believing a time-scaled simulator whose clock runs days ahead (7200× for 20 s)", async () => {
    const corrected = link.gateway.corrected;
    const rejected = sum(link.gateway.rejected);
    const sim = new SimulatedDevice({
      brokerUrl: link.brokerUrl,
      ...C,
      model: "AQ-S35",
      timeScale: 7200,
      tickMs: 100,
      telemetryIntervalMs: 1000,
      reconnectPeriodMs: 0,
      seed: 3,
    });
    sims.push(sim);
    await sim.start();
    await new Promise((r) => setTimeout(r, 15_000)); // the device clock is now ~30 h ahead: only its pace vouches
    sim.startRegeneration();
    await new Promise((r) => setTimeout(r, 5_000));
    await link.gateway.idle();
    const state = await t.db
      .selectFrom("device_state")
      .selectAll()
      .where("device_id", "=", ids[C.mac])
      .executeTakeFirstOrThrow();
    const ahead = (Date.parse(state.last_report_time ?? "") - Date.now()) / 86_400_000;
    expect(ahead).toBeGreaterThan(1.5);
    expect(state.clock_rate).toBeGreaterThan(6000);
    expect(state.clock_rate).toBeLessThan(8500);
    expect(Object.keys(JSON.parse(state.settings_json ?? "{}"))).toHaveLength(27);
    expect(link.gateway.corrected).toEqual(corrected);
    expect(sum(link.gateway.rejected)).toBe(rejected);
    // The regeneration's stations were measured on the valve's own (fast) clock: 10 + 60 + 6 + 10 min, as set.
    const cycles = await call(t, endpoints.getRegenerationCycles, { as: owner, query: { deviceId: ids[C.mac] } });
    const last = cycles.result.items[0];
    expect(last.complete).toBe(true);
    expect(last.durationSeconds).toBe(86 * 60);
    expect(last.deviates).toBe(false);
    console.log(
      `time-scaled simulator (${engine}): clock ${ahead.toFixed(1)} days ahead at rate ${state.clock_rate}, ` +
        `0 times replaced, 0 refused, regeneration measured ${Number(last.durationSeconds) / 60} min`,
    );
  });
});
