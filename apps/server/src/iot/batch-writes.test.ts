import { MQTT_PROTOCOL_VERSION, type MqttChannel } from "@aquapilot/contract";
import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  UnknownRow,
} from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES, openTestDatabase, type TestDatabase } from "../../test/databases.ts";
import { type BusEvent, InProcessBus } from "../bus.ts";
import type { Db } from "../db/index.ts";
import { provisionDevice } from "../modules/devices/index.ts";
import { recordClockDrift, recordClockDrifts, rollupTelemetryBatch } from "../modules/statistics/index.ts";
import { type ChangeRow, presentChange, readChangeRow } from "./change-message.ts";
import { DeviceMessageChecks } from "./checks.ts";
import { silentLogger } from "./logger.ts";
import { DeviceRecords } from "./records.ts";
import type { TelemetryHook } from "./telemetry-batch.ts";

/** Counts the statements sent through a Kysely instance, by kind and table ("InsertQueryNode device_state", "RawNode"). */
class StatementCounter implements KyselyPlugin {
  readonly counts = new Map<string, number>();
  transformQuery(args: PluginTransformQueryArgs) {
    const node = args.node as { kind: string; into?: { table: { identifier: { name: string } } } };
    const key = node.into ? `${node.kind} ${node.into.table.identifier.name}` : node.kind;
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
  count(key: string): number {
    return this.counts.get(key) ?? 0;
  }
  reset(): void {
    this.counts.clear();
  }
}

const now = () => new Date().toISOString();
const state = (over: Record<string, unknown> = {}) => ({
  v: MQTT_PROTOCOL_VERSION,
  ts: now(),
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
  ...over,
});
const status = (online: boolean) => ({ v: MQTT_PROTOCOL_VERSION, online, ts: now() });
const telemetry = (ts: string, totalWaterL: number) => ({
  v: MQTT_PROTOCOL_VERSION,
  ts,
  totalWaterL,
  flowRateLpm: 3,
  intervalWaterL: 1,
});

/** The `device_state` columns a test compares (times of arrival and of the clock-rate anchor left out). */
const STATE_COLUMNS = [
  "online",
  "station",
  "remaining_water_l",
  "capacity_l",
  "flow_rate_lpm",
  "total_water_l",
  "vacation",
  "regeneration_count",
  "close_reason",
] as const;

/**
 * Few statements per batch, each a round trip on PostgreSQL: a write batch writes its devices' `device_state` rows in
 * one multi-row upsert and their changed identities in one `devices` update, and the result is exactly what the
 * messages written one after another would have left: several messages of a device merged in order, a created row
 * complete, a redelivery writing nothing twice, and a failed batch storing nothing of any device — on both engines,
 * since the PostgreSQL lanes are what the scale-out runs.
 */
describe.each(ENGINES)("multi-row writes of a batch on %s", (engine) => {
  let database: TestDatabase;
  let counter: StatementCounter;
  let counted: Db;
  let failTelemetry = false;
  const events: BusEvent[] = [];
  const hook: TelemetryHook = async (db, arrivals) => {
    await rollupTelemetryBatch(db, arrivals);
    if (failTelemetry) throw new Error("rollup failed");
  };
  const ids: Record<string, string> = {};
  const macs = Array.from({ length: 9 }, (_, i) => `02F00000D0${String(i).padStart(2, "0")}`);

  /** Records that write everything they are handed within 200 ms in one batch (one lane). */
  const records = () => {
    const bus = new InProcessBus();
    bus.subscribe((e) => {
      events.push(e);
    });
    return new DeviceRecords({
      db: counted,
      bus,
      logger: silentLogger,
      checks: new DeviceMessageChecks(silentLogger),
      onTelemetry: hook,
      telemetryBatch: { maxWaitMs: 200, lanes: 1 },
    });
  };
  /** Hands every message to `r` at once (so they share a batch) and waits for all of them. */
  const handleAll = (r: DeviceRecords, messages: Array<[string, MqttChannel, unknown]>) =>
    Promise.allSettled(
      messages.map(([mac, channel, body]) => r.handle(mac, channel, Buffer.from(JSON.stringify(body)), false)),
    );
  const stateRow = (mac: string) =>
    database.db
      .selectFrom("device_state")
      .select([...STATE_COLUMNS])
      .where("device_id", "=", ids[mac])
      .executeTakeFirst();
  const identityRow = (mac: string) =>
    database.db
      .selectFrom("devices")
      .select(["model", "serial_number", "device_serial_number", "firmware_version"])
      .where("id", "=", ids[mac])
      .executeTakeFirstOrThrow();

  beforeAll(async () => {
    database = await openTestDatabase(engine);
    counter = new StatementCounter();
    counted = database.db.withPlugin(counter);
    for (const mac of macs) ids[mac] = (await provisionDevice(database.db, { mac, secret: `s-${mac}`, name: mac })).id;
  });
  afterAll(async () => {
    await database?.close();
  });

  it("state reports of several devices: one device_state upsert and one devices update for the whole batch", async () => {
    const [a, b, c] = macs;
    const r = records();
    counter.reset();
    const outcomes = await handleAll(r, [
      [a, "state", state({ station: 1, totalWaterL: 10 })],
      [b, "state", state({ station: 2, totalWaterL: 20, model: "AQ-B" })],
      [c, "state", state({ station: 3, totalWaterL: 30 })],
      // A second report of the same device in the same batch: checked against the first, and it wins.
      [a, "state", state({ station: 4, totalWaterL: 11, regenerationCount: 2 })],
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(["fulfilled", "fulfilled", "fulfilled", "fulfilled"]);
    expect(counter.count("InsertQueryNode device_state")).toBe(1);
    // Each device's identity differed from its provisioned row: one statement for all three.
    expect(counter.count("RawNode")).toBe(1);
    // The devices read once; the change messages built from the upsert's returned rows, without a second read.
    expect(counter.count("SelectQueryNode")).toBe(1);
    const announced = events.slice(-4).map((e) => (e.type === "device.changed" ? e.message : null));
    for (const mac of [b, c]) {
      const row = await readChangeRow(database.db, ids[mac]);
      expect(announced.filter((m) => m?.deviceId === ids[mac])).toEqual([presentChange(row as ChangeRow, "state")]);
    }
    // Both of a's announcements carry the row as the whole batch left it.
    const rowA = presentChange((await readChangeRow(database.db, ids[a])) as ChangeRow, "state");
    expect(announced.filter((m) => m?.deviceId === ids[a])).toEqual([rowA, rowA]);
    expect(await stateRow(a)).toMatchObject({ station: 4, total_water_l: 11, regeneration_count: 2, online: 0 });
    expect(await stateRow(b)).toMatchObject({ station: 2, total_water_l: 20, online: 0 });
    expect(await stateRow(c)).toMatchObject({ station: 3, total_water_l: 30 });
    expect(await identityRow(b)).toEqual({
      model: "AQ-B",
      serial_number: "RV0001",
      device_serial_number: "AQ0001",
      firmware_version: "1.2.3",
    });
    expect((await identityRow(a)).model).toBe("AQ-S25");
    // Unchanged identities are not written again.
    counter.reset();
    await handleAll(r, [
      [a, "state", state({ totalWaterL: 12, regenerationCount: 2 })],
      [b, "state", state({ totalWaterL: 21, model: "AQ-B" })],
    ]);
    expect(counter.count("InsertQueryNode device_state")).toBe(1);
    expect(counter.count("RawNode")).toBe(0);
    await r.idle();
  });

  it("status and state of a device in one batch leave the row they leave one message per batch", async () => {
    const [, , , d, e, f, g] = macs;
    // d and f: status then state; e and g: state then status (e and d in one batch, f and g one message per batch).
    const r = records();
    await handleAll(r, [
      [d, "status", status(true)],
      [d, "state", state({ station: 5, vacation: true, regenerationCount: 7 })],
      [e, "state", state({ station: 6, regenerationCount: 8 })],
      [e, "status", status(true)],
    ]);
    await handleAll(r, [[f, "status", status(true)]]);
    await handleAll(r, [[f, "state", state({ station: 5, vacation: true, regenerationCount: 7 })]]);
    await handleAll(r, [[g, "state", state({ station: 6, regenerationCount: 8 })]]);
    await handleAll(r, [[g, "status", status(true)]]);
    expect(await stateRow(d)).toEqual(await stateRow(f));
    expect(await stateRow(e)).toEqual(await stateRow(g));
    expect(await stateRow(d)).toMatchObject({ online: 1, station: 5, vacation: 1, regeneration_count: 7 });
    expect(await stateRow(e)).toMatchObject({ online: 1, station: 6, vacation: 0, regeneration_count: 8 });
    // A status alone creates a complete row (out of vacation, no regenerations yet).
    const [h] = macs.slice(7);
    await handleAll(r, [[h, "status", status(false)]]);
    expect(await stateRow(h)).toMatchObject({ online: 0, vacation: 0, regeneration_count: 0, station: null });
    await r.idle();
  });

  it("a failed batch stores nothing of any device; its redelivery is stored once", async () => {
    const [a, b, c] = macs;
    const before = { a: await stateRow(a), b: await stateRow(b), identity: await identityRow(c) };
    const ts = now();
    const batch: Array<[string, MqttChannel, unknown]> = [
      [a, "state", state({ station: 8, totalWaterL: 50, regenerationCount: 3 })],
      [b, "state", state({ station: 8, totalWaterL: 50 })],
      [c, "state", state({ totalWaterL: 50, firmwareVersion: "2.0.0" })],
      [a, "telemetry", telemetry(ts, 50)],
    ];
    failTelemetry = true;
    const r = records();
    const failed = await handleAll(r, batch);
    expect(failed.map((o) => o.status)).toEqual(["rejected", "rejected", "rejected", "rejected"]);
    expect(await stateRow(a)).toEqual(before.a);
    expect(await stateRow(b)).toEqual(before.b);
    expect(await identityRow(c)).toEqual(before.identity);
    const rows = () =>
      database.db.selectFrom("device_telemetry").select(["ts"]).where("device_id", "=", ids[a]).execute();
    expect(await rows()).toEqual([]);
    // The broker delivers the unacknowledged messages again, twice here (a redelivery after a restart as well).
    failTelemetry = false;
    const announcedBefore = events.length;
    expect((await handleAll(r, batch)).map((o) => o.status)).toEqual([
      "fulfilled",
      "fulfilled",
      "fulfilled",
      "fulfilled",
    ]);
    // The new record's live figures are written after the batch's state reports.
    expect(await stateRow(a)).toMatchObject({ station: 8, total_water_l: 50, flow_rate_lpm: 3 });
    expect((await handleAll(r, batch)).map((o) => o.status)).toEqual([
      "fulfilled",
      "fulfilled",
      "fulfilled",
      "fulfilled",
    ]);
    expect(await rows()).toEqual([{ ts }]);
    // The repeated state report is written again (an idempotent upsert); the repeated record stores nothing.
    expect(await stateRow(a)).toMatchObject({ station: 8, total_water_l: 50, flow_rate_lpm: 0 });
    expect((await identityRow(c)).firmware_version).toBe("2.0.0");
    const hourly = await database.db
      .selectFrom("device_water_hourly")
      .select(["samples"])
      .where("device_id", "=", ids[a])
      .execute();
    expect(hourly.reduce((sum, h) => sum + h.samples, 0)).toBe(1);
    // Three state announcements per delivery, the telemetry's only when stored (the first delivery).
    expect(events.length - announcedBefore).toBe(3 + 1 + 3);
    await r.idle();
  });

  it("clock drifts of many devices: one read and one upsert, the values of one measurement per device", async () => {
    const [a, b, c, d] = macs;
    const t0 = new Date("2026-05-01T12:00:00.000Z");
    const t1 = new Date("2026-05-01T12:00:10.000Z");
    // Device clocks: a 2 s ahead; b 60× fast (accelerated on its second measurement); c 1.5 s behind.
    const at = (ms: number) => new Date(ms).toISOString();
    const first = [
      { deviceId: ids[a], lastReportTime: at(t0.getTime() + 2000), now: t0 },
      { deviceId: ids[b], lastReportTime: at(t0.getTime()), now: t0 },
      { deviceId: ids[c], lastReportTime: at(t0.getTime() - 1500), now: t0 },
    ];
    const second = [
      { deviceId: ids[a], lastReportTime: at(t1.getTime() + 2000), now: t1 },
      { deviceId: ids[b], lastReportTime: at(t0.getTime() + 600_000), now: t1 },
      { deviceId: ids[c], lastReportTime: at(t1.getTime() - 1500), now: t1 },
    ];
    counter.reset();
    expect(await recordClockDrifts(counted, first)).toEqual([2, 0, -1.5]);
    expect(counter.count("SelectQueryNode")).toBe(1);
    expect(counter.count("InsertQueryNode device_clock")).toBe(1);
    expect(await recordClockDrifts(counted, second)).toEqual([2, 590, -1.5]);
    const clocks = await database.db
      .selectFrom("device_clock")
      .select(["device_id", "drift_seconds", "accelerated", "last_report_time"])
      .where("device_id", "in", [ids[a], ids[b], ids[c]])
      .execute();
    const byId = new Map(clocks.map((row) => [row.device_id, row]));
    expect(byId.get(ids[a])).toMatchObject({ drift_seconds: 2, accelerated: 0 });
    expect(byId.get(ids[b])).toMatchObject({ drift_seconds: 590, accelerated: 1 });
    expect(byId.get(ids[c])).toMatchObject({ drift_seconds: -1.5, accelerated: 0 });
    // The one-device form gives the same as a batch of one.
    expect(await recordClockDrift(database.db, ids[d], at(t0.getTime() + 500), t0)).toBe(0.5);
    expect(
      await database.db
        .selectFrom("device_clock")
        .select("drift_seconds")
        .where("device_id", "=", ids[d])
        .executeTakeFirst(),
    ).toEqual({ drift_seconds: 0.5 });
  });
});
