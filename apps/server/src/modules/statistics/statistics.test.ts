import { endpoints } from "@aquapilot/contract";
import { seedDemoIfEmpty } from "@aquapilot/dev";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, describeEndpoint } from "../../../test/call.ts";
import { ENGINES } from "../../../test/databases.ts";
import { bearer, createTestApp, registerByEmail, type TestApp } from "../../../test/helpers.ts";
import { buildCycles, type CycleEvent } from "./cycles.ts";
import { reportPeriod } from "./flow-statistics.ts";
import { backfillRollups, rollupTelemetryAt } from "./rollup.ts";

/** The CSV export: a route of its own, not a contract endpoint (it answers CSV, not the envelope). */
const CSV = `${endpoints.deviceFlowStatistics.path}/export.csv`;

/** Hand-made telemetry: (ts, litres metered since the previous message). */
const TELEMETRY: Array<[string, number]> = [
  ["2026-02-28T23:00:00.000Z", 100], // outside March
  ["2026-03-02T12:00:00.000Z", 3],
  ["2026-03-10T08:00:00.000Z", 10],
  ["2026-03-10T08:30:00.000Z", 5.5],
  ["2026-03-10T09:15:00.000Z", 20],
  ["2026-03-11T23:59:00.000Z", 7],
];
const REGENERATIONS = ["2026-03-10T02:00:00.000Z", "2026-03-11T02:00:00.000Z"];

describe.each(ENGINES)("water-usage statistics on %s", (engine) => {
  let t: TestApp;
  let owner: string;
  let stranger: string;
  let deviceId: string;

  beforeAll(async () => {
    t = await createTestApp({ engine, now: () => new Date("2026-03-12T12:00:00.000Z") });
    await seedDemoIfEmpty(t.db, { devices: [{ mac: "A1B2C3D4E5A1", secret: "s1", name: "Kitchen", model: "AQ-S25" }] });
    owner = await bearer(t.app, "demo", "demo1234");
    await registerByEmail(t.app, "stats-stranger@example.com", "pass-word-1");
    stranger = await bearer(t.app, "stats-stranger@example.com", "pass-word-1");
    deviceId = (await t.db.selectFrom("devices").select("id").executeTakeFirstOrThrow()).id;
    await t.db.deleteFrom("device_state").where("device_id", "=", deviceId).execute();
    await t.db
      .insertInto("device_state")
      .values({
        device_id: deviceId,
        online: 1,
        vacation: 0,
        regeneration_count: 2,
        settings_json: JSON.stringify({ saltAddition: 3, backWashTime: 10, absorbSaltSlowWashTime: 60 }),
        last_report_time: "2026-03-12T11:59:00.000Z",
        updated_at: "2026-03-12T11:59:00.000Z",
      })
      .execute();
    let total = 0;
    for (const [ts, litres] of TELEMETRY) {
      total += litres;
      await t.db
        .insertInto("device_telemetry")
        .values({
          device_id: deviceId,
          ts,
          received_at: ts,
          total_water_l: total,
          flow_rate_lpm: litres / 10,
          interval_water_l: litres,
        })
        .execute();
      await rollupTelemetryAt(t.db, deviceId, ts);
    }
    for (const [i, ts] of REGENERATIONS.entries()) {
      await t.db
        .insertInto("device_events")
        .values({
          id: `r${i}`,
          device_id: deviceId,
          type: "regeneration-start",
          close_reason: null,
          station: null,
          ts,
          received_at: ts,
        })
        .execute();
    }
  });
  afterAll(() => t.close());

  it("shows a clock drift only once the clock's rate is measured as real time (no false warning at start)", async () => {
    const { readFreshness, recordClockDrift } = await import("./freshness.ts");
    const setRate = (rate: number | null) =>
      t.db.updateTable("device_state").set({ clock_rate: rate }).where("device_id", "=", deviceId).execute();
    // The device clock reads 15 min ahead of the server.
    await recordClockDrift(t.db, deviceId, "2026-03-12T12:15:00.000Z", new Date("2026-03-12T12:00:00.000Z"));
    await setRate(null); // a fresh device: rate not measured yet
    expect((await readFreshness(t.db, deviceId)).clockDriftSeconds).toBeNull();
    await setRate(60); // a 60× simulator
    expect((await readFreshness(t.db, deviceId)).clockDriftSeconds).toBeNull();
    await setRate(1); // a real clock, 15 min fast
    expect((await readFreshness(t.db, deviceId)).clockDriftSeconds).toBe(900);
    await t.db.deleteFrom("device_clock").where("device_id", "=", deviceId).execute();
    await setRate(null);
  });

  describeEndpoint(endpoints.deviceFlowStatistics, "views", () => {
    it("day view: 24 hourly buckets of water, regenerations and salt", async () => {
      const res = await call(t, endpoints.deviceFlowStatistics, {
        as: owner,
        body: { deviceId, reportTimeType: 3, date: "2026-03-10" },
      });
      expect(res.status).toBe(200);
      const r = res.result;
      expect(r.bucket).toBe("hour");
      expect(r.buckets).toHaveLength(24);
      expect(r.buckets[8]).toEqual({ start: "2026-03-10T08:00:00.000Z", waterL: 15.5, regenerations: 0, saltKg: 0 });
      expect(r.buckets[9].waterL).toBe(20);
      expect(r.buckets[2]).toMatchObject({ regenerations: 1, saltKg: 3 });
      expect(r.totals).toEqual({ waterL: 35.5, regenerations: 1, saltKg: 3 });
      expect(r.lastReportTime).toBe("2026-03-12T11:59:00.000Z");
    });

    it("week view: Monday to Sunday in daily buckets", async () => {
      const r = (
        await call(t, endpoints.deviceFlowStatistics, {
          as: owner,
          body: { deviceId, reportTimeType: 2, date: "2026-03-10" },
        })
      ).result;
      expect(r.from).toBe("2026-03-09T00:00:00.000Z");
      expect(r.buckets.map((b: { waterL: number }) => b.waterL)).toEqual([0, 35.5, 7, 0, 0, 0, 0]);
      expect(r.totals).toEqual({ waterL: 42.5, regenerations: 2, saltKg: 6 });
    });

    it("month view: the calendar month in ≤ 31 daily rows", async () => {
      const r = (
        await call(t, endpoints.deviceFlowStatistics, {
          as: owner,
          body: { deviceId, reportTimeType: 1, date: "2026-03-20" },
        })
      ).result;
      expect(r.buckets).toHaveLength(31);
      expect(r.buckets[1]).toMatchObject({ start: "2026-03-02T00:00:00.000Z", waterL: 3 });
      expect(r.totals).toEqual({ waterL: 45.5, regenerations: 2, saltKg: 6 });
    });

    it("days are the owner's local days: water and regenerations by real time in the X-Time-Zone", async () => {
      // 23:59 UTC on 11 March is 07:59 on 12 March in Shanghai; 02:00 UTC regenerations are 10:00 local the same day.
      const res = await call(t, endpoints.deviceFlowStatistics, {
        as: owner,
        headers: { "x-time-zone": "Asia/Shanghai" },
        body: { deviceId, reportTimeType: 2, date: "2026-03-10" },
      });
      const r = res.result;
      expect(r.from).toBe("2026-03-08T16:00:00.000Z"); // Monday 9 March, 00:00 in Shanghai
      expect(r.buckets.map((b: { waterL: number }) => b.waterL)).toEqual([0, 35.5, 0, 7, 0, 0, 0]);
      expect(r.buckets.map((b: { regenerations: number }) => b.regenerations)).toEqual([0, 1, 1, 0, 0, 0, 0]);
      const day = (
        await call(t, endpoints.deviceFlowStatistics, {
          as: owner,
          headers: { "x-time-zone": "Asia/Shanghai" },
          body: { deviceId, reportTimeType: 3, date: "2026-03-12" },
        })
      ).result;
      expect(day.buckets[7]).toMatchObject({ start: "2026-03-11T23:00:00.000Z", waterL: 7 });
      const bad = await call(t, endpoints.deviceFlowStatistics, {
        as: owner,
        body: { deviceId, reportTimeType: 3, date: "2026-02-30" },
      });
      expect(bad.status).toBe(400);
    });
  });

  it("rollups are idempotent and a backfill rebuilds the same rows", async () => {
    const snapshot = async () => ({
      hourly: await t.db
        .selectFrom("device_water_hourly")
        .select(["hour_start", "water_l", "samples"])
        .orderBy("hour_start")
        .execute(),
      daily: await t.db.selectFrom("device_water_daily").select(["day", "water_l", "samples"]).orderBy("day").execute(),
    });
    const before = await snapshot();
    expect(before.hourly).toHaveLength(5);
    expect(before.daily).toEqual([
      { day: "2026-02-28", water_l: 100, samples: 1 },
      { day: "2026-03-02", water_l: 3, samples: 1 },
      { day: "2026-03-10", water_l: 35.5, samples: 3 },
      { day: "2026-03-11", water_l: 7, samples: 1 },
    ]);
    for (const [ts] of TELEMETRY) await rollupTelemetryAt(t.db, deviceId, ts);
    expect(await snapshot()).toEqual(before);
    await t.db.updateTable("device_water_daily").set({ water_l: 999 }).execute();
    expect(await backfillRollups(t.db, deviceId)).toBe(5);
    expect(await snapshot()).toEqual(before);
  });

  it("exports CSV with a header line, raw or hourly, announcing its rows in X-Total-Rows", async () => {
    const raw = await t.app.inject({
      method: "GET",
      url: CSV,
      query: { deviceId, from: "2026-03-10", to: "2026-03-11" },
      headers: { authorization: owner },
    });
    expect(raw.statusCode).toBe(200);
    expect(raw.headers["content-type"]).toContain("text/csv");
    expect(raw.body.trim().split("\n")).toEqual([
      "ts,total_water_l,flow_rate_lpm,interval_water_l",
      "2026-03-10T08:00:00.000Z,113,1,10",
      "2026-03-10T08:30:00.000Z,118.5,0.55,5.5",
      "2026-03-10T09:15:00.000Z,138.5,2,20",
    ]);
    // Streamed without a length: the row count (header line not counted) is announced for the app's progress.
    expect(raw.headers["content-length"]).toBeUndefined();
    expect(raw.headers["x-total-rows"]).toBe("3");
    const hourly = await t.app.inject({
      method: "GET",
      url: CSV,
      query: { deviceId, from: "2026-03-10T00:00:00Z", to: "2026-03-12T00:00:00Z", granularity: "hourly" },
      headers: { authorization: owner },
    });
    expect(hourly.body.trim().split("\n")).toEqual([
      "hour_start,water_l,samples,max_flow_lpm",
      "2026-03-10T08:00:00.000Z,15.5,2,1",
      "2026-03-10T09:00:00.000Z,20,1,2",
      "2026-03-11T23:00:00.000Z,7,1,0.7",
    ]);
    expect(hourly.headers["x-total-rows"]).toBe("3");
    const none = await t.app.inject({
      method: "GET",
      url: CSV,
      query: { deviceId, from: "2020-01-01", to: "2020-01-02", granularity: "hourly" },
      headers: { authorization: owner },
    });
    expect(none.body).toBe("hour_start,water_l,samples,max_flow_lpm\n");
    expect(none.headers["x-total-rows"]).toBe("0");
    const denied = await t.app.inject({
      method: "GET",
      url: CSV,
      query: { deviceId, from: "2026-03-10", to: "2026-03-11" },
      headers: { authorization: stranger },
    });
    expect(denied.statusCode).toBe(404);
  });

  describeEndpoint(endpoints.resetSaltLevel, () => {
    it("salt: the owner resets the level; the forecast uses the last 30 days", async () => {
      const reset = await call(t, endpoints.resetSaltLevel, {
        as: owner,
        query: { deviceId, levelKg: "5" },
        lang: "en",
      });
      expect(reset.status).toBe(200);
      // 2 regenerations × 3 kg in 30 days = 0.2 kg/day; 5 kg → 25 days; no regeneration since the refill.
      expect(reset.result).toMatchObject({
        saltLevelKg: 5,
        saltPerRegenerationKg: 3,
        regenerationsLast30Days: 2,
        dailySaltUseKg: 0.2,
        saltDaysLeft: 25,
        lowSalt: false,
        message: null,
      });
    });

    it("salt: 50 kg refilled on a 3 kg valve lasts at most salt ÷ salt per regeneration × its maximum interval", async () => {
      const state = await t.db
        .selectFrom("device_state")
        .select("settings_json")
        .where("device_id", "=", deviceId)
        .executeTakeFirstOrThrow();
      const settings = JSON.parse(state.settings_json ?? "{}") as Record<string, unknown>;
      // This device's history alone (2 regenerations in 30 days: 0.2 kg a day) would say 250 days.
      for (const maxDays of [15, 10]) {
        await t.db
          .updateTable("device_state")
          .set({ settings_json: JSON.stringify({ ...settings, maximumRegenerationIntervalDay: maxDays }) })
          .where("device_id", "=", deviceId)
          .execute();
        const reset = await call(t, endpoints.resetSaltLevel, {
          as: owner,
          query: { deviceId, levelKg: "50" },
          lang: "en",
        });
        expect(reset.status).toBe(200);
        const status = await call(t, endpoints.getSaltStatus, { as: owner, query: { deviceId }, lang: "en" });
        // The physical ceiling, computed here: 50 kg ÷ 3 kg = 16⅔ regenerations, at most `maxDays` apart.
        const ceiling = Math.floor((50 / 3) * maxDays);
        expect(status.result.saltLevelKg).toBe(50);
        expect(status.result.saltPerRegenerationKg).toBe(3);
        expect(status.result.saltDaysLeft).toBeGreaterThan(0);
        expect(status.result.saltDaysLeft).toBeLessThanOrEqual(ceiling);
        expect(status.result.regenerationIntervalDays).toBeLessThanOrEqual(maxDays);
      }
      await t.db
        .updateTable("device_state")
        .set({ settings_json: state.settings_json })
        .where("device_id", "=", deviceId)
        .execute();
    });

    it("salt: the level entered is the level shown, even when the device's clock runs ahead of the cloud's", async () => {
      // A regeneration the cloud received an hour before the refill, stamped by a fast device clock a day later.
      await t.db
        .insertInto("device_events")
        .values({
          id: "r-fast-clock",
          device_id: deviceId,
          type: "regeneration-start",
          close_reason: null,
          station: null,
          ts: "2026-03-13T11:00:00.000Z",
          received_at: "2026-03-12T11:00:00.000Z",
        })
        .execute();
      const reset = await call(t, endpoints.resetSaltLevel, {
        as: owner,
        query: { deviceId, levelKg: "25" },
        lang: "en",
      });
      expect(reset.result).toMatchObject({ saltLevelKg: 25, regenerationsLast30Days: 3 });
      await t.db.deleteFrom("device_events").where("id", "=", "r-fast-clock").execute();
    });
  });

  it("strangers get what unknown devices get (404), for statistics and commands", async () => {
    const stats = endpoints.deviceFlowStatistics;
    expect((await call(t, stats, { as: stranger, body: { deviceId, reportTimeType: 3 } })).status).toBe(404);
    expect((await call(t, stats, { as: owner, body: { deviceId: "nope", reportTimeType: 3 } })).status).toBe(404);
    const cmd = await call(t, endpoints.forcedRegeneration, { as: stranger, query: { deviceId } });
    expect(cmd.status).toBe(404);
    expect(t.devices.calls).toEqual([]);
    const cycles = await call(t, endpoints.getRegenerationCycles, { as: stranger, query: { deviceId } });
    expect(cycles.status).toBe(404);
  });
});

describe("statistics pure parts", () => {
  it("report periods", () => {
    const now = new Date("2026-03-12T12:00:00Z");
    expect(reportPeriod(3, undefined, now).from.toISOString()).toBe("2026-03-12T00:00:00.000Z");
    const week = reportPeriod(2, "2026-03-15", now); // a Sunday
    expect([week.from.toISOString(), week.to.toISOString()]).toEqual([
      "2026-03-09T00:00:00.000Z",
      "2026-03-16T00:00:00.000Z",
    ]);
    expect(reportPeriod(1, "2026-02-10", now).starts).toHaveLength(28);
  });

  it("regeneration cycles: per-station durations and the > 20 % deviation flag", () => {
    const settings = {
      backWashTime: 10,
      absorbSaltSlowWashTime: 60,
      saltTankRefillTime: 6,
      washTime: 10,
      saltAddition: 3,
    };
    const at = (base: string, s: number) => new Date(Date.parse(base) + s * 1000).toISOString();
    const cycle = (base: string, backwash: number): CycleEvent[] => {
      const marks = [0, backwash, backwash + 3600, backwash + 3960, backwash + 4560];
      return [
        { type: "regeneration-start", station: null, ts: at(base, 0) },
        ...[1, 2, 3, 4].map((station, i) => ({ type: "station", station, ts: at(base, marks[i]) })),
        { type: "station", station: 0, ts: at(base, marks[4]) },
        { type: "regeneration-end", station: null, ts: at(base, marks[4]) },
      ];
    };
    const events = [
      ...cycle("2026-03-01T02:00:00.000Z", 600), // as configured
      ...cycle("2026-03-02T02:00:00.000Z", 720), // backwash +20 %: not flagged
      ...cycle("2026-03-03T02:00:00.000Z", 900), // backwash +50 %: flagged
      { type: "regeneration-start", station: null, ts: "2026-03-04T02:00:00.000Z" },
      { type: "station", station: 1, ts: "2026-03-04T02:00:00.000Z" },
    ];
    const cycles = buildCycles(events, settings);
    expect(cycles).toHaveLength(4);
    expect(cycles[0]).toMatchObject({ durationSeconds: 5160, expectedSeconds: 5160, deviates: false, complete: true });
    expect(cycles[0].stations.map((s) => [s.station, s.durationSeconds, s.expectedSeconds])).toEqual([
      [1, 600, 600],
      [2, 3600, 3600],
      [3, 360, 360],
      [4, 600, 600],
    ]);
    expect(cycles[0]).toMatchObject({ waterL: null, saltKg: 3 });
    expect(cycles[1].deviates).toBe(false);
    expect(cycles[2].deviates).toBe(true);
    expect(cycles[2].stations[0]).toMatchObject({ station: 1, durationSeconds: 900, deviates: true });
    expect(cycles[3]).toMatchObject({ complete: false, endTime: null, deviates: false });
  });
});

describe("regeneration timeline across a time sync", () => {
  const settings = {
    backWashTime: 10,
    absorbSaltSlowWashTime: 60,
    saltTankRefillTime: 6,
    washTime: 10,
    saltAddition: 3,
  };
  const ev = (type: string, station: number | null, ts: string, receivedAt: string, extra = {}): CycleEvent => ({
    type,
    station,
    ts,
    receivedAt,
    ...extra,
  });
  // A clock 5 h fast runs a normal cycle; the owner then syncs it, and the next cycle is stamped 5 h "earlier".
  const first = [
    ev("regeneration-start", null, "2026-03-01T07:00:00.000Z", "2026-03-01T02:00:00.000Z"),
    ev("station", 1, "2026-03-01T07:00:00.000Z", "2026-03-01T02:00:00.000Z"),
    ev("station", 2, "2026-03-01T07:10:00.000Z", "2026-03-01T02:10:00.000Z"),
    ev("station", 3, "2026-03-01T08:10:00.000Z", "2026-03-01T03:10:00.000Z"),
    ev("station", 4, "2026-03-01T08:16:00.000Z", "2026-03-01T03:16:00.000Z"),
    ev("regeneration-end", null, "2026-03-01T08:26:00.000Z", "2026-03-01T03:26:00.000Z", { waterL: 151.5, saltKg: 3 }),
  ];
  const second = [
    ev("regeneration-start", null, "2026-03-02T02:00:00.000Z", "2026-03-02T02:00:00.000Z"),
    ev("station", 1, "2026-03-02T02:00:00.000Z", "2026-03-02T02:00:00.000Z"),
    ev("station", 2, "2026-03-02T02:10:00.000Z", "2026-03-02T02:10:00.000Z"),
    ev("station", 3, "2026-03-02T03:10:00.000Z", "2026-03-02T03:10:00.000Z"),
    ev("station", 4, "2026-03-02T03:16:00.000Z", "2026-03-02T03:16:00.000Z"),
    ev("regeneration-end", null, "2026-03-02T03:26:00.000Z", "2026-03-02T03:26:00.000Z", { waterL: 149, saltKg: 3 }),
  ];

  it("keeps past cycles as they were, in real time, with the water and salt the valve reported", () => {
    const before = buildCycles(first, settings);
    const after = buildCycles([...first, ...second], settings);
    expect(after[0]).toEqual(before[0]);
    expect(after.map((c) => [c.startTime, c.deviates, c.waterL, c.saltKg])).toEqual([
      ["2026-03-01T02:00:00.000Z", false, 151.5, 3],
      ["2026-03-02T02:00:00.000Z", false, 149, 3],
    ]);
  });

  it("does not flag a station whose span crosses a sync that set the clock back", () => {
    const cycle = [
      ev("regeneration-start", null, "2026-03-03T07:00:00.000Z", "2026-03-03T02:00:00.000Z"),
      ev("station", 1, "2026-03-03T07:00:00.000Z", "2026-03-03T02:00:00.000Z"),
      ev("station", 2, "2026-03-03T02:10:00.000Z", "2026-03-03T02:10:00.000Z"), // synced during the backwash
      ev("regeneration-end", null, "2026-03-03T03:10:00.000Z", "2026-03-03T03:10:00.000Z"),
    ];
    const [c] = buildCycles(cycle, settings);
    expect(c.stations[0]).toMatchObject({ station: 1, durationSeconds: 0, deviates: false });
    expect(c.stations[1]).toMatchObject({ station: 2, durationSeconds: 3600, deviates: false });
    expect(c).toMatchObject({ durationSeconds: null, deviates: false, waterL: null, saltKg: 3 });
  });
});

describe("clock drift of a time-scaled clock", () => {
  it("tells a fast-forwarded clock from a drifting one", async () => {
    const { isAcceleratedClock } = await import("./freshness.ts");
    const t0 = "2026-01-01T00:00:00.000Z";
    const at = (s: number) => new Date(Date.parse(t0) + s * 1000);
    // A real clock 90 s fast: advances as fast as the server's.
    const real = { lastReportTime: at(90).toISOString(), measuredAt: t0, accelerated: false };
    expect(isAcceleratedClock(real, at(150).toISOString(), at(60))).toBe(false);
    // A simulator at 60×: one real minute moves its clock an hour.
    const sim = { lastReportTime: t0, measuredAt: t0, accelerated: false };
    expect(isAcceleratedClock(sim, at(3600).toISOString(), at(60))).toBe(true);
    // Too close together to judge: the previous verdict stands.
    expect(isAcceleratedClock({ ...sim, accelerated: true }, at(30).toISOString(), at(0.5))).toBe(true);
    expect(isAcceleratedClock(undefined, t0, at(1))).toBe(false);
  });
});
