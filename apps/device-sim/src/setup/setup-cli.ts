/**
 * `npm run sim -- --setup-mode …` (docs/device-sim.md "Setup mode"): one brand-new softener in network-setup
 * mode, printed as an owner would see it, waiting for the app over Chromium's Bluetooth emulation (new generation)
 * or the development bridge's UDP (old generation).
 */

import { SETUP_AP_ADDRESS } from "@aquapilot/provisioning";
import type { Browser } from "playwright-core";
import { attachBluetoothPeripheral, type BluetoothPeripheral, isBluetoothEmulationAlive } from "./cdp-peripheral.ts";
import { NEIGHBOURHOOD, SIM_HOST } from "./neighbourhood.ts";
import { type ModuleFirmware, SetupModeDevice } from "./setup-device.ts";
import { SETUP_FAILURES, type SetupGeneration } from "./setup-failures.ts";
import { describeSetupStatus, type SetupStatus } from "./setup-status.ts";

/** The setup-mode part of `--help`. */
export const SETUP_MODE_USAGE =
  "       aquapilot-sim --setup-mode [--generation new|old] [--firmware stock|product] [--fail <failure>]\n" +
  "                     [--server http://127.0.0.1:8080] [--browser http://127.0.0.1:9222] [--ap-port 48880]\n" +
  "                     [--lan-port 48881] [--time-scale N]\n" +
  "  a brand-new softener in network-setup mode: registered at the factory through --server, it prints\n" +
  "  what the box shows and the Wi-Fi networks in range, then waits for the app: new generation over Chromium's\n" +
  "  Bluetooth emulation (--browser, default http://127.0.0.1:9222), old generation over loopback UDP (the access\n" +
  "  point on --ap-port, the home network on --lan-port; 0 = a free port) for the development bridge.\n" +
  "  --firmware: stock (default) runs Bouffalo Lab's SDK component with only the product's small handler (the\n" +
  "  app learns the outcome from the cloud); product also reports the pairing code and failure reason to the app.\n" +
  "  --fail provokes a failure of spec §4:\n" +
  SETUP_FAILURES.map((f) => `    ${f.name.padEnd(19)}(${f.generations.join(", ")}) ${f.provoked}\n`).join("");

/** What {@link runSetupMode} needs (parsed and checked by cli.ts). */
export interface SetupModeCliOptions {
  generation: SetupGeneration;
  /** What runs on the Wi-Fi module (default `stock`). */
  firmware?: ModuleFirmware;
  failure?: string;
  serverUrl: string;
  /** Chromium's DevTools endpoint; default http://127.0.0.1:9222 (new generation). */
  browserUrl?: string;
  apPort?: number;
  lanPort?: number;
  timeScale: number;
  /** Prints the message and exits with code 2. */
  fail: (message: string) => never;
}

const DEFAULT_BROWSER_URL = "http://127.0.0.1:9222";
const RETRY_MS = 3000;
/** How often the CLI checks that Chromium's Bluetooth emulation still answers, ms. */
const WATCH_MS = 2000;

function out(line = ""): void {
  process.stdout.write(`${line}\n`);
}

function withColons(mac: string): string {
  return (mac.match(/../g) as string[]).join(":");
}

function detail(s: SetupStatus): string {
  if (s.failure !== 0) return "";
  if (s.state === 1 || s.state === 2) return s.ssid ? ` (${s.ssid})` : "";
  if (s.state === 3) return ` (${s.ssid}, ${s.ip})`;
  return "";
}

/**
 * Runs one setup-mode softener until SIGINT/SIGTERM (then stops it cleanly and exits 0).
 * Exits through `fail` (code 2) for an unknown failure name, one that does not apply to the generation, or a failed
 * start (the factory refused, the server is down, a UDP port is taken).
 */
export async function runSetupMode(opts: SetupModeCliOptions): Promise<void> {
  const info = opts.failure === undefined ? null : SETUP_FAILURES.find((f) => f.name === opts.failure);
  if (info === undefined || (info && !info.generations.includes(opts.generation))) {
    const names = SETUP_FAILURES.filter((f) => f.generations.includes(opts.generation)).map((f) => f.name);
    opts.fail(`--fail must be one of ${names.join(", ")} for the ${opts.generation} generation`);
  }
  const log = (m: string) => process.stderr.write(`${m}\n`);
  const device = new SetupModeDevice({
    generation: opts.generation,
    firmware: opts.firmware ?? "stock",
    failure: info?.name,
    serverUrl: opts.serverUrl,
    apPort: opts.apPort,
    lanPort: opts.lanPort,
    timeScale: opts.timeScale,
    log,
  });
  device.on("online", () =>
    out(
      `online: ${device.name} now reports over MQTT like every other simulated softener (time scale ${opts.timeScale})`,
    ),
  );
  device.on("provisioning-stopped", () => out("provisioning stopped: the module no longer advertises"));

  let peripheral: BluetoothPeripheral | null = null;
  let browser: Browser | null = null;
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await peripheral?.detach().catch(() => undefined);
    await browser?.close().catch(() => undefined); // a CDP connection: disconnects, Chromium keeps running
    await device.stop();
    process.exit(0);
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);

  const id = device.identity;
  out(`AquaPilot softener in setup mode — what the box shows`);
  out(
    `  generation      ${opts.generation === "new" ? "new (after 2024): Bluetooth setup" : "old (2024 and before): access-point setup"}`,
  );
  out(`  Wi-Fi module    WIFI-BL3372 (${device.firmware} firmware)`);
  if (opts.generation === "new") out(`  Bluetooth name  ${device.name}`);
  else out(`  access point    ${device.name} (open, ${SETUP_AP_ADDRESS})`);
  out(`  MAC             ${withColons(device.mac)}`);
  out(`  model           ${id.model}`);
  out(`  serial number   ${id.serialNumber} (control valve)`);
  out(`  device serial   ${id.deviceSerialNumber}`);
  if (info) out(`  provoked failure  ${info.name}: ${info.provoked}`);
  out();

  try {
    await device.start();
  } catch (err) {
    await device.stop();
    const message = (err as Error).message;
    const hint = message === "fetch failed" ? ` (is the server at ${opts.serverUrl} running?)` : "";
    opts.fail(`setup mode cannot start: ${message}${hint}`);
  }
  if (info?.name === "activation-1") {
    out("not registered at the factory (--fail activation-1): the cloud will not know it");
    out();
  }
  out("Wi-Fi networks in range (demo passwords):");
  out(`  ${"network".padEnd(16)}${"band".padEnd(8)}${"password".padEnd(15)}${"signal".padEnd(10)}phone's address`);
  for (const n of NEIGHBOURHOOD) {
    out(
      `  ${n.ssid.padEnd(16)}${n.band.padEnd(8)}${n.password.padEnd(15)}${`${n.rssi} dBm`.padEnd(10)}${n.subnet}.${SIM_HOST.phone}`,
    );
  }
  out("  the module joins 2.4 GHz networks only");
  out();
  const printStatus = (s: SetupStatus) => out(`${describeSetupStatus(s)}${detail(s)}`);
  printStatus(device.setupStatus);
  device.on("state", printStatus);

  if (opts.generation === "old") {
    if (device.apOpen) {
      out(
        `access point ${device.name} is up: UDP 127.0.0.1:${device.apPort}; home-network side 127.0.0.1:${device.lanPort}`,
      );
    } else {
      out(`access point ${device.name} did not come up (--fail init); home-network side 127.0.0.1:${device.lanPort}`);
    }
    out(
      `the app's development bridge (/dev/bridge, SIM_AP_UDP_PORT=${device.apPort ?? opts.apPort ?? 48880} ` +
        `SIM_LAN_UDP_PORT=${device.lanPort}) reaches it: open the app's network setup, Old version`,
    );
    return;
  }

  const browserUrl = opts.browserUrl ?? DEFAULT_BROWSER_URL;
  const debugPort = new URL(browserUrl).port || "9222";
  const { chromium } = await import("playwright-core");
  let lastProblem = "";
  for (;;) {
    if (stopping) return;
    try {
      const connected = await chromium.connectOverCDP(browserUrl, { timeout: 5000 });
      browser = connected;
      let session = await connected.newBrowserCDPSession();
      peripheral = await attachBluetoothPeripheral(session, device, { log });
      out(
        `Bluetooth: ${device.name} (${peripheral.address}) is in range of Chromium at ${browserUrl}; ` +
          "open the app's network setup, New version, and choose it",
      );
      lastProblem = "";
      const gone = new Promise<"gone">((resolve) => connected.on("disconnected", () => resolve("gone")));
      for (;;) {
        const tick = await Promise.race([gone, new Promise<"tick">((r) => setTimeout(() => r("tick"), WATCH_MS))]);
        if (tick === "gone" || stopping) break;
        // A reloaded page ends Chromium's emulation on this session (isBluetoothEmulationAlive): attach anew,
        // unless the module already stopped advertising.
        if (device.gatt?.provisioningStopped || (await isBluetoothEmulationAlive(session))) continue;
        await session.detach().catch(() => undefined);
        session = await connected.newBrowserCDPSession();
        peripheral = await attachBluetoothPeripheral(session, device, { log });
        out(`Bluetooth: the page was reloaded; ${device.name} is in range again`);
      }
      peripheral = null;
      browser = null;
      if (stopping) return;
      out(`Bluetooth: Chromium at ${browserUrl} went away; waiting for it again`);
    } catch (err) {
      await browser?.close().catch(() => undefined);
      browser = null;
      peripheral = null;
      const problem = (err as Error).message.split("\n")[0];
      if (problem !== lastProblem) {
        lastProblem = problem;
        out(`Bluetooth: no Chromium with Web Bluetooth at ${browserUrl} (${problem})`);
        out("  start one with:");
        out(
          `    chromium --remote-debugging-port=${debugPort} --enable-features=WebBluetooth ` +
            `--user-data-dir=/tmp/aquapilot-chromium ${opts.serverUrl}`,
        );
        out(`  retrying every ${RETRY_MS / 1000} s`);
      }
    }
    await new Promise((r) => setTimeout(r, RETRY_MS));
  }
}
