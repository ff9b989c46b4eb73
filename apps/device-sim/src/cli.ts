#!/usr/bin/env node
/**
 * Runs a fleet of simulated softeners against a broker:
 *   npm run sim -- --devices 5 --broker mqtt://127.0.0.1:1883 [--time-scale 60] [--fleet-file ./data/sim-fleet.json]
 *                  [--server http://127.0.0.1:8080] [--seed 1] [--new N [--create-only]]
 * The fleet (MACs and secrets) is kept in the fleet file so the same devices come back on every run; with --server,
 * devices the cloud does not know yet are registered through the development factory endpoint
 * POST /dev/factory/devices. Prints each device's pairing code MAC:SECRET. Ctrl-C stops the fleet cleanly.
 * --new N appends N fresh identities to the fleet file, registers them (with --server), prints their pairing codes
 * and runs them with the others; with --create-only it exits after printing.
 *
 * Or one brand-new softener in network-setup mode (docs/device-sim.md "Setup mode"):
 *   npm run sim -- --setup-mode [--generation new|old] [--firmware stock|product] [--fail <failure>]
 *                  [--server http://127.0.0.1:8080]
 *                  [--browser http://127.0.0.1:9222] [--ap-port 48880] [--lan-port 48881] [--time-scale N]
 * It is registered at the factory, prints what the box shows and the Wi-Fi networks in range, then waits for the app:
 * over Chromium's Bluetooth emulation (new) or the development bridge's UDP (old). Every state change is printed.
 */
import path from "node:path";
import { parseArgs } from "node:util";
import { defaultBrokerUrl, defaultFirmwareKeys } from "./env.ts";
import { registerAtFactory } from "./factory.ts";
import { createFleet, generateDeviceIdentity } from "./fleet.ts";
import { type FleetFile, readFleetFile, writeFleetFile } from "./fleet-file.ts";
import { runSetupMode, SETUP_MODE_USAGE } from "./setup/setup-cli.ts";

function fail(message: string): never {
  process.stderr.write(`aquapilot-sim: ${message}\n`);
  process.exit(2);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      devices: { type: "string" },
      broker: { type: "string", default: defaultBrokerUrl() },
      "time-scale": { type: "string", default: "1" },
      "fleet-file": { type: "string", default: "./data/sim-fleet.json" },
      server: { type: "string" },
      seed: { type: "string", default: "1" },
      new: { type: "string" },
      "create-only": { type: "boolean", default: false },
      "setup-mode": { type: "boolean", default: false },
      generation: { type: "string", default: "new" },
      firmware: { type: "string", default: "stock" },
      fail: { type: "string" },
      browser: { type: "string" },
      "ap-port": { type: "string" },
      "lan-port": { type: "string" },
      help: { type: "boolean", default: false },
    },
  });
  if (values.help) {
    process.stdout.write(
      "usage: aquapilot-sim --devices N --broker mqtt://host:port [--time-scale 60] [--fleet-file path] " +
        "[--server http://127.0.0.1:8080] [--seed 1] [--new N [--create-only]]\n" +
        SETUP_MODE_USAGE,
    );
    return;
  }
  if (values["setup-mode"]) {
    const timeScale = Number(values["time-scale"]);
    if (!(timeScale > 0)) fail("--time-scale must be a positive number");
    const port = (name: "ap-port" | "lan-port"): number | undefined => {
      const v = values[name];
      if (v === undefined) return undefined;
      const n = Number(v);
      if (!Number.isInteger(n) || n < 0 || n > 65535) fail(`--${name} must be an integer 0–65535`);
      return n;
    };
    if (values.generation !== "new" && values.generation !== "old") fail("--generation must be new or old");
    if (values.firmware !== "stock" && values.firmware !== "product") fail("--firmware must be stock or product");
    await runSetupMode({
      generation: values.generation,
      firmware: values.firmware,
      failure: values.fail,
      serverUrl: values.server ?? "http://127.0.0.1:8080",
      browserUrl: values.browser,
      apPort: port("ap-port"),
      lanPort: port("lan-port"),
      timeScale,
      fail,
    });
    return;
  }
  const file = path.resolve(values["fleet-file"]);
  const fleetFile = readFleetFile(file);
  const newCount = values.new === undefined ? 0 : Number(values.new);
  if (!Number.isInteger(newCount) || newCount < 0 || newCount > 10_000) fail("--new must be an integer 0–10000");
  // Without --devices: 3, or with --new every device already in the fleet file (possibly none) plus the new ones.
  const count = values.devices !== undefined ? Number(values.devices) : newCount > 0 ? fleetFile.devices.length : 3;
  const timeScale = Number(values["time-scale"]);
  const seed = Number(values.seed);
  if (!Number.isInteger(count) || count < (newCount > 0 ? 0 : 1) || count > 10_000) {
    fail("--devices must be an integer 1–10000");
  }
  if (!(timeScale > 0)) fail("--time-scale must be a positive number");
  if (!Number.isFinite(seed)) fail("--seed must be a number");

  while (fleetFile.devices.length < count) {
    const identity = generateDeviceIdentity();
    fleetFile.devices.push({ ...identity, name: `${identity.model} ${identity.mac.slice(-4)}` });
  }
  const created: FleetFile["devices"] = [];
  for (let i = 0; i < newCount; i++) {
    const identity = generateDeviceIdentity();
    created.push({ ...identity, name: `${identity.model} ${identity.mac.slice(-4)}` });
  }
  fleetFile.devices.push(...created);
  writeFleetFile(file, fleetFile);
  const chosen = [...fleetFile.devices.slice(0, count), ...created];
  if (created.length > 0) {
    process.stdout.write(`${created.length} new device(s) added to ${file}\n`);
    process.stdout.write("new pairing codes (MAC:SECRET):\n");
    for (const d of created) process.stdout.write(`${d.mac}:${d.secret}\n`);
  }

  if (values.server) {
    const toRegister = values["create-only"] ? created : chosen;
    for (const d of toRegister) await registerAtFactory(values.server, d);
    process.stdout.write(`registered ${toRegister.length} device(s) with ${values.server}\n`);
  }
  if (values["create-only"]) return;

  const fleet = createFleet({
    brokerUrl: values.broker,
    devices: chosen,
    timeScale,
    seed,
    deviceOptions: { log: (m) => process.stderr.write(`${m}\n`), firmwareKeys: defaultFirmwareKeys() },
  });
  const online = await fleet.start();
  process.stdout.write(`${online} of ${chosen.length} device(s) online at ${values.broker}, time scale ${timeScale}\n`);
  if (online < chosen.length) {
    process.stdout.write("the others keep retrying (jittered backoff up to 30 s) until the broker accepts them\n");
  }
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
