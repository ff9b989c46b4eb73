import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { endpoints } from "@aquapilot/contract";
import { DEMO_ACCOUNT, type DevSystem, startDevSystem } from "@aquapilot/dev";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, describeEndpoint } from "../../../test/call.ts";
import { loadConfig } from "../../config.ts";

/**
 * Device control through HTTP against the whole system: embedded Aedes broker, the gateway, SQLite and two
 * simulated softeners (apps/device-sim) that really apply the commands.
 */
describe("device control with a real broker and simulated softeners", () => {
  let system: DevSystem;
  let dataDir: string;
  let token: string;
  let devices: Array<{ id: string; mac: string }>;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "aq-control-"));
    const config = loadConfig({
      APP_ENV: "test",
      PORT: "0",
      MQTT_PORT: "0",
      DATA_DIR: dataDir,
      SIM_DEVICES: "2",
      SIM_TIME_SCALE: "1",
      LOG_LEVEL: "silent",
    });
    system = await startDevSystem(config);
    const res = await fetch(`${system.url}/connect/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "password",
        username: DEMO_ACCOUNT.email,
        password: DEMO_ACCOUNT.password,
      }),
    });
    token = ((await res.json()) as { access_token: string }).access_token;
    devices = await system.db.selectFrom("devices").select(["id", "mac"]).orderBy("sort").execute();
    for (let i = 0; i < 100; i++) {
      const online = await system.db.selectFrom("device_state").select("online").where("online", "=", 1).execute();
      if (online.length === 2) break;
      await new Promise((r) => setTimeout(r, 100));
    }
  });

  afterAll(async () => {
    await system?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("a forced regeneration is acknowledged and the station changes; a repeated commandId is applied once", async () => {
    const [d] = devices;
    const sim = system.fleet.get(d.mac)!;
    const first = await call(system, endpoints.forcedRegeneration, {
      as: token,
      query: { deviceId: d.id, commandId: "regen-1" },
    });
    expect(first.status).toBe(200);
    expect(first.body.result).toEqual({ commandId: "regen-1", status: "done", error: null, message: null });
    await expect
      .poll(
        async () =>
          (
            await system.db
              .selectFrom("device_state")
              .select("station")
              .where("device_id", "=", d.id)
              .executeTakeFirst()
          )?.station,
        { timeout: 10_000 },
      )
      .not.toBe(0);
    const again = await call(system, endpoints.forcedRegeneration, {
      as: token,
      query: { deviceId: d.id, commandId: "regen-1" },
    });
    expect(again.body.result).toMatchObject({ commandId: "regen-1", status: "done" });
    expect(sim.appliedCommands.filter((c) => c.id === "regen-1")).toHaveLength(1);
    const status = await call(system, endpoints.getCommandStatus, { as: token, query: { commandId: "regen-1" } });
    expect(status.body.result).toMatchObject({ name: "forced-regeneration", status: "done", deviceId: d.id });
    const times = await call(system, endpoints.deviceStationMaxWorkTimeCache, { as: token, query: { deviceId: d.id } });
    expect(times.result).toHaveLength(9);
    expect(times.result[1].maxWorkTimeSeconds).toBe(600); // default backWashTime 10 min
  });

  it("an acknowledged command not yet shown in a state report is pending, and failed not-applied after 30 minutes", async () => {
    // The second softener stays in service (the first regenerates now), so no state report settles these.
    const [, d] = devices;
    const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
    for (const [id, ackedMs] of [
      ["acked-now", 1000],
      ["acked-long-ago", 31 * 60_000],
    ] as const) {
      await system.db
        .insertInto("device_commands")
        .values({
          id,
          device_id: d.id,
          user_id: null,
          name: "forced-regeneration",
          params_json: "{}",
          status: "acked",
          error: null,
          created_at: ago(ackedMs + 500),
          acked_at: ago(ackedMs),
          ack_baseline_json: JSON.stringify({ station: 0, regenerationCount: 1e6 }),
        })
        .execute();
    }
    const waiting = await call(system, endpoints.getCommandStatus, { as: token, query: { commandId: "acked-now" } });
    expect(waiting.body.result).toMatchObject({ status: "pending", error: null, ackedAt: expect.any(String) });
    const stale = await call(system, endpoints.getCommandStatus, { as: token, query: { commandId: "acked-long-ago" } });
    expect(stale.body.result).toMatchObject({ status: "failed", error: "not-applied" });
  });

  describeEndpoint(endpoints.controlDevice, () => {
    it("set-config with a bad value is refused and nothing is sent; a good one is applied", async () => {
      const [, d] = devices;
      const sim = system.fleet.get(d.mac)!;
      const before = sim.appliedCommands.length;
      const bad = await call(system, endpoints.controlDevice, {
        as: token,
        query: { deviceId: d.id },
        body: {
          command: "set-config",
          params: { settings: { backWashTime: 1000 } },
        },
      });
      expect(bad.status).toBe(400);
      expect(bad.body.error?.message).toBe("Please enter the correct configuration");
      const sent = await system.db
        .selectFrom("device_commands")
        .select("id")
        .where("name", "=", "set-config")
        .execute();
      expect(sent).toEqual([]);
      expect(sim.appliedCommands.length).toBe(before);
      const good = await call(system, endpoints.controlDevice, {
        as: token,
        query: { deviceId: d.id },
        body: {
          command: "set-config",
          params: { settings: { backWashTime: 12 } },
        },
      });
      expect(good.body.result).toMatchObject({ status: "done" });
      await expect
        .poll(
          async () => {
            const row = await system.db
              .selectFrom("device_state")
              .select("settings_json")
              .where("device_id", "=", d.id)
              .executeTakeFirst();
            return JSON.parse(row?.settings_json ?? "{}").backWashTime;
          },
          { timeout: 10_000 },
        )
        .toBe(12);
    });
  });

  it("time sync sends the phone's time; query-device-info-return-result answers the fresh state and drift", async () => {
    const [, d] = devices;
    const phone = new Date().toISOString();
    const sync = await call(system, endpoints.controlDevice, {
      as: token,
      query: { deviceId: d.id, time: phone },
      body: { command: "sync-time" },
    });
    expect(sync.body.result).toMatchObject({ status: "done" });
    // A real-time clock, as the gateway measures it after two state reports (a drift means nothing before that).
    await system.db.updateTable("device_state").set({ clock_rate: 1 }).where("device_id", "=", d.id).execute();
    const info = await call(system, endpoints.queryDeviceInfoReturnResult, { as: token, query: { deviceId: d.id } });
    expect(info.status).toBe(200);
    expect(info.result.mac).toBe(d.mac);
    expect(info.result.clockDriftSeconds).not.toBeNull();
    expect(Math.abs(info.result.clockDriftSeconds ?? Number.NaN)).toBeLessThan(5);
    // What the device's age counts from (spec §9): its factory registration.
    const row = await system.db.selectFrom("devices").select("creation_time").where("id", "=", d.id).executeTakeFirst();
    expect(info.result.registeredAt).toBe(row?.creation_time);
  });

  describeEndpoint(endpoints.deviceOta, () => {
    it("while an OTA runs other commands are refused; it finishes with the new version", async () => {
      const [, d] = devices;
      const v = await call(system, endpoints.queryOtaVersion, { as: token, query: { deviceId: d.id } });
      expect(v.body.result).toMatchObject({ currentVersion: "1.0.0", latestVersion: "1.1.0", updateAvailable: true });
      const ota = await call(system, endpoints.deviceOta, { as: token, query: { deviceId: d.id } });
      expect(ota.body.result).toMatchObject({ status: "done" });
      const refused = await call(system, endpoints.changeVacation, { as: token, query: { deviceId: d.id } });
      expect(refused.status).toBe(409);
      expect(refused.body.error?.message).toBe("The device is updating. Please wait until the update has finished.");
      await expect
        .poll(
          async () =>
            (await call(system, endpoints.queryOtaVersion, { as: token, query: { deviceId: d.id } })).body.result,
          { timeout: 15_000 },
        )
        .toMatchObject({ updating: false, otaStatus: "done", progress: 100, currentVersion: "1.1.0" });
      const vacation = await call(system, endpoints.changeVacation, { as: token, query: { deviceId: d.id } });
      expect(vacation.body.result).toMatchObject({ status: "done" });
      expect(
        (await call(system, endpoints.exitVacation, { as: token, query: { deviceId: d.id } })).body.result,
      ).toMatchObject({
        status: "done",
      });
    });
  });

  it("telemetry from the device is rolled up as it arrives", async () => {
    const [d] = devices;
    await expect
      .poll(
        async () =>
          (await system.db.selectFrom("device_water_hourly").select("samples").where("device_id", "=", d.id).execute())
            .length,
        {
          timeout: 15_000,
        },
      )
      .toBeGreaterThan(0);
  });

  it("an offline device fails with Device offline and nothing is recorded as sent", async () => {
    const [, d] = devices;
    const sim = system.fleet.get(d.mac)!;
    sim.goOffline();
    await expect
      .poll(
        async () =>
          (await system.db.selectFrom("device_state").select("online").where("device_id", "=", d.id).executeTakeFirst())
            ?.online,
        { timeout: 10_000 },
      )
      .toBe(0);
    const res = await call(system, endpoints.forcedRegeneration, {
      as: token,
      query: { deviceId: d.id, commandId: "offline-1" },
    });
    expect(res.status).toBe(409);
    expect(res.body.error?.message).toBe("Device offline");
    const info = await call(system, endpoints.queryDeviceInfoReturnResult, { as: token, query: { deviceId: d.id } });
    expect(info.body.error?.message).toBe("Device offline");
    expect(sim.appliedCommands.some((c) => c.id === "offline-1")).toBe(false);
    await sim.goOnline();
  });
});
