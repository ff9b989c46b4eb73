import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { SimulatedDevice } from "@aquapilot/device-sim";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase, type TestDatabase } from "../../test/databases.ts";
import { mosquittoRequirements, runClient, startMosquitto, type TestMosquitto } from "../../test/mosquitto.ts";
import { skipUnlessInstalled } from "../../test/required-programs.ts";
import { InProcessBus } from "../bus.ts";
import { provisionDevice } from "../modules/devices/index.ts";
import { rollupTelemetryBatch } from "../modules/statistics/index.ts";
import { type DeviceLink, silentLogger, startDeviceLink } from "./index.ts";
import { ensureDevelopmentTls } from "./tls.ts";

const skip = skipUnlessInstalled("external broker: Mosquitto over TLS", mosquittoRequirements());

const DEVICE = { mac: "02F0000000A1", secret: randomBytes(32).toString("base64url") };

/** Polls `probe` every 25 ms until it is truthy, which it resolves. @throws after `timeoutMs`. */
async function waitFor<T>(probe: () => T | Promise<T>, timeoutMs = 10_000, what = "condition"): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > until) throw new Error(`${what} not met in time`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * The cluster shape's broker over TLS (docs/deploy.md "External MQTT broker (Mosquitto)", docs/device-protocol.md
 * "Transport security"): Debian's Mosquitto 2.0 with a TLS listener whose certificate comes from a CA, the gateway on
 * that listener trusting the CA (MQTT_TLS_CA) and keeping the device accounts through dynamic security, a simulated
 * module pinning the CA, and clients pinning another CA refused (mqtt.js and Debian's mosquitto_pub).
 */
describe.skipIf(skip)("external broker: Mosquitto with a TLS listener", () => {
  let mosquitto: TestMosquitto;
  let database: TestDatabase;
  let link: DeviceLink;
  const stranger = fs.mkdtempSync(path.join(os.tmpdir(), "aq-mosquitto-tls-other-"));
  const devices: SimulatedDevice[] = [];

  const simulated = (brokerCa: string) => {
    const d = new SimulatedDevice({
      brokerUrl: mosquitto.tls?.url ?? "",
      brokerCa,
      ...DEVICE,
      seed: 1,
      tickMs: 100,
      telemetryIntervalMs: 60_000,
      reconnectPeriodMs: 0,
      family: { persons: 0 },
    });
    devices.push(d);
    return d;
  };

  beforeAll(async () => {
    mosquitto = await startMosquitto();
    database = await openTestDatabase("sqlite");
    link = await startDeviceLink({
      db: database.db,
      bus: new InProcessBus(),
      dataDir: database.dataDir,
      mqttUrl: mosquitto.tls?.gatewayUrl,
      brokerKind: "mosquitto-dynsec",
      gatewayClientId: "aquapilot-gw-tls-1",
      tls: { port: 0, files: { ca: mosquitto.tls?.files.ca } },
      logger: silentLogger,
      onTelemetry: rollupTelemetryBatch,
    });
    await waitFor(() => link.gateway.connected, 10_000, "gateway connected over TLS");
    await provisionDevice(database.db, { ...DEVICE, name: DEVICE.mac });
  });

  afterAll(async () => {
    await Promise.all(devices.map((d) => d.stop()));
    await link?.close();
    await database?.close();
    await mosquitto?.close();
    fs.rmSync(stranger, { recursive: true, force: true });
  });

  it("tells devices the mqtts:// address, provisions over TLS, and a module pinning the CA reports its state", async () => {
    const ca = fs.readFileSync(mosquitto.tls?.files.ca ?? "", "utf8");
    expect(link.deviceUrl).toBe(mosquitto.tls?.url);
    expect(link.deviceCa).toBe(ca);
    expect(await link.accounts.provision(DEVICE.mac, DEVICE.secret)).toBe(true);
    const device = simulated(ca);
    await device.start();
    const stored = await waitFor(
      async () =>
        (
          await database.db
            .selectFrom("devices")
            .innerJoin("device_state", "device_state.device_id", "devices.id")
            .select(["device_state.online"])
            .where("devices.mac", "=", DEVICE.mac)
            .executeTakeFirst()
        )?.online === 1,
      10_000,
      "the device's status stored",
    );
    expect(stored).toBe(true);
  });

  it("refuses the handshake of clients that pin another CA (mqtt.js and mosquitto_pub)", async () => {
    const other = await ensureDevelopmentTls(stranger);
    const device = simulated(other.ca ?? "");
    // Mosquitto sends its CA along with its certificate: a chain ending in a CA the client does not pin.
    await expect(device.start()).rejects.toThrow(/self-signed certificate in certificate chain/);
    const pub = await runClient("pub", [
      "-h",
      "127.0.0.1",
      "-p",
      String(mosquitto.tls?.port),
      "--cafile",
      path.join(stranger, "tls", "ca.crt"),
      "-u",
      DEVICE.mac,
      "-i",
      DEVICE.mac,
      "-P",
      DEVICE.secret,
      "-t",
      `aq/v1/devices/${DEVICE.mac}/status`,
      "-m",
      "{}",
    ]);
    expect(pub.code).not.toBe(0);
    expect(pub.stderr).toMatch(/certificate verify failed|TLS|SSL/i);
  });
});
