/**
 * What `npm start` runs, on the device link's TLS (docs/device-protocol.md "Transport security"): the simulated fleet
 * connects over MQTT over TLS pinning the development CA of DATA_DIR, activation tells a new module the `mqtts://`
 * address, and a module pinning another CA never gets in.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ACTIVATION_PATHS } from "@aquapilot/contract";
import { brokerTlsOptions, generateDeviceIdentity, pinnedBrokerCas, SimulatedDevice } from "@aquapilot/device-sim";
import { loadConfig } from "@aquapilot/server/config.ts";
import { DEV_CA_CERT_FILE, DEV_TLS_DIR, ensureDevelopmentTls } from "@aquapilot/server/iot/index.ts";
import { provisionDevice } from "@aquapilot/server/modules/devices/index.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DevSystem, startDevSystem } from "./system.ts";

describe("the development system's device link over TLS", () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "aq-dev-tls-"));
  const strangerDir = fs.mkdtempSync(path.join(os.tmpdir(), "aq-dev-tls-other-"));
  let system: DevSystem;

  beforeAll(async () => {
    const config = loadConfig({
      APP_ENV: "test",
      PORT: "0",
      MQTT_PORT: "0",
      DATA_DIR: dataDir,
      SIM_DEVICES: "2",
      SIM_TIME_SCALE: "60",
      LOG_LEVEL: "silent",
    });
    system = await startDevSystem(config);
  });

  afterAll(async () => {
    await system?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(strangerDir, { recursive: true, force: true });
  });

  it("starts the fleet on mqtts:// pinning the development CA of DATA_DIR, every softener online", () => {
    const link = system.deviceLink;
    expect(link.deviceUrl).toBe(`mqtts://127.0.0.1:${link.broker?.tlsPort}`);
    expect(link.deviceCa).toBe(fs.readFileSync(path.join(dataDir, DEV_TLS_DIR, DEV_CA_CERT_FILE), "utf8"));
    expect(system.fleet.devices).toHaveLength(2);
    expect(system.fleet.connectedCount).toBe(2);
    // The gateway on plain MQTT, the two softeners on TLS.
    expect(link.broker?.connectedClients).toBe(3);
    expect(link.broker?.stats.connections.plain).toBe(1);
    expect(link.broker?.stats.connections.tls).toBeGreaterThanOrEqual(2);
    // Modules set up in this process pin the launcher's CA.
    expect(pinnedBrokerCas(path.join(strangerDir, "none.crt"))).toEqual([link.deviceCa]);
    expect(brokerTlsOptions(link.deviceUrl)).toMatchObject({ rejectUnauthorized: true });
    expect(brokerTlsOptions(link.deviceUrl).ca).toContain(link.deviceCa);
    expect(brokerTlsOptions(link.brokerUrl)).toEqual({});
  });

  it("tells a new module the broker's mqtts:// address in activation step one, where it connects pinning the launcher's CA", async () => {
    const identity = generateDeviceIdentity();
    await provisionDevice(system.db, { mac: identity.mac, secret: identity.secret, name: "New softener" });
    const res = await fetch(`${system.url}${ACTIVATION_PATHS.begin}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ mac: identity.mac }),
    });
    expect(res.status).toBe(200);
    const { mqttUrl } = (await res.json()) as { mqttUrl: string };
    expect(mqttUrl).toBe(system.deviceLink.deviceUrl);
    // As a module set up in this process does (setup mode gives its softener no CA of its own).
    const module = new SimulatedDevice({
      brokerUrl: mqttUrl,
      mac: identity.mac,
      secret: identity.secret,
      reconnectPeriodMs: 0,
      telemetryIntervalMs: 0,
    });
    try {
      await module.start();
      expect(module.connected).toBe(true);
    } finally {
      await module.stop();
    }
  });

  it("connects a simulated module that pins the CA, and refuses one pinning another CA", async () => {
    const identity = generateDeviceIdentity();
    await provisionDevice(system.db, { mac: identity.mac, secret: identity.secret, name: "TLS softener" });
    const stranger = await ensureDevelopmentTls(strangerDir);
    const logs: string[] = [];
    const device = (brokerCa: string | null) =>
      new SimulatedDevice({
        brokerUrl: system.deviceLink.deviceUrl,
        brokerCa,
        mac: identity.mac,
        secret: identity.secret,
        reconnectPeriodMs: 0,
        telemetryIntervalMs: 0,
        log: (m) => logs.push(m),
      });
    const wrong = device(stranger.ca);
    await expect(wrong.start()).rejects.toThrow(/unable to verify the first certificate/);
    await wrong.stop();
    const right = device(system.deviceLink.deviceCa);
    try {
      await right.start();
      expect(right.connected).toBe(true);
    } finally {
      await right.stop();
    }
  });
});
