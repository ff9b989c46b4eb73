import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES, openTestDatabase, type TestDatabase } from "../../../test/databases.ts";
import type { Db } from "../../db/index.ts";
import { TelemetryBatcher, type TelemetryHook, type TelemetryRow } from "../../iot/telemetry-batch.ts";
import { provisionDevice } from "../devices/index.ts";
import { backfillRollups, rollupTelemetryBatch } from "./rollup.ts";

/** The hourly and daily rollups of `deviceId` as the statistics read them (the unrounded sum left aside). */
async function rollups(db: Db, deviceId: string) {
  const hourly = await db
    .selectFrom("device_water_hourly")
    .select(["hour_start", "water_l", "samples", "max_flow_lpm"])
    .where("device_id", "=", deviceId)
    .orderBy("hour_start")
    .execute();
  const daily = await db
    .selectFrom("device_water_daily")
    .select(["day", "water_l", "samples"])
    .where("device_id", "=", deviceId)
    .orderBy("day")
    .execute();
  const num = (v: unknown) => Number(v);
  return {
    hourly: hourly.map((h) => ({
      ...h,
      water_l: num(h.water_l),
      samples: num(h.samples),
      max_flow_lpm: num(h.max_flow_lpm),
    })),
    daily: daily.map((d) => ({ ...d, water_l: num(d.water_l), samples: num(d.samples) })),
  };
}

/**
 * A batch of new telemetry adds to each touched hour's stored sum instead of reading the hour's raw rows again (that
 * cost grew with the hour); the rollups stay what the raw rows give (the same as a rebuild from them), redeliveries
 * and implausible records included, and an hour without a stored sum is recomputed from the raw rows.
 */
describe.each(ENGINES)("incremental hourly rollups on %s", (engine) => {
  let database: TestDatabase;
  let device: string;
  let batcher: TelemetryBatcher;
  let total = 0;
  let tsSeconds = 0;

  beforeAll(async () => {
    database = await openTestDatabase(engine);
    device = (await provisionDevice(database.db, { mac: "02F00000C0DE", secret: "s", name: "C" })).id;
    batcher = new TelemetryBatcher({ db: database.db, onTelemetry: rollupTelemetryBatch, maxWaitMs: 20 });
  });
  afterAll(async () => {
    await database?.close();
  });

  /** A new record of the device arriving at `receivedAt`, `intervalWaterL` after the previous one. */
  const record = (receivedAt: string, intervalWaterL: number, flowRateLpm = 3): TelemetryRow => {
    total += Number.isFinite(intervalWaterL) && intervalWaterL > 0 ? intervalWaterL : 0;
    tsSeconds += 10;
    return {
      deviceId: device,
      ts: new Date(Date.UTC(2026, 0, 1) + tsSeconds * 1000).toISOString(),
      totalWaterL: total,
      flowRateLpm,
      intervalWaterL,
      receivedAt,
    };
  };

  it("equals a rebuild from the raw rows after batches into hours already rolled up", async () => {
    // Values whose float sums carry rounding: 0.1 + 0.2 …, in three batches over two hours of two days.
    const hours = ["2026-03-01T22:10:00.000Z", "2026-03-01T23:40:00.000Z", "2026-03-02T00:05:00.000Z"];
    for (let round = 0; round < 3; round++) {
      const batch: TelemetryRow[] = [];
      for (const [i, at] of hours.entries()) {
        for (let k = 0; k < 7; k++) batch.push(record(at, 0.1 * (k + 1) + 0.0007 * round, 1 + ((k + i + round) % 5)));
      }
      // An implausible record is stored raw but counts nowhere; a redelivery stores nothing.
      batch.push(record(hours[0], -4));
      batch.push(record(hours[1], 1e9, 2));
      const outcomes = await Promise.all(batch.map((r) => batcher.add(r)));
      expect(outcomes.every((o) => o === true)).toBe(true);
      expect(await batcher.add(batch[0])).toBe(false);
    }
    const live = await rollups(database.db, device);
    expect(live.hourly).toHaveLength(3);
    expect(live.hourly[0].samples).toBe(21);
    expect(live.daily.map((d) => d.day)).toEqual(["2026-03-01", "2026-03-02"]);
    await backfillRollups(database.db, device);
    expect(await rollups(database.db, device)).toEqual(live);
  });

  it("an hour without a stored sum (rolled up before migration 0018) is recomputed from its raw rows", async () => {
    const at = "2026-03-05T08:20:00.000Z";
    await batcher.add(record(at, 2));
    // As migration 0018 left it, and a raw row of that hour that never went through a batch.
    await database.db
      .updateTable("device_water_hourly")
      .set({ water_sum_l: null, water_l: 999, samples: 999 })
      .where("device_id", "=", device)
      .where("hour_start", "=", "2026-03-05T08:00:00.000Z")
      .execute();
    const byHand = record(at, 5, 7);
    await database.db
      .insertInto("device_telemetry")
      .values({
        device_id: device,
        ts: byHand.ts,
        total_water_l: byHand.totalWaterL,
        flow_rate_lpm: byHand.flowRateLpm,
        interval_water_l: byHand.intervalWaterL,
        received_at: byHand.receivedAt,
      })
      .execute();
    expect(await batcher.add(record(at, 1.5))).toBe(true);
    const hour = (await rollups(database.db, device)).hourly.find((h) => h.hour_start === "2026-03-05T08:00:00.000Z");
    expect(hour).toEqual({ hour_start: "2026-03-05T08:00:00.000Z", water_l: 8.5, samples: 3, max_flow_lpm: 7 });
    const stored = await database.db
      .selectFrom("device_water_hourly")
      .select("water_sum_l")
      .where("device_id", "=", device)
      .where("hour_start", "=", "2026-03-05T08:00:00.000Z")
      .executeTakeFirstOrThrow();
    expect(Number(stored.water_sum_l)).toBe(8.5);
  });

  it.each([
    ["an hour already rolled up", "2026-03-06T10:15:00.000Z", 1],
    ["a new hour", "2026-03-07T11:15:00.000Z", 0],
  ])(
    "two writers of one device's hour at once (two processes' batches) lose nothing: %s",
    async (_what, at, before) => {
      if (before) await batcher.add(record(at, before));
      // Each batch holds its transaction open a while after its rollup, so the two overlap (on PostgreSQL; SQLite
      // writes one transaction at a time).
      const slow: TelemetryHook = async (db, arrivals) => {
        await rollupTelemetryBatch(db, arrivals);
        await new Promise((resolve) => setTimeout(resolve, 150));
      };
      const first = new TelemetryBatcher({ db: database.db, onTelemetry: slow, maxWaitMs: 20 });
      const second = new TelemetryBatcher({ db: database.db, onTelemetry: slow, maxWaitMs: 20 });
      const rows = Array.from({ length: 40 }, (_, i) => record(at, 0.25 + i / 100));
      await Promise.all(rows.map((r, i) => (i % 2 === 0 ? first : second).add(r)));
      const hourStart = `${at.slice(0, 13)}:00:00.000Z`;
      const hour = (await rollups(database.db, device)).hourly.find((h) => h.hour_start === hourStart);
      expect(hour?.samples).toBe(40 + (before ? 1 : 0));
      const expected = before + rows.reduce((sum, r) => sum + r.intervalWaterL, 0);
      expect(hour?.water_l).toBeCloseTo(expected, 3);
    },
  );
});
