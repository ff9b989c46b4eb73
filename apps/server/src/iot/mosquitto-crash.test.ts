import { type OutboxReport, SimulatedDevice } from "@aquapilot/device-sim";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES, openTestDatabase, type TestDatabase } from "../../test/databases.ts";
import { mosquittoRequirements, startMosquitto, type TestMosquitto } from "../../test/mosquitto.ts";
import { skipUnlessInstalled } from "../../test/required-programs.ts";
import { InProcessBus } from "../bus.ts";
import { provisionDevice } from "../modules/devices/index.ts";
import { rollupTelemetryBatch } from "../modules/statistics/index.ts";
import { type DeviceLink, silentLogger, startDeviceLink } from "./index.ts";

const skip = skipUnlessInstalled("reports across a Mosquitto crash", mosquittoRequirements());

/** Telemetry records each device makes before the test stops counting (two devices: 200 in all). */
const REPORTS_PER_DEVICE = 100;

const DEVICES = [
  { mac: "02CE00000001", secret: "broker-crash-secret-0123456789-a" },
  { mac: "02CE00000002", secret: "broker-crash-secret-0123456789-b" },
];

/** Polls `probe` until it holds, answering true, or until `timeoutMs` passed, answering false. */
async function eventually(probe: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (await probe()) return true;
    if (Date.now() > until) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** {@link eventually}, failing the test with `what` when the time passes. */
async function waitFor(probe: () => boolean | Promise<boolean>, what: string): Promise<void> {
  if (!(await eventually(probe))) throw new Error(`${what}: not reached in time`);
}

/**
 * Reports survive a crash of the broker (docs/device-protocol.md §3.6, docs/deploy.md "What a broker crash loses"):
 * two simulated softeners report telemetry every 20 ms (QoS 1) to Mosquitto (persistence on, as deployed; no
 * autosave within the test). The server's gateway stops, so the broker queues the reports it acknowledged in the
 * gateway's persistent session, in memory; then the broker is killed with SIGKILL mid-stream, which loses that queue,
 * and started again on the same port; then the gateway starts again. The devices reconnect and send again every
 * report the cloud has not receipted, oldest first. Afterwards the database holds every report the devices made
 * exactly once — 0 lost, 0 stored twice — the receipts have emptied the devices' outboxes of them, and no resent
 * record read as a counter going down.
 */
describe.skipIf(skip).each(ENGINES)("telemetry across a Mosquitto crash (kill -9) on %s", (engine) => {
  let mosquitto: TestMosquitto;
  let database: TestDatabase;
  let link: DeviceLink | null = null;
  const sims: SimulatedDevice[] = [];
  /** Every report each device made, by MAC, in order. */
  const made = new Map<string, OutboxReport[]>();

  async function startServer(): Promise<DeviceLink> {
    link = await startDeviceLink({
      db: database.db,
      bus: new InProcessBus(),
      dataDir: database.dataDir,
      mqttUrl: mosquitto.gatewayUrl,
      brokerKind: "mosquitto-dynsec",
      gatewayClientId: `aquapilot-gw-crash-${engine}`,
      logger: silentLogger,
      onTelemetry: rollupTelemetryBatch,
    });
    return link;
  }

  beforeAll(async () => {
    mosquitto = await startMosquitto();
    database = await openTestDatabase(engine);
    const started = await startServer();
    for (const d of DEVICES) {
      await provisionDevice(database.db, { ...d, name: d.mac, model: "AQ-S25" });
      expect(await started.accounts.provision(d.mac, d.secret)).toBe(true);
    }
  });

  afterAll(async () => {
    await Promise.all(sims.map((s) => s.stop()));
    await link?.close();
    await database?.close();
    await mosquitto?.close();
  });

  const reportsOf = (mac: string) => made.get(mac) ?? [];
  const telemetryMade = (mac: string) => reportsOf(mac).filter((r) => r.channel === "telemetry").length;

  it("stores every report the devices made exactly once, and nothing reads as a counter reset", async () => {
    for (const [i, d] of DEVICES.entries()) {
      const sim = new SimulatedDevice({
        brokerUrl: mosquitto.url,
        ...d,
        model: "AQ-S25",
        seed: i + 1,
        // Water flows (the totaliser rises from record to record), so a record sent out of order would read as a reset.
        timeScale: 3600,
        family: { persons: 5 },
        tickMs: 10,
        telemetryIntervalMs: 20,
        reconnectPeriodMs: 100,
        reconnectMaxMs: 300,
        // Reports resent before the gateway subscribed again reach no one: the receipt timeout sends them once more.
        outbox: { receiptTimeoutMs: 500 },
      });
      made.set(sim.mac, []);
      sim.on("report", (report: OutboxReport) => made.get(sim.mac)?.push(report));
      sims.push(sim);
      await sim.start();
    }
    const everyDeviceMade = (n: number) => () => sims.every((s) => telemetryMade(s.mac) >= n);
    await waitFor(everyDeviceMade(20), "reports through the running gateway");

    // The gateway away: the broker acknowledges the devices' reports and queues them in the gateway's session.
    await link?.close();
    link = null;
    const queuedFrom = sims.map((s) => telemetryMade(s.mac));
    await waitFor(
      () => sims.every((s, i) => telemetryMade(s.mac) >= queuedFrom[i] + 15),
      "reports queued for the gateway",
    );
    // A crash mid-stream: what the broker acknowledged and held in memory is gone.
    await mosquitto.kill();
    await mosquitto.start();
    const restarted = await startServer();
    await waitFor(everyDeviceMade(REPORTS_PER_DEVICE), `${REPORTS_PER_DEVICE} records per device`);

    // Every report made so far is stored, and receipted: the devices forget it.
    const counted = new Map(sims.map((s) => [s.mac, reportsOf(s.mac).map((r) => r.body.id)]));
    const deviceIds = new Map<string, string>();
    for (const s of sims) {
      const row = await database.db
        .selectFrom("devices")
        .select("id")
        .where("mac", "=", s.mac)
        .executeTakeFirstOrThrow();
      deviceIds.set(s.mac, row.id);
    }
    const storedIds = async (mac: string) => {
      const deviceId = deviceIds.get(mac) as string;
      const telemetry = await database.db
        .selectFrom("device_telemetry")
        .select("report_id")
        .where("device_id", "=", deviceId)
        .execute();
      const events = await database.db
        .selectFrom("device_events")
        .select("id")
        .where("device_id", "=", deviceId)
        .execute();
      return { telemetry: telemetry.map((r) => r.report_id), events: events.map((r) => r.id) };
    };
    // Waited for without failing: what is missing after the wait is counted below.
    for (const s of sims) {
      const wanted = counted.get(s.mac) as string[];
      await eventually(async () => {
        const stored = await storedIds(s.mac);
        const all = new Set([...stored.telemetry, ...stored.events]);
        return wanted.every((id) => all.has(id));
      });
      await eventually(() => {
        const kept = new Set(s.outbox.reports().map((r) => r.body.id));
        return wanted.every((id) => !kept.has(id));
      });
    }
    await Promise.all(sims.map((s) => s.stop()));
    await restarted.gateway.idle();

    for (const s of sims) {
      const { telemetry, events } = await storedIds(s.mac);
      const madeIds = new Set(reportsOf(s.mac).map((r) => r.body.id));
      // 0 stored twice: one row per report id, every row one of the device's reports (none without an id).
      expect(telemetry.filter((id) => id === null || !madeIds.has(id))).toEqual([]);
      expect(new Set(telemetry).size).toBe(telemetry.length);
      expect(events.filter((id) => !madeIds.has(id))).toEqual([]); // a counter reset's event would be one
      // 0 lost: every report made before the count stopped (the later ones may still have been on their way).
      const stored = new Set([...telemetry, ...events]);
      const wanted = counted.get(s.mac) as string[];
      const lost = wanted.filter((id) => !stored.has(id));
      expect(lost, `${lost.length} of ${wanted.length} reports of ${s.mac} lost`).toEqual([]);
      expect(telemetry.length).toBeGreaterThanOrEqual(REPORTS_PER_DEVICE);
      // The receipts reached the device: it keeps none of them.
      const kept = new Set(s.outbox.reports().map((r) => r.body.id));
      expect(wanted.filter((id) => kept.has(id))).toEqual([]);
    }
    // Resent records came in order: none read as a counter going down, and none was refused.
    expect(restarted.gateway.corrected.counterRestarts).toBe(0);
    expect(restarted.gateway.rejected).toMatchObject({ invalid: 0, "not-json": 0, "unknown-device": 0 });
    const resets = await database.db
      .selectFrom("device_events")
      .select("id")
      .where("type", "=", "counter-reset")
      .execute();
    expect(resets).toEqual([]);
  }, 90_000);
});
