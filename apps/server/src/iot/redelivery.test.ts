import { randomBytes } from "node:crypto";
import { deviceTopic, MQTT_PROTOCOL_VERSION } from "@aquapilot/contract";
import mqtt, { type MqttClient } from "mqtt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES, openTestDatabase, type TestDatabase } from "../../test/databases.ts";
import { type BusEvent, InProcessBus } from "../bus.ts";
import { provisionDevice } from "../modules/devices/index.ts";
import { rollupTelemetryBatch } from "../modules/statistics/index.ts";
import { type DeviceLink, silentLogger, startDeviceLink } from "./index.ts";

const D = { mac: "02F0000000F6", secret: randomBytes(32).toString("base64url") };

/**
 * A message the broker delivers again (a QoS 1 redelivery after a gateway or broker restart) writes
 * nothing twice — telemetry keyed by device and time, events by id, and an ack only moves a command still waiting
 * (pending, or failed by the cloud's timeout: a late ack still tells the real outcome). Each copy is published as
 * the broker would redeliver it; the embedded broker is enough here. On both engines: PostgreSQL is the scaled
 * shape's database, where batches write in multi-row statements, two lanes side by side.
 */
describe.each(ENGINES)("redelivered device messages on %s", (engine) => {
  let database: TestDatabase;
  let bus: InProcessBus;
  let link: DeviceLink;
  let device: MqttClient;
  let deviceId: string;
  const events: BusEvent[] = [];

  const announced = (kind: string) =>
    events.filter((e) => e.type === "device.changed" && e.message.mac === D.mac && e.message.kind === kind).length;
  /**
   * Publishes `body` twice (QoS 1) and waits until the gateway has received both copies and handled them: the embedded
   * broker answers the device's PUBACK before it forwards the message, so the device's acknowledgement alone does not
   * say the gateway has it (at most 5 s).
   */
  const publishTwice = async (channel: "telemetry" | "event" | "ack", body: unknown) => {
    const before = link.gateway.received(D.mac);
    for (let i = 0; i < 2; i++)
      await device.publishAsync(deviceTopic(D.mac, channel), JSON.stringify(body), { qos: 1 });
    await untilReceived(before + 2);
  };
  /** Waits (at most 5 s) until the gateway has received `count` of the device's messages, then until it is idle. */
  const untilReceived = async (count: number) => {
    const deadline = Date.now() + 5_000;
    while (link.gateway.received(D.mac) < count && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await link.gateway.idle();
  };

  beforeAll(async () => {
    database = await openTestDatabase(engine);
    bus = new InProcessBus();
    bus.subscribe((e) => {
      events.push(e);
    });
    link = await startDeviceLink({
      db: database.db,
      bus,
      dataDir: database.dataDir,
      mqttPort: 0,
      gatewayPassword: randomBytes(32).toString("base64url"),
      logger: silentLogger,
      onTelemetry: rollupTelemetryBatch,
    });
    ({ id: deviceId } = await provisionDevice(database.db, { ...D, name: D.mac }));
    device = await mqtt.connectAsync(link.brokerUrl, { clientId: D.mac, username: D.mac, password: D.secret });
    await device.publishAsync(
      deviceTopic(D.mac, "status"),
      JSON.stringify({ v: MQTT_PROTOCOL_VERSION, online: true }),
      {
        qos: 1,
        retain: true,
      },
    );
    await untilReceived(1);
  });

  afterAll(async () => {
    await device?.endAsync();
    await link?.close();
    bus?.close();
    await database?.close();
  });

  it("telemetry: one row, one announcement", async () => {
    const before = announced("state");
    const ts = new Date().toISOString();
    await publishTwice("telemetry", {
      v: MQTT_PROTOCOL_VERSION,
      ts,
      totalWaterL: 12,
      flowRateLpm: 1,
      intervalWaterL: 2,
    });
    const rows = await database.db
      .selectFrom("device_telemetry")
      .selectAll()
      .where("device_id", "=", deviceId)
      .execute();
    expect(rows.map((r) => r.ts)).toEqual([ts]);
    expect(announced("state") - before).toBe(1);
    expect(link.gateway.received(D.mac)).toBeGreaterThanOrEqual(3);
  });

  it("event: one row, one announcement", async () => {
    const before = announced("event");
    const body = { v: MQTT_PROTOCOL_VERSION, ts: new Date().toISOString(), id: "ev-once", type: "regeneration-start" };
    await publishTwice("event", body);
    const rows = await database.db.selectFrom("device_events").select("id").where("device_id", "=", deviceId).execute();
    expect(rows.map((r) => r.id)).toEqual(["ev-once"]);
    expect(announced("event") - before).toBe(1);
  });

  it("ack: the command moves once and is announced once; an ack after the cloud's timeout still counts", async () => {
    const { commandId } = await link.gateway.sendCommand({ deviceId, name: "query" });
    const before = announced("ack");
    const ack = { v: MQTT_PROTOCOL_VERSION, id: commandId, ts: new Date().toISOString(), ok: true, error: null };
    await publishTwice("ack", ack);
    const first = await database.db
      .selectFrom("device_commands")
      .select(["status", "acked_at"])
      .where("id", "=", commandId)
      .executeTakeFirstOrThrow();
    expect(first.status).toBe("done");
    expect(announced("ack") - before).toBe(1);
    // A redelivery much later leaves the recorded outcome and its time alone.
    await publishTwice("ack", { ...ack, ok: false, error: "busy" });
    expect(
      await database.db
        .selectFrom("device_commands")
        .select(["status", "acked_at"])
        .where("id", "=", commandId)
        .executeTakeFirstOrThrow(),
    ).toEqual(first);
    expect(announced("ack") - before).toBe(1);

    const late = await link.gateway.sendCommand({ deviceId, name: "query" });
    await database.db
      .updateTable("device_commands")
      .set({ status: "failed", error: "timeout" })
      .where("id", "=", late.commandId)
      .execute();
    await publishTwice("ack", { ...ack, id: late.commandId });
    expect(
      await database.db
        .selectFrom("device_commands")
        .select(["status", "error"])
        .where("id", "=", late.commandId)
        .executeTakeFirstOrThrow(),
    ).toEqual({ status: "done", error: null });
    expect(announced("ack") - before).toBe(2);
  });
});
