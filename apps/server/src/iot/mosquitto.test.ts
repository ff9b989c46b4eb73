import { randomBytes } from "node:crypto";
import { deviceTopic, MQTT_PROTOCOL_VERSION } from "@aquapilot/contract";
import { SimulatedDevice } from "@aquapilot/device-sim";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase, type TestDatabase } from "../../test/databases.ts";
import { mosquittoRequirements, runClient, startMosquitto, type TestMosquitto } from "../../test/mosquitto.ts";
import { skipUnlessInstalled } from "../../test/required-programs.ts";
import { InProcessBus } from "../bus.ts";
import { beginActivation, completeActivation } from "../modules/activation/service.ts";
import { provisionDevice } from "../modules/devices/index.ts";
import { rollupTelemetryBatch } from "../modules/statistics/index.ts";
import { ownerOf } from "./assignment.ts";
import { type DeviceLink, type DynsecAccounts, deviceRoleName, silentLogger, startDeviceLink } from "./index.ts";
import { MqttTransport } from "./transport.ts";

const skip = skipUnlessInstalled("external broker: Mosquitto", mosquittoRequirements());

const secret = () => randomBytes(32).toString("base64url");
const A = { mac: "02A0000000A1", secret: secret() };
const B = { mac: "02B0000000B2", secret: secret() };

type Maybe<T> = T | false | null | undefined;

/** Polls `probe` every 25 ms until it gives a truthy value, which it resolves. @throws after `timeoutMs`. */
async function waitFor<T>(
  probe: () => Maybe<T> | Promise<Maybe<T>>,
  timeoutMs = 10_000,
  what = "condition",
): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > until) throw new Error(`${what} not met in time`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * The external-broker path (MQTT_URL) against Debian's Mosquitto 2.0 with the dynamic-security plugin, set up as
 * docs/deploy.md says (test/mosquitto.ts): the server provisions device accounts through the control API, the ACL
 * keeps each device in its own topics and client id (probed with Debian's mosquitto_pub and mosquitto_sub), and a
 * broker restart under QoS 1 telemetry loses and duplicates nothing. Needs Mosquitto, its clients and its
 * dynamic-security plugin (test/required-programs.ts: skipped, saying why, on a machine without; a failure under CI).
 */
describe.skipIf(skip)("external broker: Mosquitto with dynamic security", () => {
  let mosquitto: TestMosquitto;
  let database: TestDatabase;
  let bus: InProcessBus;
  let link: DeviceLink;
  const devices: SimulatedDevice[] = [];

  const row = (mac: string) =>
    database.db
      .selectFrom("devices")
      .leftJoin("device_state", "device_state.device_id", "devices.id")
      .selectAll()
      .where("devices.mac", "=", mac)
      .executeTakeFirstOrThrow();

  const simulated = (spec: { mac: string; secret: string }) => {
    const d = new SimulatedDevice({
      brokerUrl: mosquitto.url,
      ...spec,
      seed: 1,
      tickMs: 100,
      telemetryIntervalMs: 60_000,
      reconnectPeriodMs: 200,
      family: { persons: 0 },
    });
    devices.push(d);
    return d;
  };

  beforeAll(async () => {
    mosquitto = await startMosquitto();
    database = await openTestDatabase("sqlite");
    bus = new InProcessBus();
    link = await startDeviceLink({
      db: database.db,
      bus,
      dataDir: database.dataDir,
      mqttUrl: mosquitto.gatewayUrl,
      brokerKind: "mosquitto-dynsec",
      gatewayClientId: "aquapilot-gw-test-1",
      logger: silentLogger,
      onTelemetry: rollupTelemetryBatch,
    });
    await waitFor(() => link.gateway.connected, 10_000, "gateway connected");
    for (const d of [A, B]) {
      await provisionDevice(database.db, { ...d, name: d.mac });
    }
  });

  afterAll(async () => {
    await Promise.all(devices.map((d) => d.stop()));
    await link?.close();
    bus?.close();
    await database?.close();
    await mosquitto?.close();
  });

  it("(a) provisions a device in dynsec (client id = username = MAC, its own role); the device connects and its state is stored", async () => {
    const accounts = link.dynsec as DynsecAccounts;
    expect(await accounts.getClient(A.mac)).toBeNull();
    expect(await link.accounts.provision(A.mac, A.secret)).toBe(true);
    expect(await accounts.getClient(A.mac)).toEqual({
      username: A.mac,
      clientid: A.mac,
      roles: [deviceRoleName(A.mac)],
    });
    const role = await mosquitto.dynsec("getRole", deviceRoleName(A.mac));
    for (const channel of ["status", "state", "telemetry", "event", "ack", "cmd"] as const) {
      expect(role).toContain(deviceTopic(A.mac, channel));
    }
    expect(role).not.toContain("#");

    const device = simulated(A);
    await device.start();
    const stored = await waitFor(async () => {
      const r = await row(A.mac);
      return r.online === 1 && r.reported_at !== null && r;
    });
    expect(stored).toMatchObject({ online: 1, firmware_version: device.firmwareVersion, model: device.deviceModel });
    expect(stored.total_water_l).toBe(device.state().totalWaterL);
  });

  it("(a) provisioning is idempotent: provisioning again replaces the password and keeps one client and role", async () => {
    const second = secret();
    expect(await link.accounts.provision(A.mac, second)).toBe(true);
    expect(await link.accounts.provision(A.mac, second)).toBe(true);
    const clients = await mosquitto.dynsec("listClients");
    expect(clients.split("\n").filter((l) => l.trim() === A.mac)).toHaveLength(1);
    const probe = (password: string) =>
      runClient("pub", [
        ...["-h", "127.0.0.1", "-p", String(mosquitto.port), "-i", A.mac, "-u", A.mac, "-P", password],
        ...["-t", deviceTopic(A.mac, "event"), "-q", "1", "-m", "{}"],
      ]);
    const old = await probe(A.secret);
    expect(old.code).not.toBe(0);
    expect(old.stderr).toMatch(/not authori[sz]ed|Connection Refused/i);
    expect((await probe(second)).code).toBe(0);
    // The simulator, kicked by the new password, comes back with it.
    A.secret = second;
    const device = devices[0];
    await device.stop();
    devices.shift();
    await simulated(A).start();
    await waitFor(async () => (await row(A.mac)).online === 1);
  });

  it("activation step two provisions the device's account before answering", async () => {
    const C = { mac: "02C0000000C3", secret: secret() };
    await provisionDevice(database.db, { ...C, name: C.mac });
    const deps = {
      db: database.db,
      now: () => new Date(),
      nonceKey: randomBytes(32),
      mqttUrl: mosquitto.url,
      accounts: link.accounts,
    };
    const begun = await beginActivation(deps, { mac: C.mac, model: "AQ-S25", firmwareVersion: "1.0.0" });
    expect(await (link.dynsec as DynsecAccounts).getClient(C.mac)).toBeNull();
    await completeActivation(deps, { mac: C.mac, nonce: begun.nonce, secret: C.secret });
    expect(await (link.dynsec as DynsecAccounts).getClient(C.mac)).toMatchObject({ clientid: C.mac });
    const pub = await runClient("pub", [
      ...["-h", "127.0.0.1", "-p", String(mosquitto.port), "-i", C.mac, "-u", C.mac, "-P", C.secret],
      ...["-t", deviceTopic(C.mac, "event"), "-q", "1", "-m", "{}"],
    ]);
    expect(pub.code).toBe(0);
  });

  it("(b) device A can neither publish on B's topics, nor read B's commands, nor take B's client id", async () => {
    expect(await link.accounts.provision(B.mac, B.secret)).toBe(true);
    const b = simulated(B);
    await b.start();
    const before = await waitFor(async () => {
      const r = await row(B.mac);
      return r.online === 1 && r.reported_at !== null && r;
    });
    const asA = ["-h", "127.0.0.1", "-p", String(mosquitto.port), "-i", A.mac, "-u", A.mac, "-P", A.secret];

    // 1. A publishes a valid-looking state on B's topic, then a marker on its own: the marker is stored, B's is not.
    const forged = { ...b.state(), totalWaterL: (before.total_water_l ?? 0) + 5000, vacation: !before.vacation };
    await runClient("pub", [...asA, "-t", deviceTopic(B.mac, "state"), "-q", "1", "-m", JSON.stringify(forged)]);
    await runClient("pub", [...asA, "-V", "mqttv5", "-t", deviceTopic(B.mac, "telemetry"), "-q", "1", "-m", "{}"]);
    const markerId = `marker-${randomBytes(4).toString("hex")}`;
    const marker = { v: MQTT_PROTOCOL_VERSION, ts: new Date().toISOString(), id: markerId, type: "reset" };
    const own = await runClient("pub", [
      ...asA,
      "-t",
      deviceTopic(A.mac, "event"),
      "-q",
      "1",
      "-m",
      JSON.stringify(marker),
    ]);
    expect(own.code).toBe(0);
    await waitFor(() =>
      database.db.selectFrom("device_events").select("id").where("id", "=", markerId).executeTakeFirst(),
    );
    await link.gateway.idle();
    const after = await row(B.mac);
    expect(after.total_water_l).toBeLessThan(forged.totalWaterL);
    expect(after.vacation).toBe(before.vacation);

    // 2. A subscribes to B's command topic (and wildcards): a command the server sends B reaches B only.
    const sub = runClient(
      "sub",
      [
        ...asA,
        "-d",
        "-v",
        "-q",
        "1",
        "-t",
        deviceTopic(B.mac, "cmd"),
        "-t",
        "aq/v1/devices/+/cmd",
        "-t",
        "#",
        "-W",
        "4",
      ],
      8000,
    );
    await new Promise((r) => setTimeout(r, 1000)); // its SUBSCRIBE is answered well within this
    const { commandId } = await link.gateway.sendCommand({ deviceId: before.id, name: "query" });
    await waitFor(() => b.appliedCommands.some((c) => c.id === commandId), 5000, "B applied the command");
    const probe = await sub;
    expect(probe.stdout).toMatch(/received SUBACK/);
    expect(probe.stdout).not.toMatch(/received PUBLISH/);
    expect(probe.stdout).not.toContain(commandId);

    // 3. A's credentials with B's client id are refused, and B stays connected.
    let bDropped = 0;
    b.on("reconnecting", () => {
      bDropped += 1;
    });
    const takeover = await runClient("pub", [
      ...["-h", "127.0.0.1", "-p", String(mosquitto.port), "-i", B.mac, "-u", A.mac, "-P", A.secret],
      ...["-t", deviceTopic(A.mac, "event"), "-q", "1", "-m", "{}"],
    ]);
    expect(takeover.code).not.toBe(0);
    expect(takeover.stderr).toMatch(/not authori[sz]ed|Connection Refused/i);
    await new Promise((r) => setTimeout(r, 500));
    expect(b.connected).toBe(true);
    expect(bDropped).toBe(0);
    expect((await row(B.mac)).online).toBe(1);
  });
  it("two gateways with assigned subscriptions split the devices: each device's messages reach its owner only, and the other takes them over when it stops", async () => {
    // One bus stands for the Redis backplane the gateways of two processes share.
    const ids = ["aquapilot-gw-test-1", "aquapilot-gw-test-2"];
    const fleet = ["02E0000000E1", "02E0000000E2", "02E0000000E3", "02E0000000E4", "02E0000000E5", "02E0000000E6"].map(
      (mac) => ({ mac, secret: secret() }),
    );
    const ownedBySecond = fleet.filter((d) => ownerOf(d.mac, ids) === ids[1]);
    expect(ownedBySecond.length).toBeGreaterThan(0);
    expect(ownedBySecond.length).toBeLessThan(fleet.length);
    let announced = 0;
    const unsubscribe = bus.subscribe((e) => {
      if (e.type === "device.changed" && e.message.kind === "event" && e.message.mac.startsWith("02E0")) announced += 1;
    });
    const second = await startDeviceLink({
      db: database.db,
      bus,
      dataDir: database.dataDir,
      mqttUrl: mosquitto.gatewayUrl,
      brokerKind: "mosquitto-dynsec",
      gatewayClientId: ids[1],
      logger: silentLogger,
      onTelemetry: rollupTelemetryBatch,
      // It hears the first gateway before taking its share, as a process on the Redis bus does.
      assignmentTimings: { listenMs: 1500 },
    });
    let secondOpen = true;
    const publishEvents = async (device: { mac: string; secret: string }, from: number, count: number) => {
      const args = ["-h", "127.0.0.1", "-p", String(mosquitto.port), "-i", device.mac, "-u", device.mac];
      const lines = Array.from({ length: count }, (_, i) =>
        JSON.stringify({ v: MQTT_PROTOCOL_VERSION, ts: new Date().toISOString(), id: `e-${from + i}`, type: "reset" }),
      );
      // One connection, one message per line of stdin (mosquitto_pub -l).
      const pub = await runClient(
        "pub",
        [...args, "-P", device.secret, "-t", deviceTopic(device.mac, "event"), "-q", "1", "-l"],
        10_000,
        lines,
      );
      expect(pub.code).toBe(0);
    };
    const storedEvents = async (mac: string) => {
      const { id } = await row(mac);
      return (await database.db.selectFrom("device_events").select("id").where("device_id", "=", id).execute()).length;
    };
    try {
      await waitFor(() => second.gateway.connected, 10_000, "second gateway connected");
      // New devices: the first gateway adopts each while its account is created; the owner subscribes too.
      for (const d of fleet) {
        await provisionDevice(database.db, { ...d, name: d.mac });
        expect(await link.accounts.provision(d.mac, d.secret)).toBe(true);
      }
      // After the handover grace each device is held by its owner alone — every device of the database, not only these.
      const macs = (await database.db.selectFrom("devices").select("mac").execute()).map((r) => r.mac).sort();
      await waitFor(
        () => {
          const first = link.gateway.heldDevices ?? [];
          const other = second.gateway.heldDevices ?? [];
          return macs.every(
            (m) => first.includes(m) !== other.includes(m) && (ownerOf(m, ids) === ids[0]) === first.includes(m),
          );
        },
        10_000,
        "every device held by its owner alone",
      );
      const before = fleet.map((d) => [link.gateway.received(d.mac), second.gateway.received(d.mac)]);
      for (const d of fleet) await publishEvents(d, 0, 10);
      await waitFor(async () => announced >= 10 * fleet.length, 10_000, "every event announced");
      await link.gateway.idle();
      await second.gateway.idle();
      await new Promise((r) => setTimeout(r, 300));
      fleet.forEach((d, i) => {
        const got = [link.gateway.received(d.mac) - before[i][0], second.gateway.received(d.mac) - before[i][1]];
        expect(got).toEqual(ownerOf(d.mac, ids) === ids[1] ? [0, 10] : [10, 0]);
      });
      for (const d of fleet) expect(await storedEvents(d.mac)).toBe(10);
      expect(announced).toBe(10 * fleet.length); // each stored and announced once

      // The second stops: it says so, and the first takes its devices at once.
      await second.close();
      secondOpen = false;
      await waitFor(() => ownedBySecond.every((d) => link.gateway.heldDevices?.includes(d.mac)), 5000, "taken over");
      const taken = ownedBySecond[0];
      const firstBefore = link.gateway.received(taken.mac);
      await publishEvents(taken, 10, 5);
      await waitFor(async () => (await storedEvents(taken.mac)) === 15, 10_000, "stored by the first gateway");
      expect(link.gateway.received(taken.mac) - firstBefore).toBe(5);
    } finally {
      unsubscribe();
      if (secondOpen) await second.close();
    }
  });

  it("a gateway that dies before recording a message gets it again from its persistent session", async () => {
    const G = { mac: "02A7000000A7", secret: secret() };
    expect(await link.accounts.provision(G.mac, G.secret)).toBe(true);
    const clientId = "aquapilot-gw-test-crash";
    const seen: string[] = [];
    // Plain subscriptions: the test's own gateway in the shared group must not take the message instead.
    // First life: takes the message and never finishes recording it (a crash before the write).
    const first = await MqttTransport.connect({
      url: mosquitto.gatewayUrl,
      clientId,
      external: true,
      subscriptions: "plain",
      logger: silentLogger,
    });
    first.onMessage((m) => {
      if (m.mac !== G.mac) return undefined;
      seen.push(`first:${m.payload}`);
      return new Promise<void>(() => undefined);
    });
    await first.subscribe();
    const args = ["-h", "127.0.0.1", "-p", String(mosquitto.port), "-i", G.mac, "-u", G.mac, "-P", G.secret];
    expect(
      (await runClient("pub", [...args, "-t", deviceTopic(G.mac, "event"), "-q", "1", "-m", "report-1"])).code,
    ).toBe(0);
    await waitFor(() => seen.length === 1, 5000, "first life got it");
    await first.end(true);
    // Second life, same client id: the broker hands the unacknowledged message over again.
    const second = await MqttTransport.connect({
      url: mosquitto.gatewayUrl,
      clientId,
      external: true,
      subscriptions: "plain",
      logger: silentLogger,
    });
    try {
      second.onMessage((m) => {
        if (m.mac === G.mac) seen.push(`second:${m.payload}`);
        return Promise.resolve();
      });
      await second.subscribe();
      await waitFor(() => seen.length === 2, 5000, "redelivered");
      expect(seen).toEqual(["first:report-1", "second:report-1"]);
    } finally {
      await second.end();
    }
  });
});
