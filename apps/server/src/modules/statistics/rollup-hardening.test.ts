import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES, openTestDatabase, type TestDatabase } from "../../../test/databases.ts";
import { backfillRollups, rollupTelemetryAt } from "./rollup.ts";

/**
 * The rollup against rows a faulty device stored before device messages were validated (or a hand edit): unreadable
 * times, 1e308 water, negative values, text in number columns and, on PostgreSQL, NaN and Infinity. Nothing may throw,
 * and the hour and the day count exactly the plausible rows.
 */
describe.each(ENGINES)("rollup with bad rows already stored on %s", (engine) => {
  let database: TestDatabase;
  const deviceId = randomUUID();
  const HOUR = "2026-03-10T08:00:00.000Z";
  let badRows = 0;

  beforeAll(async () => {
    database = await openTestDatabase(engine);
    const now = new Date().toISOString();
    await database.db
      .insertInto("devices")
      .values({
        id: deviceId,
        mac: "02AB00000001",
        secret_hash: "x",
        name: "Old",
        image: null,
        model: null,
        device_serial_number: null,
        serial_number: null,
        firmware_version: null,
        family_id: null,
        sort: 0,
        creation_time: now,
      })
      .execute();
    const row = (ts: string, receivedAt: string | null, water: number, flow = 1) => ({
      device_id: deviceId,
      ts,
      received_at: receivedAt,
      total_water_l: 1000,
      flow_rate_lpm: flow,
      interval_water_l: water,
    });
    const good = [
      row("2026-03-10T08:05:00.000Z", "2026-03-10T08:05:00.000Z", 10),
      row("2026-03-10T08:35:00.000Z", "2026-03-10T08:35:00.000Z", 2.5, 7),
    ];
    const bad = [
      row("garbage-ts", null, 5), // unreadable time, no arrival time
      row("9999-12-31T23:59:59Z", "2026-03-10T08:10:00.000Z", 1e308),
      row("1970-01-01T00:00:00Z", "2026-03-10T08:20:00.000Z", -50),
      row("2026-03-10T08:40:00.000Z", "2026-03-10T08:40:00.000Z", 3, 1e308),
    ];
    await database.db
      .insertInto("device_telemetry")
      .values([...good, ...bad])
      .execute();
    badRows = bad.length;
    if (engine === "postgres") {
      await sql`insert into device_telemetry (device_id, ts, received_at, total_water_l, flow_rate_lpm, interval_water_l)
        values (${deviceId}, 'nan-row', '2026-03-10T08:50:00.000Z', 1000, 1, 'NaN'::double precision),
               (${deviceId}, 'inf-row', '2026-03-10T08:51:00.000Z', 1000, 'Infinity'::double precision, 4)`.execute(
        database.db,
      );
      badRows += 2;
    } else {
      // SQLite keeps text in a REAL column when it does not look like a number.
      await sql`insert into device_telemetry (device_id, ts, received_at, total_water_l, flow_rate_lpm, interval_water_l)
        values (${deviceId}, 'text-row', '2026-03-10T08:50:00.000Z', 1000, 1, 'lots')`.execute(database.db);
      badRows += 1;
    }
  });

  afterAll(async () => {
    await database?.close();
  });

  it("counts only the plausible rows of the hour and the day, and never throws", async () => {
    await rollupTelemetryAt(database.db, deviceId, HOUR);
    await expect(rollupTelemetryAt(database.db, deviceId, "garbage-ts")).resolves.toBeUndefined();
    const hour = await database.db
      .selectFrom("device_water_hourly")
      .selectAll()
      .where("device_id", "=", deviceId)
      .executeTakeFirstOrThrow();
    expect(hour).toMatchObject({ hour_start: HOUR, water_l: 12.5, samples: 2, max_flow_lpm: 7 });
    const day = await database.db
      .selectFrom("device_water_daily")
      .selectAll()
      .where("device_id", "=", deviceId)
      .executeTakeFirstOrThrow();
    expect(day).toMatchObject({ day: "2026-03-10", water_l: 12.5, samples: 2 });
  });

  it("rebuilds from raw without stopping at a row whose time cannot be read", async () => {
    const hours = await backfillRollups(database.db, deviceId);
    expect(hours).toBe(1);
    const day = await database.db
      .selectFrom("device_water_daily")
      .select(["water_l", "samples"])
      .where("device_id", "=", deviceId)
      .executeTakeFirstOrThrow();
    expect(day).toEqual({ water_l: 12.5, samples: 2 });
    console.log(`rollup hardening (${engine}): ${badRows} bad rows stored, 0 counted, 0 thrown; 2 good rows = 12.5 L`);
  });
});
