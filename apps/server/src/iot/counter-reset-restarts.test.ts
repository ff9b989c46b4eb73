import net from "node:net";
import { createFleet, type Fleet, SimulatedDevice } from "@aquapilot/device-sim";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ENGINES, openTestDatabase, type TestDatabase } from "../../test/databases.ts";
import { keptWarningsLogger, storedDeviceTimeline } from "../../test/device-link-report.ts";
import { InProcessBus } from "../bus.ts";
import { provisionDevice } from "../modules/devices/index.ts";
import { rollupTelemetryBatch } from "../modules/statistics/index.ts";
import { type DeviceLink, startDeviceLink } from "./index.ts";

/**
 * Counter resets across restarts (docs/device-protocol.md §5.1): a simulated softener whose totaliser starts again
 * from zero — a reboot of the device (a new simulator with the same identity) — is believed whatever happened to the
 * server (and its embedded broker) around it: restarted before, restarted after, or down while the device rebooted.
 * After every ordering, the device's reports are stored again, nothing is refused, the reset is in its timeline once,
 * and the water statistics equal the water the device metered (no negative, nothing counted twice). The same for the
 * demo fleet restarted with the server, as `npm start` does.
 */

const SINGLE = { mac: "02CE00000001", secret: "counter-reset-secret-0123456789" };
const FLEET = [1, 2, 3].map((i) => ({
  mac: `02CE000001${String(i).padStart(2, "0")}`,
  secret: `counter-reset-fleet-secret-${i}-0123456789`,
  model: "AQ-S25",
}));

async function waitFor<T>(probe: () => T | Promise<T>, timeoutMs = 20_000): Promise<NonNullable<T>> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v as NonNullable<T>;
    if (Date.now() > until) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A TCP port free now on 127.0.0.1 (the server comes back on the same one, so devices find it again). */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe.each(ENGINES)("counter resets across server and device restarts on %s", (engine) => {
  let database: TestDatabase;
  let port: number;
  let link: DeviceLink | null = null;
  const logger = keptWarningsLogger();
  /** Refusals of every gateway started in the test (each counts its own). */
  let refused = 0;
  const sims: SimulatedDevice[] = [];
  const fleets: Fleet[] = [];
  const ids: Record<string, string> = {};

  const brokerUrl = () => `mqtt://127.0.0.1:${port}`;

  /** Starts the server's device link (embedded broker and gateway) on the test's port. */
  async function startServer(): Promise<void> {
    link = await startDeviceLink({
      db: database.db,
      bus: new InProcessBus(),
      dataDir: database.dataDir,
      mqttHost: "127.0.0.1",
      mqttPort: port,
      logger,
      onTelemetry: rollupTelemetryBatch,
    });
  }

  /** Stops the server's device link, counting what its gateway refused. */
  async function stopServer(): Promise<void> {
    if (!link) return;
    refused += Object.values(link.gateway.rejected).reduce((a, b) => a + b, 0);
    await link.close();
    link = null;
  }

  /**
   * A simulated softener with `spec`'s identity: a new one is a rebooted device (its totaliser back at zero). The first
   * boot runs at 3600× so it meters water at once; a reboot runs at 60×, so its totaliser stays below the old total
   * for the whole test (at 3600× five persons pass 26 L within a second, before a device that started while the
   * server was down has connected and reported): the first report the cloud sees is lower than what it stored, as on
   * a real valve, whose totaliser takes days to catch up.
   */
  function bootDevice(spec: { mac: string; secret: string }, rebooted = true): SimulatedDevice {
    const sim = new SimulatedDevice({
      brokerUrl: brokerUrl(),
      ...spec,
      model: "AQ-S25",
      seed: sims.length + 1,
      timeScale: rebooted ? 60 : 3600,
      tickMs: 50,
      telemetryIntervalMs: 100,
      reconnectPeriodMs: 100,
      reconnectMaxMs: 200,
      family: { persons: 5 },
    });
    sims.push(sim);
    return sim;
  }

  const deviceState = (mac: string) =>
    database.db.selectFrom("device_state").selectAll().where("device_id", "=", ids[mac]).executeTakeFirstOrThrow();

  const resetEvents = async (mac: string) =>
    (
      await database.db
        .selectFrom("device_events")
        .select("id")
        .where("device_id", "=", ids[mac])
        .where("type", "=", "counter-reset")
        .execute()
    ).length;

  /** Sum of the stored telemetry's intervals, and of the hourly rollup, L. */
  async function water(mac: string): Promise<{ raw: number; hourly: number; negative: number }> {
    const rows = await database.db
      .selectFrom("device_telemetry")
      .select("interval_water_l")
      .where("device_id", "=", ids[mac])
      .execute();
    const hourly = await database.db
      .selectFrom("device_water_hourly")
      .select("water_l")
      .where("device_id", "=", ids[mac])
      .execute();
    return {
      raw: rows.reduce((a, r) => a + r.interval_water_l, 0),
      hourly: hourly.reduce((a, r) => a + r.water_l, 0),
      negative: rows.filter((r) => r.interval_water_l < 0).length,
    };
  }

  /**
   * Waits until the device has metered water the cloud stored, both as its live total (so a reboot takes its
   * totaliser down) and as telemetry intervals. A state report raises the live total before the telemetry that counts
   * the same water is stored, and the rebooted device (60×, the household's curve) may meter nothing for minutes of a
   * simulated night: the statistics checked at the end need water stored before the reboot.
   */
  async function meteredSome(mac: string): Promise<number> {
    const row = await waitFor(async () => {
      const s = await deviceState(mac);
      return (s.total_water_l ?? 0) > 1 && (await water(mac)).raw > 0 ? s : null;
    });
    return row.total_water_l ?? 0;
  }

  /**
   * After a reboot of the device (its totaliser back at zero): the lower totaliser is stored as one more counter reset
   * in the timeline, the reports are accepted again, and the cloud keeps storing them.
   */
  async function expectResetBelieved(mac: string, resetsBefore: number): Promise<void> {
    // The reset event is the proof the lower totaliser was stored (a seeded simulator soon passes its old total again).
    await waitFor(async () => (await resetEvents(mac)) > resetsBefore);
    const heard = (await deviceState(mac)).last_heard_at ?? "";
    await waitFor(async () => ((await deviceState(mac)).last_heard_at ?? "") > heard);
    const state = await deviceState(mac);
    expect(state.reports_refused_since).toBeNull();
    expect(await resetEvents(mac)).toBe(resetsBefore + 1);
  }

  /** What every ordering must leave: nothing refused, no negative water, the rollup equal to the metered water. */
  async function expectHonestStatistics(mac: string): Promise<void> {
    // Some water metered, then the devices stop: the figures are read at rest.
    await waitFor(async () => (await water(mac)).raw > 0);
    for (const sim of sims.splice(0)) {
      sim.goOffline();
      await sim.stop();
    }
    for (const fleet of fleets.splice(0)) {
      for (const d of fleet.devices) d.goOffline();
      await fleet.stop();
    }
    await new Promise((r) => setTimeout(r, 200));
    await link?.gateway.idle();
    expect(refused + Object.values(link?.gateway.rejected ?? {}).reduce((a, b) => a + b, 0)).toBe(0);
    const w = await water(mac);
    expect(w.negative).toBe(0);
    expect(w.raw).toBeGreaterThan(0);
    expect(w.hourly).toBeCloseTo(w.raw, 1);
  }

  beforeAll(async () => {
    database = await openTestDatabase(engine);
    for (const spec of [SINGLE, ...FLEET]) {
      ({ id: ids[spec.mac] } = await provisionDevice(database.db, { ...spec, name: spec.mac }));
    }
  });

  afterEach(async ({ task }) => {
    // What the cloud stored and the link's warnings, to tell the cause of a failure seen only under load.
    if (task.result?.state === "fail") {
      console.error(`${await storedDeviceTimeline(database.db, ids[SINGLE.mac])}\n${logger.lines.join("\n")}`);
    }
    logger.lines.splice(0);
    for (const sim of sims.splice(0)) await sim.stop();
    for (const fleet of fleets.splice(0)) await fleet.stop();
    await stopServer();
  });

  afterAll(async () => {
    await database?.close();
  });

  it("server restart, then device reboot", async () => {
    port = await freePort();
    refused = 0;
    await startServer();
    const first = bootDevice(SINGLE, false);
    await first.start();
    const resets = await resetEvents(SINGLE.mac);
    await stopServer();
    await startServer();
    await meteredSome(SINGLE.mac);
    await first.stop();
    await bootDevice(SINGLE).start();
    await expectResetBelieved(SINGLE.mac, resets);
    await expectHonestStatistics(SINGLE.mac);
  });

  it("device reboot while the server is down", async () => {
    port = await freePort();
    refused = 0;
    await startServer();
    const first = bootDevice(SINGLE, false);
    await first.start();
    await meteredSome(SINGLE.mac);
    const resets = await resetEvents(SINGLE.mac);
    await stopServer();
    // A power cut while the server is down: the connection just drops, the clock stops.
    first.goOffline();
    await first.stop();
    // The rebooted device starts while nothing answers, and keeps trying until the server is back.
    const second = bootDevice(SINGLE);
    const connecting = second.startConnecting();
    await new Promise((r) => setTimeout(r, 300));
    await startServer();
    await connecting;
    await expectResetBelieved(SINGLE.mac, resets);
    await expectHonestStatistics(SINGLE.mac);
  });

  it("device reboot, then server restart", async () => {
    port = await freePort();
    refused = 0;
    await startServer();
    const first = bootDevice(SINGLE, false);
    await first.start();
    await meteredSome(SINGLE.mac);
    const resets = await resetEvents(SINGLE.mac);
    await first.stop();
    const second = bootDevice(SINGLE);
    await second.start();
    await expectResetBelieved(SINGLE.mac, resets);
    await stopServer();
    await startServer();
    // The device reconnects by itself and goes on counting from its reset: no second reset, nothing refused.
    const heard = (await deviceState(SINGLE.mac)).last_heard_at ?? "";
    await waitFor(async () => ((await deviceState(SINGLE.mac)).last_heard_at ?? "") > heard);
    expect(await resetEvents(SINGLE.mac)).toBe(resets + 1);
    await expectHonestStatistics(SINGLE.mac);
  });

  it("the demo fleet restarted with the server (npm start again): every softener's reset believed at once", async () => {
    port = await freePort();
    refused = 0;
    await startServer();
    const fleetOptions = {
      devices: FLEET,
      timeScale: 3600,
      deviceOptions: { tickMs: 50, telemetryIntervalMs: 100, reconnectPeriodMs: 100, reconnectMaxMs: 200 },
    };
    const first = createFleet({ brokerUrl: brokerUrl(), ...fleetOptions });
    fleets.push(first);
    await first.start();
    const resets: Record<string, number> = {};
    for (const d of FLEET) {
      await meteredSome(d.mac);
      resets[d.mac] = await resetEvents(d.mac);
    }
    // The process ends: fleet and server stop together, and a new process starts both again.
    await first.stop();
    fleets.splice(0);
    await stopServer();
    await startServer();
    const second = createFleet({ brokerUrl: brokerUrl(), ...fleetOptions });
    fleets.push(second);
    await second.start();
    for (const d of FLEET) {
      await expectResetBelieved(d.mac, resets[d.mac]);
      await waitFor(async () => (await water(d.mac)).raw > 0);
    }
    for (const d of FLEET) await expectHonestStatistics(d.mac);
  });
});
