/**
 * The device's outbox of reports (docs/device-protocol.md §3.6): the pure outbox, then a simulated device on a real
 * MQTT broker (Aedes on a free port) that keeps its telemetry until the cloud's receipt, sends the kept reports again
 * after a reconnection (oldest first, before its state) and when a receipt is overdue, and forgets what a receipt names.
 */
import net, { type AddressInfo } from "node:net";
import { deviceTopic, MQTT_PROTOCOL_VERSION, type TMqttEvent, type TMqttReceipt } from "@aquapilot/contract";
import { Aedes } from "aedes";
import mqtt, { type MqttClient } from "mqtt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SimulatedDevice, type SimulatedDeviceOptions } from "./device.ts";
import { type OutboxReport, ReportOutbox } from "./outbox.ts";

const TS = "2026-03-01T10:00:00.000Z";

function telemetry(id: string, totalWaterL = 100): OutboxReport {
  return {
    channel: "telemetry",
    body: { v: MQTT_PROTOCOL_VERSION, ts: TS, totalWaterL, flowRateLpm: 0, intervalWaterL: 0, id },
  };
}

function event(id: string): OutboxReport {
  return { channel: "event", body: { v: MQTT_PROTOCOL_VERSION, ts: TS, id, type: "regeneration-start" } };
}

const ids = (box: ReportOutbox) => box.reports().map((r) => r.body.id);

describe("ReportOutbox", () => {
  it("keeps reports oldest first until a receipt names them, once per id", () => {
    const box = new ReportOutbox();
    box.add(telemetry("a"));
    box.add(event("b"));
    box.add(telemetry("c"));
    box.add(telemetry("a", 999)); // the same id again: the first one stays, in its place
    expect(ids(box)).toEqual(["a", "b", "c"]);
    expect(box.reports()[0]).toMatchObject({ body: { totalWaterL: 100 } });
    expect(box.receipt(["b", "unknown"])).toBe(1);
    expect(ids(box)).toEqual(["a", "c"]);
    expect(box.receipt(["b"])).toBe(0);
    expect(box.receipt(["c", "a"])).toBe(2);
    expect(box.size).toBe(0);
  });

  it("drops the oldest report when full, and counts it", () => {
    const box = new ReportOutbox({ maxReports: 2 });
    box.add(telemetry("a"));
    box.add(telemetry("b"));
    expect(box.dropped).toBe(0);
    box.add(telemetry("c"));
    expect(ids(box)).toEqual(["b", "c"]);
    expect(box.dropped).toBe(1);
  });

  it("is due to send again once the oldest sent report waited the receipt timeout", () => {
    const box = new ReportOutbox({ receiptTimeoutMs: 1000 });
    expect(box.resendDue(0)).toBe(false);
    box.add(telemetry("a"));
    expect(box.resendDue(10_000)).toBe(false); // never sent: the next connection sends it
    expect(box.sent("a", 100)).toBe(false); // its first sending
    box.add(telemetry("b"));
    expect(box.sent("b", 900)).toBe(false);
    expect(box.resendDue(1099)).toBe(false);
    expect(box.resendDue(1100)).toBe(true);
    box.receipt(["a"]);
    expect(box.resendDue(1100)).toBe(false); // b was sent at 900
    expect(box.resendDue(1900)).toBe(true);
    expect(box.sent("b", 1900)).toBe(true); // sent again
    expect(box.resendDue(1901)).toBe(false);
    expect(box.sent("unknown", 0)).toBe(false); // not kept: nothing changes
    expect(box.resendDue(2899)).toBe(false);
  });

  it("waits twice as long after each resend without a receipt, at most 16 times, and the initial time after a receipt", () => {
    const box = new ReportOutbox({ receiptTimeoutMs: 100 });
    box.add(telemetry("a"));
    box.sent("a", 0);
    const waits: number[] = [];
    for (let i = 0; i < 6; i++) {
      box.backOff();
      waits.push(box.currentTimeoutMs);
    }
    expect(waits).toEqual([200, 400, 800, 1600, 1600, 1600]);
    expect(box.resendDue(1599)).toBe(false);
    expect(box.resendDue(1600)).toBe(true);
    box.receipt(["unknown"]); // any receipt: the cloud answers
    expect(box.currentTimeoutMs).toBe(100);
    expect(box.resendDue(100)).toBe(true);
  });

  it("refuses a size below 1 and a timeout that is not positive", () => {
    expect(() => new ReportOutbox({ maxReports: 0 })).toThrow(RangeError);
    expect(() => new ReportOutbox({ maxReports: 1.5 })).toThrow(RangeError);
    expect(() => new ReportOutbox({ receiptTimeoutMs: 0 })).toThrow(RangeError);
    expect(new ReportOutbox({ maxReports: 1, receiptTimeoutMs: 1 }).size).toBe(0);
  });
});

describe("a simulated device's outbox on a real broker", () => {
  let broker: Aedes;
  let server: net.Server;
  let url: string;
  let cloud: MqttClient;
  const devices: SimulatedDevice[] = [];
  /** Every device message the cloud received, in order. */
  const inbox: Array<{ mac: string; channel: string; body: Record<string, unknown> }> = [];
  let macSeq = 0;

  beforeAll(async () => {
    broker = await Aedes.createBroker();
    server = net.createServer(broker.handle);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `mqtt://127.0.0.1:${(server.address() as AddressInfo).port}`;
    cloud = await mqtt.connectAsync(url, { clientId: "test-cloud-outbox", reconnectPeriod: 0 });
    await cloud.subscribeAsync("aq/v1/devices/+/+", { qos: 1 });
    cloud.on("message", (topic, payload) => {
      const [, , , mac, channel] = topic.split("/");
      if (channel === "receipt" || channel === "cmd") return; // the cloud's own
      inbox.push({ mac, channel, body: JSON.parse(payload.toString("utf8")) as Record<string, unknown> });
    });
  });

  afterAll(async () => {
    await Promise.all(devices.map((d) => d.stop()));
    await cloud?.endAsync();
    await new Promise<void>((resolve) => broker.close(() => resolve()));
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  /** Waits (polling real I/O) until `probe` holds; fails after 5 s. */
  async function waitFor(probe: () => boolean, what: string): Promise<void> {
    const until = Date.now() + 5000;
    while (!probe()) {
      if (Date.now() > until) throw new Error(`${what}: not reached`);
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  async function startDevice(extra: Partial<SimulatedDeviceOptions> = {}): Promise<SimulatedDevice> {
    macSeq += 1;
    const d = new SimulatedDevice({
      brokerUrl: url,
      mac: `02DB000000${String(macSeq).padStart(2, "0")}`,
      secret: "s",
      seed: 1,
      tickMs: 20,
      telemetryIntervalMs: 30,
      reconnectPeriodMs: 0,
      family: { persons: 0 },
      ...extra,
    });
    devices.push(d);
    await d.start();
    return d;
  }

  const of = (d: SimulatedDevice, channel: string) => inbox.filter((m) => m.mac === d.mac && m.channel === channel);
  const telemetryIds = (d: SimulatedDevice) => of(d, "telemetry").map((m) => m.body.id as string);

  async function sendReceipt(d: SimulatedDevice, receipted: string[]): Promise<void> {
    const forgotten = new Promise<string[]>((resolve) => d.once("receipt", resolve));
    const body: TMqttReceipt = { v: MQTT_PROTOCOL_VERSION, ts: new Date().toISOString(), ids: receipted };
    await cloud.publishAsync(deviceTopic(d.mac, "receipt"), JSON.stringify(body), { qos: 1 });
    expect(await forgotten).toEqual(receipted);
  }

  it("keeps telemetry until its receipt, sends the rest again after a reconnection (oldest first, before the state), and forgets what a receipt names", async () => {
    const d = await startDevice();
    await waitFor(() => telemetryIds(d).length >= 4, "four telemetry records");
    const first = telemetryIds(d);
    expect(new Set(first).size).toBe(first.length); // each record its own report id
    expect(ids(d.outbox).slice(0, first.length)).toEqual(first); // nothing receipted: all kept, in order

    await sendReceipt(d, first.slice(0, 2));
    expect(ids(d.outbox)).not.toContain(first[0]);
    expect(ids(d.outbox)).not.toContain(first[1]);
    expect(ids(d.outbox)).toContain(first[2]);

    const before = inbox.length;
    d.goOffline();
    const kept = ids(d.outbox);
    // The will: the broker is done with the old connection, whose last publishes it passed on before it.
    const offline = (m: (typeof inbox)[number]) => m.mac === d.mac && m.channel === "status" && m.body.online === false;
    await waitFor(() => inbox.slice(before).some(offline), "the will");
    const from = inbox.length;
    await d.goOnline();
    const after = () => inbox.slice(from).filter((m) => m.mac === d.mac);
    await waitFor(() => after().some((m) => m.channel === "state"), "the state after the reconnection");
    const resent = after()
      .filter((m) => m.channel === "telemetry")
      .map((m) => m.body.id as string);
    // Every kept record again, oldest first, ahead of anything newer; the receipted ones not.
    expect(resent.slice(0, kept.length)).toEqual(kept);
    expect(resent).not.toContain(first[0]);
    // The status first, the state after the kept records: its counters are newer than theirs.
    const messages = after();
    const positions = kept.map((id) => messages.findIndex((m) => m.channel === "telemetry" && m.body.id === id));
    expect(Math.min(...positions)).toBeGreaterThan(messages.findIndex((m) => m.channel === "status"));
    expect(messages.findIndex((m) => m.channel === "state")).toBeGreaterThan(Math.max(...positions));

    await sendReceipt(d, ids(d.outbox));
    expect(ids(d.outbox)).not.toContain(kept.at(-1));
  });

  it("keeps events made while offline and sends them after the reconnection", async () => {
    const d = await startDevice({ telemetryIntervalMs: 0 });
    d.goOffline();
    d.startRegeneration();
    const events = d.outbox.reports().filter((r) => r.channel === "event");
    expect(events.length).toBeGreaterThan(0);
    const from = inbox.length;
    await d.goOnline();
    const wanted = events.map((r) => r.body.id);
    const arrived = () =>
      inbox
        .slice(from)
        .filter((m) => m.mac === d.mac && m.channel === "event")
        .map((m) => (m.body as TMqttEvent).id);
    await waitFor(() => wanted.every((id) => arrived().includes(id)), "the events made while offline");
    expect(arrived().slice(0, wanted.length)).toEqual(wanted);
  });

  it("sends an unreceipted report again when its receipt is overdue", async () => {
    const d = await startDevice({ telemetryIntervalMs: 300, outbox: { receiptTimeoutMs: 100 } });
    await waitFor(() => telemetryIds(d).length >= 1, "a telemetry record");
    const [id] = telemetryIds(d);
    await waitFor(() => telemetryIds(d).filter((x) => x === id).length >= 2, "the record sent again");
    // The first copy as made, the next ones marked as sent before.
    const copiesOf = of(d, "telemetry").filter((m) => m.body.id === id);
    expect(copiesOf.map((m) => m.body.resent ?? false).slice(0, 2)).toEqual([false, true]);
    await sendReceipt(d, [id]);
    const copies = telemetryIds(d).filter((x) => x === id).length;
    expect(ids(d.outbox)).not.toContain(id);
    // Forgotten: never sent again, however long it waits (the next timeouts send only newer records).
    const sentAgain = (x: string) => telemetryIds(d).filter((y) => y === x).length >= 2;
    await waitFor(() => telemetryIds(d).some((x) => x !== id && sentAgain(x)), "a newer record sent again");
    expect(telemetryIds(d).filter((x) => x === id).length).toBe(copies);
  });
});
