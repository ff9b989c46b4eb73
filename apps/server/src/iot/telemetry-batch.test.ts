import { randomBytes } from "node:crypto";
import { deviceTopic, MQTT_PROTOCOL_VERSION } from "@aquapilot/contract";
import mqtt from "mqtt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES, openTestDatabase, type TestDatabase } from "../../test/databases.ts";
import { InProcessBus } from "../bus.ts";
import type { Db } from "../db/index.ts";
import { provisionDevice } from "../modules/devices/index.ts";
import { rollupTelemetryBatch } from "../modules/statistics/index.ts";
import { type DeviceLink, silentLogger, startDeviceLink } from "./index.ts";
import { TelemetryBatcher, type TelemetryHook, type TelemetryRow } from "./telemetry-batch.ts";

const row = (deviceId: string, ts: string, totalWaterL: number): TelemetryRow => ({
  deviceId,
  ts,
  totalWaterL,
  flowRateLpm: 2,
  intervalWaterL: 0.5,
  receivedAt: new Date().toISOString(),
});

const telemetryRows = (db: Db, deviceId: string) =>
  db
    .selectFrom("device_telemetry")
    .select(["ts", "total_water_l"])
    .where("device_id", "=", deviceId)
    .orderBy("ts")
    .execute();

/**
 * Telemetry is written in batches, one transaction each (a transaction per message cannot keep up with the broker); a
 * batch is all or nothing, a (device, ts) is stored once even when repeated inside one batch, and the device's PUBACK
 * leaves only once its record is stored.
 */
describe.each(ENGINES)("telemetry batches on %s", (engine) => {
  let database: TestDatabase;
  let a: string;
  let b: string;

  beforeAll(async () => {
    database = await openTestDatabase(engine);
    a = (await provisionDevice(database.db, { mac: "02F0000000B1", secret: "s-a", name: "A" })).id;
    b = (await provisionDevice(database.db, { mac: "02F0000000B2", secret: "s-b", name: "B" })).id;
  });
  afterAll(async () => {
    await database?.close();
  });

  it("one transaction for records added together; a repeat inside the batch is stored once", async () => {
    const calls: Array<ReadonlyArray<{ deviceId: string }>> = [];
    const hook: TelemetryHook = async (db, arrivals) => {
      calls.push(arrivals);
      await rollupTelemetryBatch(db, arrivals);
    };
    const batcher = new TelemetryBatcher({ db: database.db, onTelemetry: hook, maxWaitMs: 50 });
    const t1 = "2026-01-01T00:00:00.000Z";
    const t2 = "2026-01-01T00:00:10.000Z";
    const outcomes = await Promise.all([
      batcher.add(row(a, t1, 10)),
      batcher.add(row(a, t1, 99)), // the same record again (a redelivery in the same batch)
      batcher.add(row(b, t1, 20)),
      batcher.add(row(a, t2, 11)),
    ]);
    expect(outcomes).toEqual([true, false, true, true]);
    expect(batcher.written).toBe(1);
    expect(await telemetryRows(database.db, a)).toEqual([
      { ts: t1, total_water_l: 10 },
      { ts: t2, total_water_l: 11 },
    ]);
    expect(calls.map((c) => c.length)).toEqual([3]);
    const hourly = await database.db
      .selectFrom("device_water_hourly")
      .select(["device_id", "samples", "water_l"])
      .where("device_id", "in", [a, b])
      .orderBy("samples")
      .execute();
    expect(hourly).toEqual([
      { device_id: b, samples: 1, water_l: 0.5 },
      { device_id: a, samples: 2, water_l: 1 },
    ]);
    // Stored before: a later batch stores and rolls up nothing for it.
    expect(await batcher.add(row(a, t1, 10))).toBe(false);
    expect(calls).toHaveLength(1);
  });

  it("a batch that fails midway stores nothing and rejects every record", async () => {
    let fail = true;
    const hook: TelemetryHook = async (db, arrivals) => {
      await rollupTelemetryBatch(db, arrivals);
      if (fail) throw new Error("rollup failed");
    };
    const batcher = new TelemetryBatcher({ db: database.db, onTelemetry: hook, maxRows: 3, maxWaitMs: 1000 });
    const t = "2026-02-01T00:00:00.000Z";
    const before = await telemetryRows(database.db, b);
    // maxRows 3: the third record closes the batch at once, without waiting for maxWaitMs.
    const outcomes = await Promise.allSettled([
      batcher.add(row(a, t, 30)),
      batcher.add(row(b, t, 40)),
      batcher.add(row(a, "2026-02-01T00:00:10.000Z", 31)),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(["rejected", "rejected", "rejected"]);
    expect(await telemetryRows(database.db, b)).toEqual(before);
    expect((await telemetryRows(database.db, a)).some((r) => r.ts.startsWith("2026-02"))).toBe(false);
    // The next batch is written normally, the failed records included.
    fail = false;
    expect(await Promise.all([batcher.add(row(a, t, 30)), batcher.add(row(b, t, 40))])).toEqual([true, true]);
  });
});

/**
 * Group commit: while a batch is written, everything that arrives waits for the next one, which is
 * written as soon as the first has committed (no 1 ms batches queueing behind it), and holds at most maxRows.
 */
describe("group commit", () => {
  let database: TestDatabase;
  let a: string;

  beforeAll(async () => {
    database = await openTestDatabase("sqlite");
    a = (await provisionDevice(database.db, { mac: "02F0000000E1", secret: "s-e", name: "E" })).id;
  });
  afterAll(async () => {
    await database?.close();
  });

  it("entries added during a write form the next batches, at most maxRows each, written in order", async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const sizes: number[] = [];
    const hook: TelemetryHook = async (db, arrivals) => {
      sizes.push(arrivals.length);
      // The first batch is held until the test has added the others.
      if (sizes.length === 1) await held;
      await rollupTelemetryBatch(db, arrivals);
    };
    const batcher = new TelemetryBatcher({ db: database.db, onTelemetry: hook, maxRows: 5, maxWaitMs: 1 });
    const ts = (i: number) => new Date(Date.UTC(2026, 3, 1, 0, 0, i)).toISOString();
    const firstBatch = batcher.add(row(a, ts(0), 1));
    while (sizes.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    // Seven records while the first batch is being written, 3 and, more than maxWaitMs later, 4: one batch of 5 (the
    // most) and one of 2, not a batch per maxWaitMs (3, then 4) queueing behind the first.
    const later = Array.from({ length: 3 }, (_, i) => batcher.add(row(a, ts(i + 1), i + 2)));
    await new Promise((resolve) => setTimeout(resolve, 20));
    later.push(...Array.from({ length: 4 }, (_, i) => batcher.add(row(a, ts(i + 4), i + 5))));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(batcher.written).toBe(0);
    release();
    expect(await Promise.all([firstBatch, ...later])).toEqual(Array(8).fill(true));
    expect(sizes).toEqual([1, 5, 2]);
    expect(batcher.written).toBe(3);
    expect((await telemetryRows(database.db, a)).map((r) => r.total_water_l)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    await batcher.idle();
  });
});

/**
 * Every device message shares the write batch: tasks run in the batch's transaction with their device
 * read once for the batch, and their announcements leave after the commit with the rows as the batch left them.
 */
describe.each(ENGINES)("tasks in write batches on %s", (engine) => {
  let database: TestDatabase;
  let a: string;
  const MAC_A = "02F0000000C1";

  beforeAll(async () => {
    database = await openTestDatabase(engine);
    a = (await provisionDevice(database.db, { mac: MAC_A, secret: "s-c", name: "C" })).id;
  });
  afterAll(async () => {
    await database?.close();
  });

  const flowOf = (db: Db) =>
    db.selectFrom("device_state").select("flow_rate_lpm").where("device_id", "=", a).executeTakeFirst();

  it("tasks and records share one transaction; announcements leave after the commit with the batch's rows", async () => {
    const bus = new InProcessBus();
    const seen: Array<{ kind: string; flow: number | null; stored: unknown }> = [];
    bus.subscribe((event) => {
      if (event.type !== "device.changed") return;
      // Published after the commit: a read on the database (outside the batch) already sees the rows.
      seen.push({ kind: event.message.kind, flow: event.message.flowRateLpm, stored: null });
    });
    const batcher = new TelemetryBatcher({ db: database.db, bus, onTelemetry: async () => {}, maxWaitMs: 50 });
    const devicesSeen: Array<string | undefined> = [];
    const write = (flow: number) =>
      batcher.run(MAC_A, async (ctx) => {
        devicesSeen.push(ctx.device?.id);
        await ctx.trx
          .insertInto("device_state")
          .values({ device_id: a, online: 1, vacation: 0, regeneration_count: 0, flow_rate_lpm: flow, updated_at: "x" })
          .onConflict((oc) => oc.column("device_id").doUpdateSet({ flow_rate_lpm: flow }))
          .execute();
        ctx.announce(a, "state");
        return flow;
      });
    const unknown = batcher.run("02F0000000FF", async (ctx) => ctx.device);
    const results = await Promise.all([write(1.5), write(2.5), unknown]);
    expect(results).toEqual([1.5, 2.5, undefined]);
    expect(batcher.written).toBe(1);
    expect(devicesSeen).toEqual([a, a]);
    // Both announcements carry the state as the whole batch left it.
    expect(seen).toEqual([
      { kind: "state", flow: 2.5, stored: null },
      { kind: "state", flow: 2.5, stored: null },
    ]);
    expect((await flowOf(database.db))?.flow_rate_lpm).toBe(2.5);
  });

  it("a failing task rolls the whole batch back, announces nothing and rejects every task and record", async () => {
    const bus = new InProcessBus();
    let announced = 0;
    bus.subscribe(() => announced++);
    const batcher = new TelemetryBatcher({ db: database.db, bus, onTelemetry: async () => {}, maxWaitMs: 50 });
    const before = (await flowOf(database.db))?.flow_rate_lpm;
    const outcomes = await Promise.allSettled([
      batcher.run(MAC_A, async (ctx) => {
        await ctx.trx.updateTable("device_state").set({ flow_rate_lpm: 9 }).where("device_id", "=", a).execute();
        ctx.announce(a, "state");
      }),
      batcher.add(row(a, "2026-03-01T00:00:00.000Z", 50)),
      batcher.run(MAC_A, async () => {
        throw new Error("write failed");
      }),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(["rejected", "rejected", "rejected"]);
    expect(announced).toBe(0);
    expect((await flowOf(database.db))?.flow_rate_lpm).toBe(before);
    expect((await telemetryRows(database.db, a)).some((r) => r.ts.startsWith("2026-03"))).toBe(false);
  });
});

/**
 * The embedded broker acknowledges a device's telemetry only once it is stored: a PUBACK means a committed row, and
 * a record whose batch failed is not acknowledged — the device's connection is closed and the device sends it again.
 */
describe("embedded broker: PUBACK after the batch committed", () => {
  const D = { mac: "02F0000000B7", secret: randomBytes(32).toString("base64url") };
  let database: TestDatabase;
  let link: DeviceLink;
  let deviceId: string;
  let failing = false;
  let failures = 0;

  beforeAll(async () => {
    database = await openTestDatabase("sqlite");
    link = await startDeviceLink({
      db: database.db,
      bus: new InProcessBus(),
      dataDir: database.dataDir,
      mqttPort: 0,
      gatewayPassword: randomBytes(32).toString("base64url"),
      logger: silentLogger,
      onTelemetry: async (db, arrivals) => {
        if (failing) {
          failures++;
          throw new Error("database down");
        }
        await rollupTelemetryBatch(db, arrivals);
      },
      // A long wait: an acknowledgement sent before the batch is written would arrive well before it.
      // Three write batches side by side (as on PostgreSQL): a device's messages always go to the same one.
      telemetryBatch: { maxWaitMs: 300, lanes: 3 },
    });
    ({ id: deviceId } = await provisionDevice(database.db, { ...D, name: D.mac }));
  });
  afterAll(async () => {
    await link?.close();
    await database?.close();
  });

  const body = (ts: string, totalWaterL: number) =>
    JSON.stringify({ v: MQTT_PROTOCOL_VERSION, ts, totalWaterL, flowRateLpm: 1, intervalWaterL: 0.5 });

  it("the row is stored when the device's publish is acknowledged", async () => {
    const device = await mqtt.connectAsync(link.brokerUrl, { clientId: D.mac, username: D.mac, password: D.secret });
    try {
      const ts = new Date().toISOString();
      await device.publishAsync(deviceTopic(D.mac, "telemetry"), body(ts, 5), { qos: 1 });
      // No wait for the gateway: the acknowledgement itself says the row is there.
      expect(await telemetryRows(database.db, deviceId)).toEqual([{ ts, total_water_l: 5 }]);
    } finally {
      await device.endAsync();
    }
  });

  it("a failed batch is not acknowledged; the device's resend after reconnecting is stored once", async () => {
    const device = await mqtt.connectAsync(link.brokerUrl, {
      clientId: D.mac,
      username: D.mac,
      password: D.secret,
      reconnectPeriod: 200,
    });
    let closes = 0;
    device.on("close", () => closes++);
    try {
      failing = true;
      const ts = new Date(Date.now() + 1000).toISOString();
      let acked = false;
      const published = device.publishAsync(deviceTopic(D.mac, "telemetry"), body(ts, 6), { qos: 1 }).then(() => {
        acked = true;
      });
      const deadline = Date.now() + 5000;
      while ((failures === 0 || closes === 0) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(failures).toBeGreaterThan(0);
      expect(closes).toBeGreaterThan(0); // refused without a PUBACK: the broker closed the connection
      expect(acked).toBe(false);
      expect((await telemetryRows(database.db, deviceId)).map((r) => r.ts)).not.toContain(ts);
      failing = false;
      await published; // mqtt.js sends the unacknowledged message again after reconnecting
      expect((await telemetryRows(database.db, deviceId)).filter((r) => r.ts === ts)).toHaveLength(1);
    } finally {
      failing = false;
      await device.endAsync();
    }
  });

  it("a device with several messages in flight has them written in order, in one batch, counters checked in turn (after the tests above: its counters are higher); one going down is a counter reset", async () => {
    const device = await mqtt.connectAsync(link.brokerUrl, { clientId: D.mac, username: D.mac, password: D.secret });
    try {
      const t0 = Date.now() + 60_000;
      const sent = Array.from({ length: 5 }, (_, i) => ({ ts: new Date(t0 + i * 1000).toISOString(), total: 100 + i }));
      // All five published before any PUBACK (mqtt.js pipelines QoS 1), then the sixth goes backwards: a reset.
      await Promise.all(
        sent.map((m) => device.publishAsync(deviceTopic(D.mac, "telemetry"), body(m.ts, m.total), { qos: 1 })),
      );
      const resetsBefore = link.gateway.corrected.counterRestarts;
      // An earlier record sent again (a redelivery after newer ones were stored): lower, but no reset, nothing stored.
      const redeliveredBefore = link.gateway.corrected.redeliveredIgnored;
      await device.publishAsync(deviceTopic(D.mac, "telemetry"), body(sent[2].ts, sent[2].total), { qos: 1 });
      await link.gateway.idle();
      expect(link.gateway.corrected.redeliveredIgnored).toBe(redeliveredBefore + 1);
      expect(link.gateway.corrected.counterRestarts).toBe(resetsBefore);
      const resetTs = new Date(t0 + 9000).toISOString();
      await device.publishAsync(deviceTopic(D.mac, "telemetry"), body(resetTs, 1), { qos: 1 });
      const rows = await telemetryRows(database.db, deviceId);
      expect(rows.filter((r) => r.ts >= sent[0].ts)).toEqual([
        ...sent.map((m) => ({ ts: m.ts, total_water_l: m.total })),
        { ts: resetTs, total_water_l: 1 },
      ]);
      expect(link.gateway.corrected.counterRestarts).toBe(resetsBefore + 1);
      const state = await database.db
        .selectFrom("device_state")
        .select("total_water_l")
        .where("device_id", "=", deviceId)
        .executeTakeFirst();
      expect(state?.total_water_l).toBe(1);
      const resets = await database.db
        .selectFrom("device_events")
        .select(["type", "ts"])
        .where("device_id", "=", deviceId)
        .where("type", "=", "counter-reset")
        .execute();
      expect(resets).toEqual([{ type: "counter-reset", ts: resetTs }]);
      // The reset record again (a redelivery) stores and records nothing more.
      await device.publishAsync(deviceTopic(D.mac, "telemetry"), body(resetTs, 1), { qos: 1 });
      await link.gateway.idle();
      expect(link.gateway.corrected.counterRestarts).toBe(resetsBefore + 1);
      expect((await telemetryRows(database.db, deviceId)).filter((r) => r.ts >= sent[0].ts)).toHaveLength(6);
    } finally {
      await device.endAsync();
    }
  });
});

/**
 * Two server processes' batches (shared subscriptions hand a device's messages to either) with crossed
 * devices — one holds A's state report and B's telemetry, the other B's report and A's telemetry — both commit. Two
 * batchers on one database stand for the two processes; each waits inside the telemetry hook until the other has
 * reached it too, at most 1 s. When the live figures of telemetry were a pass of their own after the reports' upsert
 * (the hook ran between the two), each then held one `device_state` row and waited for the other's: PostgreSQL found
 * the deadlock and aborted one batch.
 */
describe.each(ENGINES)("two processes' batches of crossed devices on %s", (engine) => {
  let database: TestDatabase;
  const MAC_A = "02F0000000D1";
  const MAC_B = "02F0000000D2";
  let a: string;
  let b: string;

  beforeAll(async () => {
    database = await openTestDatabase(engine);
    a = (await provisionDevice(database.db, { mac: MAC_A, secret: "s-d1", name: "D1" })).id;
    b = (await provisionDevice(database.db, { mac: MAC_B, secret: "s-d2", name: "D2" })).id;
    for (const id of [a, b]) {
      // Both rows exist (the devices have reported before): an upsert then takes a lock on a row the other may want.
      await database.db
        .insertInto("device_state")
        .values({ device_id: id, online: 1, vacation: 0, regeneration_count: 0, updated_at: "2026-01-01T00:00:00Z" })
        .onConflict((oc) => oc.column("device_id").doNothing())
        .execute();
    }
  });
  afterAll(async () => {
    await database?.close();
  });

  /** A hook that holds the first caller until a second one arrives (or `limitMs` passes), then lets both go on. */
  function meetingHook(limitMs: number): { hook: TelemetryHook; met: () => boolean } {
    let arrived = 0;
    let release: () => void = () => {};
    const both = new Promise<void>((resolve) => {
      release = resolve;
    });
    return {
      hook: async () => {
        arrived++;
        if (arrived === 2) release();
        else await Promise.race([both, new Promise((r) => setTimeout(r, limitMs))]);
      },
      met: () => arrived === 2,
    };
  }

  it("both commit: every record and state report of both batches is stored", async () => {
    const meeting = meetingHook(1000);
    const p = new TelemetryBatcher({ db: database.db, onTelemetry: meeting.hook, maxWaitMs: 20 });
    const q = new TelemetryBatcher({ db: database.db, onTelemetry: meeting.hook, maxWaitMs: 20 });
    const report = (batcher: TelemetryBatcher, mac: string, flow: number) =>
      batcher.run(mac, async (ctx) => {
        if (!ctx.device) throw new Error(`${mac} unknown`);
        ctx.writeState(ctx.device.id, { station_remaining_seconds: flow, updated_at: new Date().toISOString() }, {});
      });
    const ts = "2026-04-01T00:00:00.000Z";
    const outcomes = await Promise.allSettled([
      report(p, MAC_A, 11),
      p.add(row(b, ts, 10)),
      report(q, MAC_B, 22),
      q.add(row(a, ts, 20)),
    ]);
    expect(outcomes.map((o) => (o.status === "rejected" ? String(o.reason) : o.status))).toEqual([
      "fulfilled",
      "fulfilled",
      "fulfilled",
      "fulfilled",
    ]);
    expect(meeting.met()).toBe(true);
    const states = await database.db
      .selectFrom("device_state")
      .select(["device_id", "station_remaining_seconds", "total_water_l"])
      .where("device_id", "in", [a, b])
      .execute();
    const byId = new Map(states.map((s) => [s.device_id, s]));
    expect(byId.get(a)).toMatchObject({ station_remaining_seconds: 11, total_water_l: 20 });
    expect(byId.get(b)).toMatchObject({ station_remaining_seconds: 22, total_water_l: 10 });
  });
});
