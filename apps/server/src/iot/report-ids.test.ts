import { MQTT_PROTOCOL_VERSION, type MqttChannel } from "@aquapilot/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES, openTestDatabase, type TestDatabase } from "../../test/databases.ts";
import { InProcessBus } from "../bus.ts";
import { provisionDevice } from "../modules/devices/index.ts";
import { rollupTelemetryBatch } from "../modules/statistics/index.ts";
import { DeviceMessageChecks } from "./checks.ts";
import { silentLogger } from "./logger.ts";
import { DeviceRecords } from "./records.ts";

/**
 * Report ids and late records (docs/device-protocol.md §3.6, §5.1), through the gateway's writers on both engines:
 * what `handle` answers for the receipt, a copy stored once whatever its time, and a resent record that is older than
 * what is stored taken as late — stored, not a counter reset, the live total left at the newest record — while a lower
 * totaliser that is no copy, or a copy newer than everything stored, is still a counter reset.
 */
describe.each(ENGINES)("report ids and late records on %s", (engine) => {
  let database: TestDatabase;
  let records: DeviceRecords;
  let checks: DeviceMessageChecks;
  let seq = 0;
  /** A device of its own per test, its first record at a plausible time one hour ago. */
  let mac: string;
  let deviceId: string;
  let base: number;

  beforeAll(async () => {
    database = await openTestDatabase(engine);
    checks = new DeviceMessageChecks(silentLogger);
    records = new DeviceRecords({
      db: database.db,
      bus: new InProcessBus(),
      logger: silentLogger,
      checks,
      onTelemetry: rollupTelemetryBatch,
    });
  });

  afterAll(async () => {
    await records?.idle();
    await database?.close();
  });

  async function newDevice(): Promise<void> {
    seq += 1;
    mac = `02E1000000${String(seq).padStart(2, "0")}`;
    ({ id: deviceId } = await provisionDevice(database.db, { mac, secret: `secret-${mac}-0123456789`, name: mac }));
    base = Date.now() - 3_600_000;
  }

  const at = (seconds: number) => new Date(base + seconds * 1000).toISOString();
  const record = (id: string | undefined, seconds: number, totalWaterL: number, resent = false) => ({
    v: MQTT_PROTOCOL_VERSION,
    ts: at(seconds),
    totalWaterL,
    flowRateLpm: 1,
    intervalWaterL: Math.min(10, totalWaterL),
    ...(id ? { id } : {}),
    ...(resent ? { resent: true } : {}),
  });
  const handle = (channel: MqttChannel, body: unknown) =>
    records.handle(mac, channel, Buffer.from(JSON.stringify(body)), false);
  /** As the broker delivers a message again (MQTT DUP: its first delivery was never acknowledged). */
  const redeliver = (channel: MqttChannel, body: unknown) =>
    records.handle(mac, channel, Buffer.from(JSON.stringify(body)), false, true);
  const state = (seconds: number, totalWaterL: number) => ({
    v: 1,
    ts: at(seconds),
    station: 0,
    stationRemainingSeconds: null,
    remainingWaterL: 4000,
    capacityL: 4500,
    flowRateLpm: 0,
    totalWaterL,
    vacation: false,
    closeReason: null,
    firmwareVersion: "1.0.0",
    model: "AQ-S25",
    serialNumber: "RV",
    deviceSerialNumber: "DSN",
    regenerationCount: 0,
  });
  const lastReport = async () =>
    await database.db
      .selectFrom("device_state")
      .select(["last_report_time", "total_water_l"])
      .where("device_id", "=", deviceId)
      .executeTakeFirstOrThrow();
  const stored = () =>
    database.db
      .selectFrom("device_telemetry")
      .select(["report_id", "ts", "total_water_l", "interval_water_l"])
      .where("device_id", "=", deviceId)
      .orderBy("ts")
      .execute();
  const resets = async () =>
    (
      await database.db
        .selectFrom("device_events")
        .select("id")
        .where("device_id", "=", deviceId)
        .where("type", "=", "counter-reset")
        .execute()
    ).length;
  const liveTotal = async () =>
    (
      await database.db
        .selectFrom("device_state")
        .select(["total_water_l", "telemetry_total_l"])
        .where("device_id", "=", deviceId)
        .executeTakeFirstOrThrow()
    ).telemetry_total_l;

  it("answers the report id to receipt: stored, stored before (under any time), refused by the schema; none without one", async () => {
    await newDevice();
    expect(await handle("telemetry", record("t-1", 0, 100))).toBe("t-1");
    // The same report again, under another time: answered again, stored once.
    expect(await handle("telemetry", { ...record("t-1", 1, 100), resent: true })).toBe("t-1");
    expect(await handle("telemetry", record(undefined, 2, 100))).toBeNull();
    expect(await handle("event", { v: 1, ts: at(3), id: "e-1", type: "regeneration-start" })).toBe("e-1");
    expect(await handle("event", { v: 1, ts: at(3), id: "e-1", type: "regeneration-start" })).toBe("e-1");
    // Refused for good: receipted, so the device stops sending it; nothing stored.
    expect(await handle("event", { v: 1, ts: at(4), id: "e-bad", type: "no-such-type" })).toBe("e-bad");
    expect(await handle("telemetry", { ...record("t-bad", 5, 100), totalWaterL: -1 })).toBe("t-bad");
    expect(await handle("telemetry", { ...record("t-bad", 5, 100), id: "" })).toBeNull(); // no readable id
    expect(await handle("status", { v: 1, online: true })).toBeNull();
    expect((await stored()).map((r) => r.report_id)).toEqual(["t-1", null]);
    const events = await database.db
      .selectFrom("device_events")
      .select("id")
      .where("device_id", "=", deviceId)
      .execute();
    expect(events.map((e) => e.id)).toEqual(["e-1"]);
  });

  it("stores a resent record older than the stored ones as late: no counter reset, the live total stays the newest", async () => {
    await newDevice();
    await handle("telemetry", record("r-1", 0, 100));
    await handle("telemetry", record("r-3", 20, 300)); // r-2 was lost on its way
    expect(await handle("telemetry", record("r-2", 10, 200, true))).toBe("r-2");
    expect(await resets()).toBe(0);
    expect(await liveTotal()).toBe(300);
    expect((await stored()).map((r) => [r.report_id, r.interval_water_l])).toEqual([
      ["r-1", 10],
      ["r-2", 10],
      ["r-3", 10],
    ]);
    // In one batch: the newer record queued first, the late copy after it.
    await Promise.all([handle("telemetry", record("r-5", 40, 500)), handle("telemetry", record("r-4", 30, 400, true))]);
    expect(await resets()).toBe(0);
    expect(await liveTotal()).toBe(500);
    // Older than the last state report (a state sent at the reconnection, before the copies): late as well.
    await handle("state", state(60, 700));
    expect(await handle("telemetry", record("r-6", 50, 600, true))).toBe("r-6");
    expect(await resets()).toBe(0);
    expect((await stored()).map((r) => r.report_id)).toEqual(["r-1", "r-2", "r-3", "r-4", "r-5", "r-6"]);
  });

  it("still takes a lower totaliser for a counter reset when the record is no copy, or newer than everything stored", async () => {
    await newDevice();
    await handle("telemetry", record("c-1", 0, 500));
    // Not marked as sent before: a reset, even with an older time (a clock set back with the counter).
    await handle("telemetry", record("c-2", -10, 5));
    expect(await resets()).toBe(1);
    expect(await liveTotal()).toBe(5);
    await handle("telemetry", record("c-3", 10, 600));
    // A copy newer than every stored report: the reset's own record, sent again.
    await handle("telemetry", record("c-4", 20, 7, true));
    expect(await resets()).toBe(2);
    expect(await liveTotal()).toBe(7);
    expect(checks.rejected.invalid).toBe(3); // the first test's three refusals, none here
  });

  it("a redelivered state report with lower counters is an older report, not a counter reset: it writes nothing", async () => {
    await newDevice();
    await handle("state", state(0, 100));
    await handle("state", state(10, 200));
    // Delivered before a broker or gateway restart and never acknowledged: the broker sends it again, after newer ones.
    await redeliver("state", state(0, 100));
    expect(await resets()).toBe(0);
    expect(await lastReport()).toEqual({ last_report_time: at(10), total_water_l: 200 });
    // A rebooted device's first state whose first delivery was not stored: ignored too; its next fresh report (the
    // device reports again within minutes) records the reset, once.
    await redeliver("state", state(20, 0));
    expect(await resets()).toBe(0);
    await handle("telemetry", record("b-1", 30, 1));
    await handle("state", state(40, 2));
    expect(await resets()).toBe(1);
    expect(await lastReport()).toEqual({ last_report_time: at(40), total_water_l: 2 });
  });

  it("a redelivered record older than the newest stored report is late whichever way its totaliser goes", async () => {
    await newDevice();
    await handle("telemetry", record("o-1", 0, 100));
    // The old counter's record, in flight when the gateway lost its connection; then the device rebooted.
    const inFlight = record("o-2", 10, 110);
    await handle("state", state(20, 0));
    expect(await resets()).toBe(1);
    await handle("telemetry", record("n-1", 30, 1));
    // The broker delivers the old record again after the rebooted device's: stored, not moving the live total.
    expect(await redeliver("telemetry", inFlight)).toBe("o-2");
    expect(await liveTotal()).toBe(1);
    await handle("telemetry", record("n-2", 40, 2));
    expect(await resets()).toBe(1);
    expect(await liveTotal()).toBe(2);
    expect((await stored()).map((r) => r.report_id)).toEqual(
      ["o-1", "o-2", null, "n-1", "n-2"].filter((x) => x !== null),
    );
    // A redelivered record newer than everything stored is the newest report: it moves the live total.
    await redeliver("telemetry", record("n-3", 50, 3));
    expect(await liveTotal()).toBe(3);
  });
});
