import { SimulatedDevice } from "@aquapilot/device-sim";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ENGINES, openTestDatabase, type TestDatabase } from "../../test/databases.ts";
import { keptWarningsLogger, storedDeviceTimeline } from "../../test/device-link-report.ts";
import { mosquittoRequirements, startMosquitto, type TestMosquitto } from "../../test/mosquitto.ts";
import { skipUnlessInstalled } from "../../test/required-programs.ts";
import { InProcessBus } from "../bus.ts";
import { provisionDevice } from "../modules/devices/index.ts";
import { rollupTelemetryBatch } from "../modules/statistics/index.ts";
import { type DeviceLink, startDeviceLink } from "./index.ts";

const skip = skipUnlessInstalled("counter resets across Mosquitto restarts", mosquittoRequirements());

/**
 * Counter resets across restarts of an external broker (Mosquitto with persistence and dynamic security, as deployed;
 * docs/device-protocol.md §5.1): a simulated softener reboots (a new simulator with the same identity, its totaliser
 * back at zero) after a broker restart, while the broker is down, before a broker restart, and after a restart of the
 * server's gateway (whose persistent session kept its subscriptions). After each, the device's reports are stored
 * again, nothing is refused, the reset is in its timeline once, and the water statistics equal the water metered.
 */

const D = { mac: "02CF00000001", secret: "counter-reset-broker-secret-0123456789" };

async function waitFor<T>(probe: () => T | Promise<T>, timeoutMs = 20_000): Promise<NonNullable<T>> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v as NonNullable<T>;
    if (Date.now() > until) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.skipIf(skip).each(ENGINES)("counter resets across Mosquitto restarts on %s", (engine) => {
  let mosquitto: TestMosquitto;
  let database: TestDatabase;
  let link: DeviceLink | null = null;
  const logger = keptWarningsLogger();
  let deviceId: string;
  let refused = 0;
  const sims: SimulatedDevice[] = [];

  async function startServer(): Promise<void> {
    link = await startDeviceLink({
      db: database.db,
      bus: new InProcessBus(),
      dataDir: database.dataDir,
      mqttUrl: mosquitto.gatewayUrl,
      brokerKind: "mosquitto-dynsec",
      gatewayClientId: `aquapilot-gw-reset-${engine}`,
      logger,
      onTelemetry: rollupTelemetryBatch,
    });
  }

  async function stopServer(): Promise<void> {
    if (!link) return;
    refused += Object.values(link.gateway.rejected).reduce((a, b) => a + b, 0);
    await link.close();
    link = null;
  }

  /**
   * A simulated softener with D's identity: a new one is a rebooted device (its totaliser back at zero). The first
   * boot runs at 3600× so it meters water at once; a reboot runs at 60×, so its totaliser stays below the old total
   * for the whole test (at 3600× five persons pass 26 L within a second): whichever of the device and the gateway
   * reaches the restarted broker first, the first report the cloud sees is lower than what it stored, as on a real
   * valve, whose totaliser takes days to catch up.
   */
  function bootDevice(rebooted = true): SimulatedDevice {
    const sim = new SimulatedDevice({
      brokerUrl: mosquitto.url,
      ...D,
      model: "AQ-S25",
      seed: sims.length + 1,
      timeScale: rebooted ? 60 : 3600,
      tickMs: 50,
      telemetryIntervalMs: 100,
      reconnectPeriodMs: 100,
      reconnectMaxMs: 300,
      family: { persons: 5 },
    });
    sims.push(sim);
    return sim;
  }

  /** A power cut: the connection drops (the broker publishes the will), the clock stops. */
  async function powerCut(sim: SimulatedDevice): Promise<void> {
    sim.goOffline();
    await sim.stop();
  }

  const deviceState = () =>
    database.db.selectFrom("device_state").selectAll().where("device_id", "=", deviceId).executeTakeFirstOrThrow();
  const resetEvents = async () =>
    (
      await database.db
        .selectFrom("device_events")
        .select("id")
        .where("device_id", "=", deviceId)
        .where("type", "=", "counter-reset")
        .execute()
    ).length;

  async function meteredSome(): Promise<number> {
    const row = await waitFor(async () => {
      const s = await deviceState();
      return (s.total_water_l ?? 0) > 1 ? s : null;
    });
    return row.total_water_l ?? 0;
  }

  /** The lower totaliser stored as one more reset in the timeline, and the cloud still storing reports. */
  async function expectResetBelieved(resetsBefore: number): Promise<void> {
    // The reset event is the proof the lower totaliser was stored (a seeded simulator soon passes its old total again).
    await waitFor(async () => (await resetEvents()) > resetsBefore);
    const heard = (await deviceState()).last_heard_at ?? "";
    await waitFor(async () => ((await deviceState()).last_heard_at ?? "") > heard);
    expect((await deviceState()).reports_refused_since).toBeNull();
    expect(await resetEvents()).toBe(resetsBefore + 1);
  }

  async function expectHonestStatistics(): Promise<void> {
    // Some water metered after the reset, then the device stops: the figures are read at rest. A tap is opened on the
    // running device (5 simulated minutes at 8 L/min), as the household's own profile may draw nothing for a while at
    // the simulated time of day.
    sims.at(-1)?.valve.injectDraw(8, 300);
    await waitFor(async () => {
      const rows = await database.db
        .selectFrom("device_telemetry")
        .select("interval_water_l")
        .where("device_id", "=", deviceId)
        .execute();
      return rows.reduce((a, r) => a + r.interval_water_l, 0) > 0;
    });
    for (const sim of sims.splice(0)) await powerCut(sim);
    await new Promise((r) => setTimeout(r, 200));
    await link?.gateway.idle();
    expect(refused + Object.values(link?.gateway.rejected ?? {}).reduce((a, b) => a + b, 0)).toBe(0);
    const rows = await database.db
      .selectFrom("device_telemetry")
      .select("interval_water_l")
      .where("device_id", "=", deviceId)
      .execute();
    const hourly = await database.db
      .selectFrom("device_water_hourly")
      .select("water_l")
      .where("device_id", "=", deviceId)
      .execute();
    const raw = rows.reduce((a, r) => a + r.interval_water_l, 0);
    expect(rows.filter((r) => r.interval_water_l < 0)).toEqual([]);
    expect(raw).toBeGreaterThan(0);
    expect(hourly.reduce((a, r) => a + r.water_l, 0)).toBeCloseTo(raw, 1);
  }

  beforeAll(async () => {
    mosquitto = await startMosquitto();
    database = await openTestDatabase(engine);
    ({ id: deviceId } = await provisionDevice(database.db, { ...D, name: D.mac }));
    await startServer();
    expect(await link?.accounts.provision(D.mac, D.secret)).toBe(true);
  });

  afterEach(async ({ task }) => {
    // What the cloud stored and the link's warnings, to tell the cause of a failure seen only under load.
    if (task.result?.state === "fail") {
      console.error(`${await storedDeviceTimeline(database.db, deviceId)}\n${logger.lines.join("\n")}`);
    }
    logger.lines.splice(0);
    for (const sim of sims.splice(0)) await powerCut(sim);
  });

  afterAll(async () => {
    await stopServer();
    await database?.close();
    await mosquitto?.close();
  });

  it("broker restart, then device reboot", async () => {
    refused = 0;
    const first = bootDevice(false);
    await first.start();
    await mosquitto.restart(300);
    await meteredSome();
    const resets = await resetEvents();
    await powerCut(first);
    await bootDevice().start();
    await expectResetBelieved(resets);
    await expectHonestStatistics();
  });

  it("device reboot while the broker is down", async () => {
    refused = 0;
    const first = bootDevice(false);
    await first.start();
    await meteredSome();
    const resets = await resetEvents();
    await mosquitto.stop();
    await powerCut(first);
    const second = bootDevice();
    const connecting = second.startConnecting();
    await new Promise((r) => setTimeout(r, 300));
    await mosquitto.start();
    await connecting;
    await expectResetBelieved(resets);
    await expectHonestStatistics();
  });

  it("device reboot, then broker restart", async () => {
    refused = 0;
    const first = bootDevice(false);
    await first.start();
    await meteredSome();
    const resets = await resetEvents();
    await powerCut(first);
    await bootDevice().start();
    await expectResetBelieved(resets);
    await mosquitto.restart(300);
    // Back after the broker's restart: it counts on from its reset, no second reset, nothing refused.
    const heard = (await deviceState()).last_heard_at ?? "";
    await waitFor(async () => ((await deviceState()).last_heard_at ?? "") > heard);
    expect(await resetEvents()).toBe(resets + 1);
    await expectHonestStatistics();
  });

  it("the gateway holding the device (assigned subscriptions) announces it when it goes quiet", async () => {
    await waitFor(() => link?.gateway.heldDevices?.includes(D.mac));
    await link?.gateway.idle();
    // Just out of the 120 s window, and after the window of the gateway's last periodic sweep, which already passed.
    const longAgo = new Date(Date.now() - 120_100).toISOString();
    await database.db
      .updateTable("device_state")
      .set({ online: 1, last_heard_at: longAgo, status_at: longAgo })
      .where("device_id", "=", deviceId)
      .execute();
    expect(await link?.gateway.sweepQuietDevices()).toEqual([deviceId]);
  });

  it("server restart with the broker up, device reboot while the server is down", async () => {
    refused = 0;
    const first = bootDevice(false);
    await first.start();
    await meteredSome();
    const resets = await resetEvents();
    await stopServer();
    // The broker queues the rebooted device's reports in the gateway's persistent session meanwhile.
    await powerCut(first);
    await bootDevice().start();
    await new Promise((r) => setTimeout(r, 300));
    await startServer();
    await expectResetBelieved(resets);
    await expectHonestStatistics();
  });
});
