#!/usr/bin/env -S npx tsx
/**
 * Runs a fleet of simulated softeners against a broker:
 *   npm run sim -- --devices 5 --broker mqtt://127.0.0.1:1883 [--time-scale 60] [--fleet-file ./data/sim-fleet.json]
 *                  [--server http://127.0.0.1:8080] [--seed 1]
 * The fleet (MACs and secrets) is kept in the fleet file so the same devices come back on every run; with --server,
 * devices the cloud does not know yet are registered through the development factory endpoint
 * POST /dev/factory/devices. Prints each device's pairing code MAC:SECRET. Ctrl-C stops the fleet cleanly.
 */
import path from "node:path";
import { parseArgs } from "node:util";
import { createFleet, type DeviceIdentity, generateDeviceIdentity } from "./fleet.js";
import { readFleetFile, writeFleetFile } from "./fleet-file.js";

function fail(message: string): never {
  process.stderr.write(`aquapilot-sim: ${message}\n`);
  process.exit(2);
}

async function register(server: string, device: DeviceIdentity): Promise<void> {
  const res = await fetch(new URL("/dev/factory/devices", server), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      mac: device.mac,
      secret: device.secret,
      model: device.model,
      serialNumber: device.serialNumber,
      deviceSerialNumber: device.deviceSerialNumber,
    }),
  });
  if (!res.ok) throw new Error(`registering ${device.mac} failed: HTTP ${res.status} ${await res.text()}`);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      devices: { type: "string", default: "3" },
      broker: { type: "string", default: process.env.MQTT_URL ?? "mqtt://127.0.0.1:1883" },
      "time-scale": { type: "string", default: "1" },
      "fleet-file": { type: "string", default: "./data/sim-fleet.json" },
      server: { type: "string" },
      seed: { type: "string", default: "1" },
      help: { type: "boolean", default: false },
    },
  });
  if (values.help) {
    process.stdout.write(
      "usage: aquapilot-sim --devices N --broker mqtt://host:port [--time-scale 60] [--fleet-file path] " +
        "[--server http://127.0.0.1:8080] [--seed 1]\n",
    );
    return;
  }
  const count = Number(values.devices);
  const timeScale = Number(values["time-scale"]);
  const seed = Number(values.seed);
  if (!Number.isInteger(count) || count < 1 || count > 10_000) fail("--devices must be an integer 1–10000");
  if (!(timeScale > 0)) fail("--time-scale must be a positive number");
  if (!Number.isFinite(seed)) fail("--seed must be a number");

  const file = path.resolve(values["fleet-file"]);
  const fleetFile = readFleetFile(file);
  while (fleetFile.devices.length < count) {
    const identity = generateDeviceIdentity();
    fleetFile.devices.push({ ...identity, name: `${identity.model} ${identity.mac.slice(-4)}` });
  }
  writeFleetFile(file, fleetFile);
  const chosen = fleetFile.devices.slice(0, count);

  if (values.server) {
    for (const d of chosen) await register(values.server, d);
    process.stdout.write(`registered ${chosen.length} device(s) with ${values.server}\n`);
  }

  const fleet = createFleet({
    brokerUrl: values.broker,
    devices: chosen,
    timeScale,
    seed,
    deviceOptions: { log: (m) => process.stderr.write(`${m}\n`) },
  });
  await fleet.start();
  process.stdout.write(`${chosen.length} device(s) online at ${values.broker}, time scale ${timeScale}\n`);
  process.stdout.write("pairing codes (MAC:SECRET):\n");
  for (const d of chosen) process.stdout.write(`  ${d.mac}:${d.secret}  ${d.model}  ${d.name ?? ""}\n`);

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await fleet.stop();
    process.exit(0);
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

main().catch((err: Error) => fail(err.message));
