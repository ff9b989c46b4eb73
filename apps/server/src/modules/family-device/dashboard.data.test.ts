import { randomUUID } from "node:crypto";
import { endpoints } from "@aquapilot/contract";
import { seedDemoIfEmpty } from "@aquapilot/dev";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, nameOf } from "../../../test/call.ts";
import { ENGINES } from "../../../test/databases.ts";
import { insertMember } from "../../../test/factories.ts";
import { bearer, createTestApp, registerByEmail, type TestApp } from "../../../test/helpers.ts";
import { rollupTelemetryAt } from "../statistics/rollup.ts";

const NOW = "2026-03-12T12:00:00.000Z";

/** Water that reached the cloud (received_at, real time) for the first device: [arrival, litres]. */
const WATER: Array<[string, number]> = [
  ["2026-03-11T10:00:00.000Z", 40], // yesterday in every zone below
  ["2026-03-11T23:30:00.000Z", 10], // 12 March 07:30 in Shanghai: today there, yesterday in UTC
  ["2026-03-12T03:00:00.000Z", 20], // today in UTC and Shanghai; 11 March 23:00 in New York (EDT)
  ["2026-03-12T11:59:00.000Z", 5], // today everywhere
];

/**
 * The Home dashboard API on both engines: the figures come from the stored state,
 * telemetry and events; "today" is the caller's local day (X-Time-Zone); only members may read it.
 */
describe.each(ENGINES)(`${nameOf(endpoints.getFamilyDashboard)} (Home dashboard) on %s`, (engine) => {
  let t: TestApp;
  let owner: string;
  let stranger: string;
  let familyId: string;
  const ids: string[] = [];

  async function dashboard(opts: { zone?: string; auth?: string; lang?: string; familyId?: string } = {}) {
    return call(t, endpoints.getFamilyDashboard, {
      as: opts.auth ?? owner,
      query: { familyId: opts.familyId ?? familyId },
      lang: opts.lang ?? "en",
      headers: opts.zone ? { "x-time-zone": opts.zone } : {},
    });
  }

  beforeAll(async () => {
    t = await createTestApp({ engine, now: () => new Date(NOW) });
    await seedDemoIfEmpty(t.db, {
      devices: [
        { mac: "A1B2C3D4E5B1", secret: "s1", name: "Kitchen", model: "AQ-S25" },
        { mac: "A1B2C3D4E5B2", secret: "s2", name: "Garage", model: "AQ-S25" },
        { mac: "A1B2C3D4E5B3", secret: "s3", name: "Cellar", model: "AQ-S25" },
      ],
    });
    owner = await bearer(t.app, "demo", "demo1234");
    await registerByEmail(t.app, `dash-stranger-${engine}@example.com`, "pass-word-1");
    stranger = await bearer(t.app, `dash-stranger-${engine}@example.com`, "pass-word-1");
    const devices = await t.db.selectFrom("devices").select(["id", "family_id", "mac"]).orderBy("sort").execute();
    familyId = devices[0].family_id as string;
    ids.push(...devices.map((d) => d.id));
    await t.db.deleteFrom("device_state").execute();
    const settings = JSON.stringify({
      workPattern: 0,
      regeneratingTriggerTime: "02:00",
      maximumRegenerationIntervalDay: 15,
      saltAddition: 3,
    });
    const base = {
      online: 1,
      vacation: 0,
      regeneration_count: 4,
      settings_json: settings,
      capacity_l: 4500,
      last_report_time: NOW,
      reported_at: NOW,
      updated_at: NOW,
    };
    await t.db
      .insertInto("device_state")
      .values([
        // In service with 1 000 L left, a real clock.
        { ...base, device_id: ids[0], station: 0, remaining_water_l: 1000, close_reason: null },
        // Brine draw: a cycle runs.
        { ...base, device_id: ids[1], station: 2, remaining_water_l: 0, close_reason: null },
        // Closed for a leak, in vacation mode, offline for two hours.
        {
          ...base,
          device_id: ids[2],
          online: 0,
          station: 5,
          vacation: 1,
          remaining_water_l: 300,
          close_reason: 513,
          updated_at: "2026-03-12T10:00:00.000Z",
        },
      ])
      .execute();
    await t.db.updateTable("devices").set({ firmware_version: "1.0.0" }).where("id", "=", ids[0]).execute();
    await t.db.updateTable("devices").set({ firmware_version: "1.1.0" }).where("id", "in", [ids[1], ids[2]]).execute();
    await t.db
      .insertInto("device_ota")
      .values({
        device_id: ids[1],
        command_id: randomUUID(),
        from_version: "1.0.9",
        target_version: "1.1.0",
        status: "running",
        progress: 40,
        error: null,
        started_at: "2026-03-12T11:59:00.000Z",
        updated_at: "2026-03-12T11:59:30.000Z",
      })
      .execute();
    let total = 0;
    for (const [i, [receivedAt, litres]] of WATER.entries()) {
      total += litres;
      await t.db
        .insertInto("device_telemetry")
        .values({
          device_id: ids[0],
          // The device clock runs 30 s ahead: what counts is when the water reached the cloud.
          ts: new Date(Date.parse(receivedAt) + 30_000 + i).toISOString(),
          received_at: receivedAt,
          total_water_l: total,
          flow_rate_lpm: 6,
          interval_water_l: litres,
        })
        .execute();
      await rollupTelemetryAt(t.db, ids[0], receivedAt);
    }
    // The last regeneration started on 5 March at 02:00: the 15-day override is due on 20 March.
    await t.db
      .insertInto("device_events")
      .values({
        id: "regen-1",
        device_id: ids[0],
        type: "regeneration-start",
        close_reason: null,
        station: null,
        ts: "2026-03-05T02:00:00.000Z",
        received_at: "2026-03-05T02:00:00.000Z",
        progress: null,
      })
      .execute();
    const refill = await call(t, endpoints.resetSaltLevel, { as: owner, query: { deviceId: ids[0], levelKg: "20" } });
    expect(refill.status).toBe(200);
  });
  afterAll(() => t?.close());

  it("answers every device's figures and badges from the stored state, telemetry and events", async () => {
    const res = await dashboard({ zone: "UTC" });
    expect(res.status).toBe(200);
    const d = res.result;
    expect(d).toMatchObject({ familyId, timeZone: "UTC", dayStart: "2026-03-12T00:00:00.000Z" });
    expect(d.devices.map((x) => x.deviceId)).toEqual(ids);
    const [kitchen, garage, cellar] = d.devices;
    // Salt: 20 kg entered, 3 kg per regeneration; one regeneration in 30 days, but the valve regenerates at least
    // every 15 days: 3 kg ÷ 15 = 0.2 kg/day → 100 days (not the 200 that the count alone would say).
    expect(kitchen).toMatchObject({
      saltLevelKg: 20,
      saltDaysLeft: 100,
      lowSalt: false,
      waterTodayL: 25,
      remainingWaterL: 1000,
      capacityL: 4500,
      closeReason: null,
      lastSeenAt: NOW,
      badges: { vacation: false, regenerating: false, firmwareUpdate: "available", alarm: null },
    });
    // 75 L in the 26 h metered ≈ 69 L/day: 1 000 L last until 26 March; the 15-day override (20 March) comes first.
    expect(kitchen.nextRegenerationAt).toBe("2026-03-20T02:00:00.000Z");
    expect(garage).toMatchObject({
      saltLevelKg: null,
      saltDaysLeft: null,
      waterTodayL: 0,
      nextRegenerationAt: null,
      badges: { vacation: false, regenerating: true, firmwareUpdate: "updating", alarm: null },
    });
    expect(cellar).toMatchObject({
      nextRegenerationAt: null,
      closeReason: 513,
      badges: { vacation: true, regenerating: false, firmwareUpdate: null, alarm: "closed" },
    });
    expect(d.waterTodayL).toBe(25);
  });

  it("cuts today at the caller's local midnight (X-Time-Zone)", async () => {
    // Shanghai: today began at 11 March 16:00 UTC, so the 23:30 UTC water counts for today there.
    const shanghai = (await dashboard({ zone: "Asia/Shanghai" })).result;
    expect(shanghai).toMatchObject({ timeZone: "Asia/Shanghai", dayStart: "2026-03-11T16:00:00.000Z" });
    expect(shanghai.devices[0].waterTodayL).toBe(35);
    expect(shanghai.waterTodayL).toBe(35);
    // The valve's 02:00 is Shanghai's 02:00: 20 March 02:00 there is 19 March 18:00 UTC, 14 d 16 h after the last
    // cycle, too early; the override is due the night after.
    expect(shanghai.devices[0].nextRegenerationAt).toBe("2026-03-20T18:00:00.000Z");
    // New York (EDT since 8 March): today began at 04:00 UTC, so only the last 5 L count.
    const newYork = (await dashboard({ zone: "America/New_York" })).result;
    expect(newYork.dayStart).toBe("2026-03-12T04:00:00.000Z");
    expect(newYork.waterTodayL).toBe(5);
    // No header: UTC.
    expect((await dashboard()).result).toMatchObject({ timeZone: "UTC", waterTodayL: 25 });
  });

  it("leaves out implausible raw telemetry already stored in a partial hour (a half-hour zone)", async () => {
    const before = (await dashboard({ zone: "Asia/Kolkata" })).result.waterTodayL;
    // Kolkata's day starts at 18:30 UTC: 18:30–19:00 is summed from raw rows, not from the hourly rollup.
    await t.db
      .insertInto("device_telemetry")
      .values({
        device_id: ids[0],
        ts: "2026-03-11T18:45:00.000Z",
        received_at: "2026-03-11T18:45:00.000Z",
        total_water_l: 1e308,
        flow_rate_lpm: 6,
        interval_water_l: 1e308,
      })
      .execute();
    const after = (await dashboard({ zone: "Asia/Kolkata" })).result.waterTodayL;
    await t.db.deleteFrom("device_telemetry").where("received_at", "=", "2026-03-11T18:45:00.000Z").execute();
    expect(typeof before).toBe("number");
    expect(after).toBe(before);
  });

  it("refuses a caller who is not a member as for an unknown household, in the caller's language", async () => {
    const res = await dashboard({ auth: stranger, lang: "fr" });
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ code: "NotFound", message: "Foyer introuvable." });
    const unknown = await dashboard({ auth: stranger, familyId: randomUUID(), lang: "fr" });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toEqual(res.body.error);
  });

  it("without a known regeneration, the day override counts from the first report (the latest it can come)", async () => {
    await t.db.deleteFrom("device_events").where("id", "=", "regen-1").execute();
    await t.db.updateTable("device_state").set({ remaining_water_l: 4000 }).where("device_id", "=", ids[0]).execute();
    // First telemetry on the device clock: 11 March 10:00:30; 15 days later is 26 March 10:00:30, so the 02:00
    // trigger of 27 March (4 000 L at ≈ 69 L/day would last until May).
    const kitchen = (await dashboard({ zone: "UTC" })).result.devices[0];
    expect(kitchen).toMatchObject({ remainingWaterL: 4000, nextRegenerationAt: "2026-03-27T02:00:00.000Z" });
  });

  it("answers a member who is not the administrator the same figures", async () => {
    const member = await registerByEmail(t.app, `dash-member-${engine}@example.com`, "pass-word-1");
    await insertMember(t.db, familyId, member, false);
    const auth = await bearer(t.app, `dash-member-${engine}@example.com`, "pass-word-1");
    const res = await dashboard({ auth, zone: "UTC" });
    expect(res.status).toBe(200);
    expect(res.result.waterTodayL).toBe(25);
  });
});
