import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type DevSystem, startDevSystem } from "@aquapilot/dev";
import { afterAll, describe, expect, it } from "vitest";
import { ENGINES, openTestDatabase, type TestDatabase } from "../test/databases.ts";
import { loadConfig } from "./config.ts";

/**
 * The incident this guards against (docs/device-protocol.md §5.1): `npm start` again with the in-process demo fleet.
 * The restarted fleet's totalisers start at zero while the database keeps the old totals; every report must be
 * accepted at once (not refused for minutes), each softener's reset recorded once, the cloud must hear them, and a
 * forced regeneration asked then must leave service and end "done" within a minute.
 */
describe.each(ENGINES)("the whole system started twice with its demo fleet on %s", (engine) => {
  let database: TestDatabase | null = null;
  let system: DevSystem | null = null;
  let dataDir: string;

  afterAll(async () => {
    await system?.close();
    await database?.close();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  async function waitFor<T>(probe: () => T | Promise<T>, timeoutMs = 30_000): Promise<NonNullable<T>> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const v = await probe();
      if (v) return v as NonNullable<T>;
      if (Date.now() > until) throw new Error("condition not met in time");
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  it("accepts the restarted fleet's reports at once, records each softener's counter reset, and a forced regeneration progresses", async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "aq-demo-restart-"));
    if (engine === "postgres") database = await openTestDatabase("postgres");
    const config = loadConfig({
      APP_ENV: "test",
      PORT: "0",
      MQTT_PORT: "0",
      DATA_DIR: dataDir,
      SIM_DEVICES: "2",
      SIM_TIME_SCALE: "3600",
      LOG_LEVEL: "silent",
      ...(database?.databaseUrl ? { DATABASE_URL: database.databaseUrl } : {}),
    });
    system = await startDevSystem(config);
    const db = () => (system as DevSystem).db;
    const states = () =>
      db()
        .selectFrom("device_state")
        .innerJoin("devices", "devices.id", "device_state.device_id")
        .select([
          "devices.id",
          "device_state.total_water_l",
          "device_state.last_heard_at",
          "device_state.reports_refused_since",
        ])
        .orderBy("devices.id")
        .execute();
    // The first run meters some water on both softeners.
    const before = await waitFor(async () => {
      const rows = await states();
      return rows.length === 2 && rows.every((r) => (r.total_water_l ?? 0) > 1) ? rows : null;
    });
    await system.close();
    system = null;

    system = await startDevSystem(config);
    const restartedAt = new Date().toISOString();
    // Each softener's reset is recorded once (the restarted simulators replay their seeded history from zero, so their
    // totals soon pass the old ones again), the cloud hears them again, and nothing was refused.
    const resetsOf = async () =>
      (
        await db()
          .selectFrom("device_events")
          .select(["device_id"])
          .where("type", "=", "counter-reset")
          .orderBy("device_id")
          .execute()
      ).map((r) => r.device_id);
    await waitFor(async () => (await resetsOf()).length === 2);
    const after = await waitFor(async () => {
      const rows = await states();
      return rows.every((r) => (r.last_heard_at ?? "") > restartedAt) ? rows : null;
    });
    expect(after.map((r) => r.reports_refused_since)).toEqual([null, null]);
    expect(system.deviceLink.gateway.rejected).toMatchObject({ invalid: 0, "not-json": 0, "too-large": 0 });
    expect(system.deviceLink.gateway.corrected.counterRestarts).toBe(2);
    expect(await resetsOf()).toEqual(before.map((r) => r.id));

    // A forced regeneration asked after the restart progresses within a minute: the station leaves service, and the
    // command is done once a state report shows it (not on the device's acknowledgement alone).
    const deviceId = before[0].id;
    const sent = await system.deviceLink.sendCommand({ deviceId, name: "forced-regeneration" });
    const stations = new Set<number>();
    const command = await waitFor(async () => {
      const row = await db()
        .selectFrom("device_state")
        .select("station")
        .where("device_id", "=", deviceId)
        .executeTakeFirstOrThrow();
      if (row.station !== null) stations.add(row.station);
      const cmd = await db()
        .selectFrom("device_commands")
        .select(["status", "error"])
        .where("id", "=", sent.commandId)
        .executeTakeFirstOrThrow();
      return cmd.status === "done" && [...stations].some((s) => s !== 0) ? cmd : null;
    }, 60_000);
    expect(command).toEqual({ status: "done", error: null });
  });
});
