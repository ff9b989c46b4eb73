import { randomUUID } from "node:crypto";
import {
  DEVICE_REPORT_INTERVAL_SECONDS,
  DEVICE_REPORT_MARGIN_SECONDS,
  deviceTopic,
  type TDeviceChangeMessage,
} from "@aquapilot/contract";
import { DEFAULT_SETTINGS } from "@aquapilot/device-sim";
import mqtt, { type MqttClient } from "mqtt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES, openTestDatabase, type TestDatabase } from "../../test/databases.ts";
import { type BusEvent, InProcessBus } from "../bus.ts";
import { familyDeviceQuery, provisionDevice, toFamilyDevice } from "../modules/devices/index.ts";
import { rollupTelemetryBatch } from "../modules/statistics/index.ts";
import { type DeviceLink, type IotLogger, startDeviceLink } from "./index.ts";

/**
 * The cloud says honestly whether it hears a device and accepts what it says (docs/device-protocol.md §3.5, §5.1,
 * §5.2): online only while a report arrived within the report interval plus margin (and a quiet device is announced
 * offline by the sweep), refused reports remembered per device until one is accepted again, and a command done only
 * once a state report shows its effect.
 */

const D = { mac: "02D100000001", secret: "link-honesty-secret-0123456789" };
const WINDOW_MS = (DEVICE_REPORT_INTERVAL_SECONDS + DEVICE_REPORT_MARGIN_SECONDS) * 1000;

async function waitFor<T>(probe: () => T | Promise<T>, timeoutMs = 10_000): Promise<NonNullable<T>> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v as NonNullable<T>;
    if (Date.now() > until) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe.each(ENGINES)("the device link on %s", (engine) => {
  let database: TestDatabase;
  let link: DeviceLink;
  let device: MqttClient;
  let deviceId: string;
  const events: BusEvent[] = [];
  const logged: Array<{ obj: object; msg?: string }> = [];
  const keep = (obj: object, msg?: string) => {
    logged.push({ obj, msg });
  };
  const logger: IotLogger = { debug: keep, info: keep, warn: keep, error: keep };
  const bus = new InProcessBus();
  bus.subscribe((e) => {
    events.push(e);
  });

  const iso = (offsetMs = 0) => new Date(Date.now() + offsetMs).toISOString();
  let total = 100;
  const telemetry = () => {
    total += 1;
    return { v: 1, ts: iso(), totalWaterL: total, flowRateLpm: 1, intervalWaterL: 1 };
  };
  const state = (over: Record<string, unknown> = {}) => ({
    v: 1,
    ts: iso(),
    station: 0,
    stationRemainingSeconds: null,
    remainingWaterL: 4400,
    capacityL: 4500,
    flowRateLpm: 0,
    totalWaterL: total,
    vacation: false,
    closeReason: null,
    firmwareVersion: "1.2.3",
    model: "AQ-S25",
    serialNumber: "RV0001",
    deviceSerialNumber: "AQ0001",
    regenerationCount: 4,
    settings: { ...DEFAULT_SETTINGS },
    ...over,
  });
  const publish = async (channel: "status" | "state" | "telemetry" | "ack", body: unknown) => {
    await device.publishAsync(deviceTopic(D.mac, channel), typeof body === "string" ? body : JSON.stringify(body), {
      qos: 1,
    });
    await link.gateway.idle();
  };
  const listed = async () =>
    toFamilyDevice(await familyDeviceQuery(database.db).where("d.id", "=", deviceId).executeTakeFirstOrThrow());
  const row = () =>
    database.db.selectFrom("device_state").selectAll().where("device_id", "=", deviceId).executeTakeFirstOrThrow();
  const commandRow = (id: string) =>
    database.db.selectFrom("device_commands").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
  const onlineChanges = () =>
    events
      .filter((e): e is Extract<BusEvent, { type: "device.changed" }> => e.type === "device.changed")
      .map((e) => e.message as TDeviceChangeMessage)
      .filter((m) => m.deviceId === deviceId && m.kind === "online");

  beforeAll(async () => {
    database = await openTestDatabase(engine);
    ({ id: deviceId } = await provisionDevice(database.db, { ...D, name: D.mac }));
    link = await startDeviceLink({
      db: database.db,
      bus,
      dataDir: database.dataDir,
      mqttHost: "127.0.0.1",
      mqttPort: 0,
      logger,
      onTelemetry: rollupTelemetryBatch,
      quietSweepMs: 0,
    });
    device = await mqtt.connectAsync(link.brokerUrl, {
      clientId: D.mac,
      username: D.mac,
      password: D.secret,
      reconnectPeriod: 0,
    });
    await publish("status", { v: 1, online: true });
  });

  afterAll(async () => {
    await device?.endAsync();
    await link?.close();
    await database?.close();
  });

  it("counts a device online only while it was heard within the report interval plus margin, and the sweep says when it went quiet", async () => {
    // Just connected: online for one window before its first report; never heard yet.
    expect(await listed()).toMatchObject({ online: true, lastHeardAt: null });
    await publish("telemetry", telemetry());
    const heard = (await row()).last_heard_at;
    expect(heard).toEqual(expect.any(String));
    expect(await listed()).toMatchObject({ online: true, lastHeardAt: heard });

    // Quiet for longer than the window, while the retained status still says online.
    const longAgo = new Date(Date.now() - WINDOW_MS - 5000).toISOString();
    await database.db
      .updateTable("device_state")
      .set({ last_heard_at: longAgo, status_at: longAgo })
      .where("device_id", "=", deviceId)
      .execute();
    expect((await row()).online).toBe(1);
    expect(await listed()).toMatchObject({ online: false, lastHeardAt: longAgo });
    const before = onlineChanges().length;
    expect(await link.gateway.sweepQuietDevices()).toEqual([deviceId]);
    expect(onlineChanges().slice(before)).toEqual([expect.objectContaining({ online: false })]);
    // Announced once: the next sweep's window starts where this one ended.
    expect(await link.gateway.sweepQuietDevices()).toEqual([]);
    // The sweep also tells the operator the refusal and correction counts (when they changed, once a minute).
    const counts = logged.filter((l) => l.msg === "device link: refused and corrected messages since start");
    expect(counts).toHaveLength(1);
    expect(counts[0].obj).toMatchObject({
      rejected: { invalid: 0, "not-json": 0 },
      corrected: { counterRestarts: expect.any(Number) },
    });
    // Commands are refused as for an offline device.
    await expect(link.sendCommand({ deviceId, name: "query" })).rejects.toMatchObject({ code: "DeviceOffline" });

    // Heard again: online at once, and the change says so.
    const changesBefore = events.length;
    await publish("telemetry", telemetry());
    expect(await listed()).toMatchObject({ online: true });
    const next = events
      .slice(changesBefore)
      .find((e) => e.type === "device.changed" && e.deviceId === deviceId) as Extract<
      BusEvent,
      { type: "device.changed" }
    >;
    expect(next.message.online).toBe(true);
  });

  it("remembers since when and why the device's reports are refused, until one is accepted again", async () => {
    expect(await listed()).toMatchObject({ reportsRefusedSince: null, reportsRefusedReason: null });
    await publish("state", state({ station: 42 }));
    const first = await row();
    expect(first.reports_refused_since).toEqual(expect.any(String));
    expect(first.reports_refused_reason).toBe("invalid");
    await publish("telemetry", "{ not json");
    const second = await row();
    expect(second.reports_refused_since).toBe(first.reports_refused_since); // since the first refusal
    expect(second.reports_refused_reason).toBe("not-json");
    expect(await listed()).toMatchObject({
      reportsRefusedSince: first.reports_refused_since,
      reportsRefusedReason: "not-json",
    });
    // A status or an event is no report: the refusal stands.
    await publish("status", { v: 1, online: true });
    expect((await row()).reports_refused_since).toBe(first.reports_refused_since);
    await publish("telemetry", telemetry());
    expect(await listed()).toMatchObject({ reportsRefusedSince: null, reportsRefusedReason: null });
  });

  it("counts no water twice: a record's interval is at most what the totaliser rose since the previous record", async () => {
    const intervals = async () =>
      (
        await database.db
          .selectFrom("device_telemetry")
          .select(["ts", "interval_water_l"])
          .where("device_id", "=", deviceId)
          .orderBy("ts")
          .execute()
      ).map((r) => r.interval_water_l);
    const boundedBefore = link.gateway.corrected.intervalBounded;
    total = 500;
    await publish("telemetry", { v: 1, ts: iso(), totalWaterL: 500, flowRateLpm: 1, intervalWaterL: 2 });
    // Restarted keeping its totaliser but not its last sent total: it claims its whole history again.
    await publish("telemetry", { v: 1, ts: iso(1), totalWaterL: 503, flowRateLpm: 1, intervalWaterL: 503 });
    expect((await intervals()).slice(-2)).toEqual([2, 3]);
    expect(link.gateway.corrected.intervalBounded).toBe(boundedBefore + 1);
    // After a counter reset the rise is the new total (counted from zero): 4 L are 4 L.
    await publish("telemetry", { v: 1, ts: iso(2), totalWaterL: 4, flowRateLpm: 1, intervalWaterL: 4 });
    expect((await intervals()).at(-1)).toBe(4);
    expect(link.gateway.corrected.intervalBounded).toBe(boundedBefore + 1);
    total = 600;
    await publish("telemetry", telemetry());
  });

  it("marks a command done only once a state report shows its effect, the ack alone leaves it pending", async () => {
    await publish("state", state());
    const commands: Array<{ id: string; name: string }> = [];
    device.on("message", (_topic, payload) => commands.push(JSON.parse(payload.toString())));
    await device.subscribeAsync(deviceTopic(D.mac, "cmd"), { qos: 1 });

    // The valve acks a forced regeneration but stays in service.
    const sent = link.sendCommandAndWait({ deviceId, name: "forced-regeneration", timeoutMs: 1500 });
    const cmd = await waitFor(() => commands.find((c) => c.name === "forced-regeneration"));
    await publish("ack", { v: 1, id: cmd.id, ts: iso(), ok: true });
    expect(await sent).toMatchObject({ ok: true, applied: false });
    expect(await commandRow(cmd.id)).toMatchObject({ status: "acked", error: null });
    // A report still in service does not finish it; one that left service does.
    await publish("state", state());
    expect((await commandRow(cmd.id)).status).toBe("acked");
    await publish("state", state({ station: 1 }));
    expect((await commandRow(cmd.id)).status).toBe("done");

    // A state report that shows the effect before the ack (as the simulator sends them): done with the ack.
    await publish("state", state({ station: 0, regenerationCount: 5 }));
    const vacation = link.sendCommandAndWait({ deviceId, name: "change-vacation", timeoutMs: 3000 });
    const v = await waitFor(() => commands.find((c) => c.name === "change-vacation"));
    await publish("state", state({ vacation: true, regenerationCount: 5 }));
    await publish("ack", { v: 1, id: v.id, ts: iso(), ok: true });
    expect(await vacation).toMatchObject({ ok: true, applied: true });
    expect((await commandRow(v.id)).status).toBe("done");

    // A query needs nothing more than its ack.
    const query = link.sendCommandAndWait({ deviceId, name: "query", commandId: randomUUID(), timeoutMs: 3000 });
    const q = await waitFor(() => commands.find((c) => c.name === "query"));
    await publish("ack", { v: 1, id: q.id, ts: iso(), ok: true });
    expect(await query).toMatchObject({ ok: true, applied: true });
  });
});
