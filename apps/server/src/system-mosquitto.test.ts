import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { endpoints } from "@aquapilot/contract";
import { DEMO_ACCOUNT, type DevSystem, startDevSystem } from "@aquapilot/dev";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call } from "../test/call.ts";
import { passwordGrantOverHttp } from "../test/helpers.ts";
import { mosquittoRequirements, startMosquitto, type TestMosquitto } from "../test/mosquitto.ts";
import { skipUnlessInstalled } from "../test/required-programs.ts";
import { loadConfig } from "./config.ts";
import type { DynsecAccounts } from "./iot/index.ts";

const skip = skipUnlessInstalled("whole system against an authenticating Mosquitto", mosquittoRequirements());

/**
 * `startDevSystem` (what `npm start` runs) with an empty DATA_DIR against Debian's Mosquitto with dynamic
 * security and MQTT_BROKER_KIND=mosquitto-dynsec, everything on the broker's TLS listener (gateway, its account
 * connection and the fleet pinning MQTT_TLS_CA). The server provisions the simulated fleet's broker accounts, so the
 * softeners come online rather than being refused "Not authorized"; a broker that is down at start does not stop the
 * server: gateway, provisioning and fleet catch up once it is there.
 */
describe.skipIf(skip)("whole system against an authenticating Mosquitto", () => {
  let mosquitto: TestMosquitto;
  const dirs: string[] = [];
  const systems: DevSystem[] = [];

  const start = async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "aq-system-mosquitto-"));
    dirs.push(dataDir);
    const config = loadConfig({
      APP_ENV: "test",
      PORT: "0",
      DATA_DIR: dataDir,
      // Over the broker's TLS listener, as devices are: the gateway and its account connection trust the CA.
      MQTT_URL: mosquitto.tls?.gatewayUrl ?? "",
      MQTT_TLS_CA: mosquitto.tls?.files.ca ?? "",
      MQTT_BROKER_KIND: "mosquitto-dynsec",
      SIM_DEVICES: "2",
      SIM_TIME_SCALE: "1",
      LOG_LEVEL: "silent",
    });
    const system = await startDevSystem(config);
    systems.push(system);
    return system;
  };

  const tokens = new Map<DevSystem, string>();
  const onlineDevices = async (system: DevSystem) => {
    const token = tokens.get(system) ?? (await signIn(system));
    tokens.set(system, token);
    const families = await call(system, endpoints.getFamilies, { as: token });
    const list = await call(system, endpoints.getFamilyDevices, {
      as: token,
      query: { familyId: families.result.items[0].id },
    });
    return list.result.map((d) => d.online);
  };

  const signIn = async (system: DevSystem) => {
    return (await passwordGrantOverHttp(system.url, DEMO_ACCOUNT.email, DEMO_ACCOUNT.password)).access_token;
  };

  beforeAll(async () => {
    mosquitto = await startMosquitto();
  });

  afterAll(async () => {
    for (const s of systems) await s.close();
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
    await mosquitto?.close();
  });

  it("(d) starts with an empty DATA_DIR; the simulated fleet is provisioned in the broker and comes online", async () => {
    const system = await start();
    expect(system.demo).not.toBeNull();
    expect(system.deviceLink.deviceUrl).toBe(mosquitto.tls?.url);
    expect(system.deviceLink.deviceCa).toBe(fs.readFileSync(mosquitto.tls?.files.ca ?? "", "utf8"));
    for (const d of system.fleet.devices) {
      expect(await (system.deviceLink.dynsec as DynsecAccounts).getClient(d.mac)).toMatchObject({
        username: d.mac,
        clientid: d.mac,
      });
    }
    await expect.poll(() => onlineDevices(system), { timeout: 15_000 }).toEqual([true, true]);
    expect(system.fleet.connectedCount).toBe(2);
    expect(system.deviceLink.accounts.pending).toBe(0);
    await system.close();
    systems.pop();
  });

  it("starts while the broker is down, and gateway, provisioning and fleet catch up when it comes", async () => {
    await mosquitto.stop();
    const began = Date.now();
    const system = await start();
    expect(Date.now() - began).toBeLessThan(20_000);
    expect(system.deviceLink.gateway.connected).toBe(false);
    expect(system.fleet.connectedCount).toBe(0);
    expect(system.deviceLink.accounts.pending).toBe(2);
    // The HTTP side serves meanwhile.
    expect((await onlineDevices(system)).filter(Boolean)).toHaveLength(0);

    await mosquitto.start();
    await expect.poll(() => system.deviceLink.accounts.pending, { timeout: 15_000 }).toBe(0);
    await expect
      .poll(
        async () => {
          return onlineDevices(system);
        },
        { timeout: 45_000, interval: 500 },
      )
      .toEqual([true, true]);
    expect(system.deviceLink.gateway.connected).toBe(true);
  }, 90_000);
});
