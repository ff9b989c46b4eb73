import { randomBytes } from "node:crypto";
import mqtt from "mqtt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase, type TestDatabase } from "../../test/databases.ts";
import { mosquittoRequirements, startMosquitto, type TestMosquitto } from "../../test/mosquitto.ts";
import { mqttLogin } from "../../test/mqtt-login.ts";
import { skipUnlessInstalled } from "../../test/required-programs.ts";
import { InProcessBus } from "../bus.ts";
import { FACTORY_SECRET_MIN_LENGTH } from "../modules/devices/index.ts";
import { rollupTelemetryBatch } from "../modules/statistics/index.ts";
import { type DeviceLink, silentLogger, startDeviceLink } from "./index.ts";

const skip = skipUnlessInstalled("device-login guessing on Mosquitto", mosquittoRequirements());

/** Wrong passwords tried against one device's account, and how many at once. */
const GUESSES = 200;
const AT_ONCE = 20;

/**
 * What limits guessing a device's password on Mosquitto (docs/security.md "Device messages and the MQTT link"):
 * Mosquitto 2 counts no failed CONNECTs, so nothing slows a guesser down and nothing can lock a device out; the limit
 * is the secret itself, at least {@link FACTORY_SECRET_MIN_LENGTH} random base64url characters from the factory. The
 * test measures the guessing rate one client gets from the broker and prints how long a search of the smallest
 * allowed secret would take at that rate; it asserts that every wrong password is refused, that the device's own
 * connection survives the storm (a refused CONNECT with its client id does not take its session over), and that its
 * right password connects at once afterwards.
 */
describe.skipIf(skip)("device-login guessing on Mosquitto with dynamic security", () => {
  let mosquitto: TestMosquitto;
  let database: TestDatabase;
  let link: DeviceLink;
  const device = { mac: "02E0000000E1", secret: randomBytes(32).toString("base64url") };

  beforeAll(async () => {
    mosquitto = await startMosquitto();
    database = await openTestDatabase("sqlite");
    link = await startDeviceLink({
      db: database.db,
      bus: new InProcessBus(),
      dataDir: database.dataDir,
      mqttUrl: mosquitto.gatewayUrl,
      brokerKind: "mosquitto-dynsec",
      gatewayClientId: "aquapilot-gw-guessing",
      logger: silentLogger,
      onTelemetry: rollupTelemetryBatch,
    });
    expect(await link.accounts.provision(device.mac, device.secret)).toBe(true);
  });

  afterAll(async () => {
    await link?.close();
    await database?.close();
    await mosquitto?.close();
  });

  it("refuses every wrong password, keeps the device connected through the storm, and never locks it out", async () => {
    const own = mqtt.connect(mosquitto.url, {
      clientId: device.mac,
      username: device.mac,
      password: device.secret,
      reconnectPeriod: 0,
    });
    await new Promise<void>((resolve, reject) => {
      own.once("connect", () => resolve());
      own.once("error", reject);
    });
    let ownClosed = false;
    own.on("close", () => {
      ownClosed = true;
    });

    const codes: number[] = [];
    const started = performance.now();
    for (let i = 0; i < GUESSES; i += AT_ONCE) {
      const batch = Array.from({ length: Math.min(AT_ONCE, GUESSES - i) }, (_, j) =>
        mqttLogin(mosquitto.url, device.mac, `wrong-${i + j}-${randomBytes(8).toString("hex")}`, device.mac),
      );
      codes.push(...(await Promise.all(batch)));
    }
    const seconds = (performance.now() - started) / 1000;
    expect(codes.filter((c) => c !== 5)).toEqual([]);
    expect(ownClosed).toBe(false);
    expect(own.connected).toBe(true);
    own.end(true);

    // The right password right after the storm: no lock-out to wait for.
    expect(await mqttLogin(mosquitto.url, device.mac, device.secret, device.mac)).toBe(0);

    const rate = GUESSES / seconds;
    const bits = FACTORY_SECRET_MIN_LENGTH * 6;
    const years = 2 ** (bits - 1) / rate / (365.25 * 24 * 3600);
    console.log(
      `Mosquitto device-login guessing: ${GUESSES} wrong passwords in ${seconds.toFixed(2)} s (${rate.toFixed(0)}/s from ` +
        `one client, ${AT_ONCE} at once); half the space of a ${FACTORY_SECRET_MIN_LENGTH}-character base64url ` +
        `secret (${bits} bits) at that rate: ${years.toExponential(1)} years`,
    );
  });
});
