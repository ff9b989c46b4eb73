/** `npm run sim -- --setup-mode --generation old`: the box label, the neighbourhood, the access point; Ctrl-C stops. */
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FactoryStub, startFactoryStub } from "../factory-stub.ts";
import { NEIGHBOURHOOD } from "./neighbourhood.ts";

const CLI = fileURLToPath(new URL("../cli.ts", import.meta.url));
let factory: FactoryStub;
let serverUrl: string;

beforeAll(async () => {
  factory = await startFactoryStub();
  serverUrl = factory.url;
});

afterAll(async () => {
  await factory.close();
});

describe("npm run sim -- --setup-mode --generation old", () => {
  it("prints the access point name, the MAC and the neighbourhood, registers the device and stops on SIGTERM", async () => {
    const child = spawn(
      process.execPath,
      [CLI, "--setup-mode", "--generation", "old", "--server", serverUrl, "--ap-port", "0", "--lan-port", "0"],
      { cwd: path.dirname(path.dirname(CLI)), stdio: ["ignore", "pipe", "pipe"] },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c) => {
      stdout += c;
    });
    child.stderr.on("data", (c) => {
      stderr += c;
    });
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    const end = Date.now() + 20_000;
    while (!/SIM_LAN_UDP_PORT=\d+/.test(stdout) && Date.now() < end && child.exitCode === null) {
      await new Promise((r) => setTimeout(r, 50));
    }
    child.kill("SIGTERM");
    expect(await exited).toBe(0);

    expect(stdout).toMatch(/access point\s+WiFi-BL3372 \(open, 192\.168\.10\.1\)/);
    expect(stdout).toContain("WIFI-BL3372 (stock firmware)");
    const mac = stdout.match(/MAC\s+((?:[0-9A-F]{2}:){5}[0-9A-F]{2})/)?.[1];
    expect(mac).toBeDefined();
    expect(factory.registered).toHaveLength(1);
    expect(factory.registered[0].mac).toBe(mac?.replaceAll(":", ""));
    for (const n of NEIGHBOURHOOD) {
      expect(stdout).toMatch(new RegExp(`${n.ssid}\\s+${n.band}\\s+${n.password}\\s+${n.rssi} dBm`));
    }
    expect(stdout).toMatch(/access point WiFi-BL3372 is up: UDP 127\.0\.0\.1:\d+; home-network side 127\.0\.0\.1:\d+/);
    expect(stdout).toContain("state 0 awaiting");
    // The device secret never appears.
    expect(stdout + stderr).not.toContain(factory.registered[0].secret);
  });
});
