import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { deviceTopic, MQTT_PROTOCOL_VERSION } from "@aquapilot/contract";
import { SimulatedDevice } from "@aquapilot/device-sim";
import { hash } from "@node-rs/argon2";
import mqtt, { type MqttClient } from "mqtt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BusEvent, InProcessBus } from "../bus.ts";
import { type Db, openDatabase } from "../db/index.ts";
import { AppError } from "../http/errors.ts";
import { isMessageKey } from "../http/messages.ts";
import { rollupTelemetryBatch } from "../modules/statistics/index.ts";
import { type DeviceLink, GATEWAY_SECRET_FILE, GATEWAY_USERNAME, silentLogger, startDeviceLink } from "./index.ts";
import { settingsFingerprint } from "./records.ts";

const A = { mac: "02AA00000001", secret: "secret-of-device-a-0123456789" };
const B = { mac: "02BB00000002", secret: "secret-of-device-b-0123456789" };
const C = { mac: "02CC00000003", secret: "secret-of-device-c-0123456789" };

let dataDir: string;
let db: Db;
let bus: InProcessBus;
let link: DeviceLink;
const events: BusEvent[] = [];
const deviceIds: Record<string, string> = {};
const familyId = randomUUID();
const started: SimulatedDevice[] = [];
const clients: MqttClient[] = [];

async function waitFor<T>(probe: () => T | Promise<T>, timeoutMs = 5000): Promise<NonNullable<T>> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v as NonNullable<T>;
    if (Date.now() > until) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 20));
  }
}

function changes(mac: string, kind?: string) {
  return events.filter(
    (e) => e.type === "device.changed" && e.message.mac === mac && (kind === undefined || e.message.kind === kind),
  ) as Array<Extract<BusEvent, { type: "device.changed" }>>;
}

function device(
  spec: { mac: string; secret: string },
  extra: Partial<ConstructorParameters<typeof SimulatedDevice>[0]> = {},
) {
  const d = new SimulatedDevice({
    brokerUrl: link.brokerUrl,
    ...spec,
    seed: 1,
    tickMs: 50,
    telemetryIntervalMs: 200,
    reconnectPeriodMs: 0,
    family: { persons: 0 },
    ...extra,
  });
  started.push(d);
  return d;
}

/** A raw MQTT client; resolves on CONNACK, rejects on refusal. */
function rawClient(opts: mqtt.IClientOptions): Promise<MqttClient> {
  const c = mqtt.connect(link.brokerUrl, { reconnectPeriod: 0, connectTimeout: 5000, ...opts });
  clients.push(c);
  return new Promise((resolve, reject) => {
    c.once("connect", () => resolve(c));
    c.once("error", reject);
  });
}

async function state(mac: string) {
  return db
    .selectFrom("devices")
    .leftJoin("device_state", "device_state.device_id", "devices.id")
    .selectAll()
    .where("devices.mac", "=", mac)
    .executeTakeFirstOrThrow();
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "aq-iot-"));
  ({ db } = await openDatabase({ dataDir }));
  const now = new Date().toISOString();
  const userId = randomUUID();
  await db
    .insertInto("users")
    .values({
      id: userId,
      user_name: "owner",
      name: null,
      email: null,
      phone_number: null,
      country_code: null,
      password_hash: "x",
      service_region: 1,
      language_type: "en",
      avatar: null,
      security_stamp: "s",
      is_deleted: 0,
      creation_time: now,
    })
    .execute();
  await db
    .insertInto("families")
    .values({
      id: familyId,
      name: "Home",
      address: null,
      longitude: null,
      latitude: null,
      avatar: null,
      creator_id: userId,
      creation_time: now,
    })
    .execute();
  for (const [i, spec] of [A, B, C].entries()) {
    const id = randomUUID();
    deviceIds[spec.mac] = id;
    await db
      .insertInto("devices")
      .values({
        id,
        mac: spec.mac,
        secret_hash: await hash(spec.secret), // argon2id is the default algorithm
        name: `Softener ${i}`,
        image: null,
        model: null,
        device_serial_number: null,
        serial_number: null,
        firmware_version: null,
        family_id: i === 0 ? familyId : null,
        sort: i,
        creation_time: now,
      })
      .execute();
  }
  bus = new InProcessBus();
  bus.subscribe((e) => events.push(e));
  link = await startDeviceLink({
    db,
    bus,
    dataDir,
    mqttHost: "127.0.0.1",
    mqttPort: 0,
    logger: silentLogger,
    onTelemetry: rollupTelemetryBatch,
  });
});

afterAll(async () => {
  for (const c of clients) c.end(true);
  for (const d of started) await d.stop();
  await link?.close();
  await db?.destroy();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("embedded broker and gateway", () => {
  it("keeps the gateway password in DATA_DIR with mode 0600 and listens on the port it reports", () => {
    const file = path.join(dataDir, GATEWAY_SECRET_FILE);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(link.brokerUrl).toMatch(/^mqtt:\/\/127\.0\.0\.1:\d+$/);
    expect(link.brokerUrl).not.toMatch(/:1883$|:0$/);
  });

  it("a device connects with its credentials; the gateway records online and state and announces them", async () => {
    const a = device(A, {
      model: "AQ-S25",
      serialNumber: "RV0001",
      deviceSerialNumber: "AQ0001",
      firmwareVersion: "1.2.3",
    });
    await a.start();
    const online = await waitFor(() => changes(A.mac, "online").find((e) => e.message.online));
    expect(online.familyId).toBe(familyId);
    expect(online.deviceId).toBe(deviceIds[A.mac]);
    const st = await waitFor(() => changes(A.mac, "state")[0]);
    expect(st.message).toMatchObject({ station: 0, mac: A.mac, familyId, online: true, ack: null });
    expect(st.message.remainingWaterL).toBe(4500);
    const row = await state(A.mac);
    expect(row).toMatchObject({
      online: 1,
      station: 0,
      capacity_l: 4500,
      model: "AQ-S25",
      serial_number: "RV0001",
      device_serial_number: "AQ0001",
      firmware_version: "1.2.3",
    });
    expect(JSON.parse(row.settings_json ?? "{}")).toMatchObject({ resinVolume: 25, regeneratingTriggerTime: "02:00" });
    const telemetry = await waitFor(async () => {
      const rows = await db
        .selectFrom("device_telemetry")
        .selectAll()
        .where("device_id", "=", deviceIds[A.mac])
        .execute();
      return rows.length > 0 && rows;
    });
    expect(telemetry ? telemetry[0] : null).toMatchObject({ interval_water_l: 0, flow_rate_lpm: 0 });
  });

  it("refuses a wrong password, an unknown MAC and a client id that is not the MAC", async () => {
    await expect(device({ mac: B.mac, secret: "wrong-secret-0000000000" }).start()).rejects.toThrow(
      /Bad username or password|Not authorized/,
    );
    await expect(device({ mac: "02DD00000009", secret: B.secret }).start()).rejects.toThrow(
      /Bad username or password|Not authorized/,
    );
    await expect(rawClient({ clientId: "someone-else", username: B.mac, password: B.secret })).rejects.toThrow(
      /Identifier rejected/,
    );
    await expect(rawClient({ clientId: "gateway-x", username: GATEWAY_USERNAME, password: "guess" })).rejects.toThrow(
      /Bad username or password/,
    );
  });

  it("a device may not use another device's topics, nor '#', nor another will", async () => {
    const b = await rawClient({ clientId: B.mac, username: B.mac, password: B.secret });
    // mqtt.js rejects a SUBACK that holds a refusal (0x80) and carries the packet: read the granted codes from it.
    const suback = await b
      .subscribeAsync([deviceTopic(B.mac, "cmd"), deviceTopic(A.mac, "cmd"), "#", "aq/v1/#"], { qos: 1 })
      .then(
        () => null,
        (err: { packet?: { granted: Array<number | { qos: number }> } }) => err.packet,
      );
    expect(suback?.granted.map((g) => (typeof g === "number" ? g : g.qos))).toEqual([1, 128, 128, 128]);
    // Publishing into A's tree: the broker drops the message and closes B's connection.
    const before = changes(A.mac, "state").length;
    const closed = new Promise<void>((resolve) => b.once("close", () => resolve()));
    const forged = { ...started.find((d) => d.mac === A.mac)!.state(), station: 5 };
    b.publish(deviceTopic(A.mac, "state"), JSON.stringify(forged), { qos: 1 });
    await Promise.race([
      closed,
      new Promise((_, reject) => setTimeout(() => reject(new Error("broker did not close the connection")), 3000)),
    ]);
    await new Promise((r) => setTimeout(r, 200));
    expect(
      changes(A.mac, "state")
        .slice(before)
        .some((e) => e.message.station === 5),
    ).toBe(false);
    expect((await state(A.mac)).station).toBe(0);

    await expect(
      rawClient({
        clientId: B.mac,
        username: B.mac,
        password: B.secret,
        will: {
          topic: deviceTopic(A.mac, "status"),
          payload: Buffer.from('{"v":1,"online":false}'),
          qos: 1,
          retain: true,
        },
      }),
    ).rejects.toThrow(/Not authorized/);
  });

  it("drops invalid payloads, announces the refusal once, and keeps running", async () => {
    const b = await rawClient({ clientId: B.mac, username: B.mac, password: B.secret });
    const before = changes(B.mac).length;
    await b.publishAsync(deviceTopic(B.mac, "state"), "not json", { qos: 1 });
    await b.publishAsync(deviceTopic(B.mac, "state"), JSON.stringify({ v: 1, station: 42 }), { qos: 1 });
    await b.publishAsync(deviceTopic(B.mac, "status"), JSON.stringify({ v: MQTT_PROTOCOL_VERSION, online: true }), {
      qos: 1,
    });
    await waitFor(() =>
      changes(B.mac)
        .slice(before)
        .find((e) => e.message.kind === "online"),
    );
    // Nothing refused is stored; the household hears once that the device's reports are refused, then its status.
    const seen = changes(B.mac).slice(before);
    expect(seen.map((e) => e.message.kind)).toEqual(["state", "online"]);
    expect(seen[0].message.reportsRefusedSince).toEqual(expect.any(String));
    expect(seen[0].message.station).not.toBe(42);
    await b.publishAsync(deviceTopic(B.mac, "status"), JSON.stringify({ v: 1, online: false }), { qos: 1 });
    await waitFor(async () => (await state(B.mac)).online === 0);
    b.end();
  });

  it("vacation switched at the valve reaches the household as a domain event; an unchanged flag raises none", async () => {
    const b = await rawClient({ clientId: B.mac, username: B.mac, password: B.secret });
    const report = (vacation: boolean, ms: number) => ({
      v: 1,
      ts: new Date(Date.now() + ms).toISOString(),
      station: 0,
      stationRemainingSeconds: null,
      remainingWaterL: 4400,
      capacityL: 4500,
      flowRateLpm: 0,
      totalWaterL: 100,
      vacation,
      closeReason: null,
      firmwareVersion: "1.2.3",
      model: "AQ-S25",
      serialNumber: "RV0001",
      deviceSerialNumber: "AQ0001",
      regenerationCount: 1,
    });
    const domain = () =>
      events.filter((e) => e.type === "domain.event" && e.event.deviceId === deviceIds[B.mac]) as Array<
        Extract<BusEvent, { type: "domain.event" }>
      >;
    await b.publishAsync(deviceTopic(B.mac, "state"), JSON.stringify(report(false, 0)), { qos: 1 });
    await waitFor(async () => (await state(B.mac)).vacation === 0);
    const before = domain().length;
    await b.publishAsync(deviceTopic(B.mac, "state"), JSON.stringify(report(false, 1000)), { qos: 1 });
    await b.publishAsync(deviceTopic(B.mac, "state"), JSON.stringify(report(true, 2000)), { qos: 1 });
    await waitFor(async () => (await state(B.mac)).vacation === 1);
    await waitFor(() => domain().length > before);
    expect(
      domain()
        .slice(before)
        .map((e) => e.event),
    ).toEqual([
      // B belongs to no household here: the event names none (a household's device names its household).
      { kind: "device", familyId: null, deviceId: deviceIds[B.mac], userId: null, cause: "deviceReport" },
    ]);

    // Settings: the device's clock and salt drawn move by themselves (no event); a hardness set at the valve does.
    const withSettings = (ms: number, settings: Record<string, unknown>) =>
      JSON.stringify({ ...report(true, ms), settings });
    const at = (ms: number) => new Date(Date.now() + ms).toISOString();
    await b.publishAsync(
      deviceTopic(B.mac, "state"),
      withSettings(3000, { rawWaterHardness: 250, saltAddition: 3, currentTime: at(3000), saltUsedKg: 1 }),
      { qos: 1 },
    );
    await b.publishAsync(
      deviceTopic(B.mac, "state"),
      withSettings(4000, { saltAddition: 3, rawWaterHardness: 250, currentTime: at(4000), saltUsedKg: 4 }),
      { qos: 1 },
    );
    await waitFor(async () => (await state(B.mac)).settings_json?.includes('"saltUsedKg":4'));
    const afterClock = domain().length;
    expect(afterClock).toBe(before + 1);
    await b.publishAsync(
      deviceTopic(B.mac, "state"),
      withSettings(5000, { rawWaterHardness: 300, saltAddition: 3, currentTime: at(5000), saltUsedKg: 4 }),
      { qos: 1 },
    );
    await waitFor(() => domain().length > afterClock);
    expect(domain().at(-1)?.event).toMatchObject({ kind: "device", deviceId: deviceIds[B.mac], cause: "deviceReport" });
    b.end();
  });

  it("a settings fingerprint ignores order and the settings that move by themselves", () => {
    const a = settingsFingerprint({ rawWaterHardness: 250, saltAddition: 3, currentTime: "2026-01-01T00:00:00Z" });
    const b = settingsFingerprint({ saltAddition: 3, rawWaterHardness: 250, saltUsedKg: 9, operationDay: 40 });
    expect(a).toBe(b);
    expect(settingsFingerprint({ rawWaterHardness: 251, saltAddition: 3 })).not.toBe(a);
    expect(settingsFingerprint({ regeneratingTriggerTime: "02:00" })).not.toBe(
      settingsFingerprint({ regeneratingTriggerTime: "03:00" }),
    );
  });

  it("an abrupt disconnect fires the will: online false is recorded and announced", async () => {
    const c = device(C);
    await c.start();
    await waitFor(async () => (await state(C.mac)).online === 1);
    const before = changes(C.mac, "online").length;
    c.goOffline();
    const ev = await waitFor(() =>
      changes(C.mac, "online")
        .slice(before)
        .find((e) => !e.message.online),
    );
    expect(ev.message).toMatchObject({ online: false, deviceId: deviceIds[C.mac], familyId: null });
    expect((await state(C.mac)).online).toBe(0);
    await c.goOnline();
    await waitFor(async () => (await state(C.mac)).online === 1);
    await c.stop();
    await waitFor(async () => (await state(C.mac)).online === 0);
  });

  it("delivers a command once, even when the same id arrives twice, and records its ack", async () => {
    const a = started.find((d) => d.mac === A.mac)!;
    const commandId = randomUUID();
    const acks: string[] = [];
    a.on("command", (cmd: { id: string }, _o: unknown, repeated: boolean) => {
      if (cmd.id === commandId) acks.push(repeated ? "repeat" : "first");
    });
    const r1 = await link.sendCommand({ deviceId: deviceIds[A.mac], name: "forced-regeneration", commandId });
    expect(r1.commandId).toBe(commandId);
    const ack = await waitFor(() => changes(A.mac, "ack").find((e) => e.message.ack?.commandId === commandId));
    expect(ack.message.ack).toEqual({ commandId, ok: true, error: null, command: "forced-regeneration" });
    expect(ack.familyId).toBe(familyId);
    const cmdRow = await db.selectFrom("device_commands").selectAll().where("id", "=", commandId).executeTakeFirst();
    expect(cmdRow).toMatchObject({ status: "done", name: "forced-regeneration", error: null });
    expect(cmdRow?.acked_at).toBeTruthy();
    // Done: the household's open screens hear it as a domain event of the device.
    const doneEvent = await waitFor(() =>
      events.find(
        (e) => e.type === "domain.event" && e.event.deviceId === deviceIds[A.mac] && e.event.cause === "deviceReport",
      ),
    );
    expect(doneEvent).toMatchObject({ event: { kind: "device", familyId, deviceId: deviceIds[A.mac] } });

    // The port does not send a known id again.
    await link.sendCommand({ deviceId: deviceIds[A.mac], name: "forced-regeneration", commandId });
    // The same id for another device is refused and an unknown device is not found, with catalogue keys the error
    // envelope translates (a bare word instead of a catalogue key would reach users untranslated).
    const reused = await link.sendCommand({ deviceId: deviceIds[B.mac], name: "query", commandId }).catch((e) => e);
    expect(reused).toBeInstanceOf(AppError);
    expect(reused).toMatchObject({ code: "Conflict", messageKey: "device.commandIdInUse" });
    expect(isMessageKey(reused.messageKey)).toBe(true);
    const unknown = await link.sendCommand({ deviceId: randomUUID(), name: "query" }).catch((e) => e);
    expect(unknown).toMatchObject({ code: "NotFound", messageKey: "device.notFound" });
    // A redelivery by the broker (simulated by publishing the same id again) is acknowledged, not re-applied.
    const gwPassword = fs.readFileSync(path.join(dataDir, GATEWAY_SECRET_FILE), "utf8").trim();
    const gw = await rawClient({ clientId: "gateway-test", username: GATEWAY_USERNAME, password: gwPassword });
    const repeat = { v: 1, id: commandId, ts: new Date().toISOString(), name: "forced-regeneration", params: {} };
    await gw.publishAsync(deviceTopic(A.mac, "cmd"), JSON.stringify(repeat), { qos: 1 });
    await waitFor(() => acks.includes("repeat"));
    expect(acks).toEqual(["first", "repeat"]);
    expect(a.appliedCommands.filter((c) => c.id === commandId)).toHaveLength(1);
    expect(a.valve.snapshot().cycle).toBe("regeneration");
    await waitFor(async () => (await state(A.mac)).station === 1);

    // A refused command is acked with its error; sendCommandAndWait returns the outcome.
    const busy = await link.sendCommandAndWait({ deviceId: deviceIds[A.mac], name: "forced-regeneration" });
    expect(busy).toMatchObject({ ok: false, error: "busy" });
    const deviceEvents = () =>
      events.filter((e) => e.type === "domain.event" && e.event.deviceId === deviceIds[A.mac]).length;
    const eventsBefore = deviceEvents();
    const q = await link.sendCommandAndWait({ deviceId: deviceIds[A.mac], name: "query", timeoutMs: 3000 });
    expect(q.ok).toBe(true);
    // A query changes nothing a screen shows: no domain event (a screen's read asks one; an event would loop).
    await new Promise((r) => setTimeout(r, 300));
    expect(deviceEvents()).toBe(eventsBefore);
  });

  it("announces the station's timing with the server's arrival time", async () => {
    const before = Date.now();
    const deviceEvents = () =>
      events.filter((e) => e.type === "domain.event" && e.event.deviceId === deviceIds[A.mac]).length;
    const eventsBefore = deviceEvents();
    const q = await link.sendCommandAndWait({ deviceId: deviceIds[A.mac], name: "query", timeoutMs: 3000 });
    expect(q.ok).toBe(true);
    // A query changes nothing a screen shows: no domain event (a screen's read asks one; an event would loop).
    await new Promise((r) => setTimeout(r, 300));
    expect(deviceEvents()).toBe(eventsBefore);
    const st = await waitFor(() =>
      changes(A.mac, "state").find((e) => e.message.station === 1 && Date.parse(e.message.reportedAt ?? "") >= before),
    );
    const m = st.message;
    expect(m.stationDurationSeconds).toBe(600); // backWashTime 10 min
    expect(m.stationElapsedSeconds).toBeGreaterThanOrEqual(0);
    expect((m.stationDurationSeconds ?? 0) - (m.stationElapsedSeconds ?? 0)).toBeCloseTo(
      m.stationRemainingSeconds ?? 0,
      -1,
    );
    expect(m.serviceRemainingSeconds).toBeGreaterThan(m.stationRemainingSeconds ?? 0);
    expect(Date.parse(m.reportedAt ?? "")).toBeLessThanOrEqual(Date.now());
    expect(m.clockRate).toBe(1);
  });

  it("the event of a close reaches the bus once", async () => {
    const a = started.find((d) => d.mac === A.mac)!;
    a.injectClose(513);
    const ev = await waitFor(() => changes(A.mac, "event").find((e) => e.message.event?.closeReason === 513));
    expect(ev.message.event).toMatchObject({ type: "close", closeReason: 513 });
    await waitFor(async () => (await state(A.mac)).close_reason === 513);
    const rows = await db
      .selectFrom("device_events")
      .selectAll()
      .where("device_id", "=", deviceIds[A.mac])
      .where("type", "=", "close")
      .execute();
    expect(rows).toHaveLength(1);
  });

  it("receipts the reports it recorded (docs/device-protocol.md §3.6): a copy stored once and receipted again, a refused one receipted too", async () => {
    const b = await rawClient({ clientId: B.mac, username: B.mac, password: B.secret });
    // A device may subscribe to its own receipts only.
    const suback = await b
      .subscribeAsync([deviceTopic(B.mac, "receipt"), deviceTopic(A.mac, "receipt")], { qos: 1 })
      .then(
        () => null,
        (err: { packet?: { granted: Array<number | { qos: number }> } }) => err.packet,
      );
    expect(suback?.granted.map((g) => (typeof g === "number" ? g : g.qos))).toEqual([1, 128]);
    const receipted: string[] = [];
    b.on("message", (topic, payload) => {
      if (topic === deviceTopic(B.mac, "receipt"))
        receipted.push(...(JSON.parse(String(payload)) as { ids: string[] }).ids);
    });
    const record = (ts: string) => ({
      v: 1,
      ts,
      totalWaterL: 1e6,
      flowRateLpm: 0,
      intervalWaterL: 0,
      id: "report-b-1",
    });
    const ts = new Date().toISOString();
    await b.publishAsync(deviceTopic(B.mac, "telemetry"), JSON.stringify(record(ts)), { qos: 1 });
    // The same report sent again, even under another time (a device whose clock was corrected meanwhile).
    await b.publishAsync(
      deviceTopic(B.mac, "telemetry"),
      JSON.stringify({ ...record(new Date(Date.parse(ts) + 1000).toISOString()), resent: true }),
      { qos: 1 },
    );
    // An event the schema refuses: never stored, so receipted at once (sending it again would never help).
    await b.publishAsync(
      deviceTopic(B.mac, "event"),
      JSON.stringify({ v: 1, ts, id: "report-b-bad", type: "no-such-type" }),
      { qos: 1 },
    );
    // Without a report id: stored, no receipt.
    await b.publishAsync(
      deviceTopic(B.mac, "telemetry"),
      JSON.stringify({ ...record(new Date(Date.parse(ts) + 2000).toISOString()), id: undefined }),
      { qos: 1 },
    );
    await waitFor(
      () => receipted.filter((id) => id === "report-b-1").length === 2 && receipted.includes("report-b-bad"),
    );
    const rows = await db
      .selectFrom("device_telemetry")
      .select(["report_id", "ts"])
      .where("device_id", "=", deviceIds[B.mac])
      .execute();
    expect(rows.filter((r) => r.report_id === "report-b-1").map((r) => r.ts)).toEqual([ts]);
    expect(rows.filter((r) => r.report_id === null)).toHaveLength(1);
    expect(await db.selectFrom("device_events").select("id").where("id", "=", "report-b-bad").execute()).toEqual([]);
    expect(receipted.sort()).toEqual(["report-b-1", "report-b-1", "report-b-bad"]);

    // The simulator on the embedded broker: what it is told is stored, it forgets.
    const a = started.find((d) => d.mac === A.mac)!;
    const forgotten = await new Promise<string[]>((resolve) => a.once("receipt", resolve));
    const stored = await db
      .selectFrom("device_telemetry")
      .select("report_id")
      .where("device_id", "=", deviceIds[A.mac])
      .where("report_id", "in", forgotten)
      .execute();
    const events = await db
      .selectFrom("device_events")
      .select("id")
      .where("device_id", "=", deviceIds[A.mac])
      .where("id", "in", forgotten)
      .execute();
    expect(stored.length + events.length).toBe(forgotten.length);
    const kept = new Set(a.outbox.reports().map((r) => r.body.id));
    expect(forgotten.filter((id) => kept.has(id))).toEqual([]);
    b.end();
  });

  it("sendCommandAndWait to an offline device fails with DeviceOffline, at once or after the timeout", async () => {
    // C is offline (stopped above): refused before sending.
    const err = await link
      .sendCommandAndWait({ deviceId: deviceIds[C.mac], name: "query", timeoutMs: 300 })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe("DeviceOffline");
    // Recorded online but not answering: times out, and the command is marked failed.
    await db.updateTable("device_state").set({ online: 1 }).where("device_id", "=", deviceIds[C.mac]).execute();
    const t0 = Date.now();
    const err2 = await link
      .sendCommandAndWait({ deviceId: deviceIds[C.mac], name: "query", timeoutMs: 300, commandId: "c-timeout" })
      .catch((e: unknown) => e);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(290);
    expect((err2 as AppError).code).toBe("DeviceOffline");
    const row = await db.selectFrom("device_commands").selectAll().where("id", "=", "c-timeout").executeTakeFirst();
    expect(row).toMatchObject({ status: "failed", error: "timeout" });
  });
});
