/** `npm run sim -- --setup-mode --generation old`: the box label, the neighbourhood, the access point; Ctrl-C stops. */
import { spawn } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NEIGHBOURHOOD } from "./neighbourhood.js";

const CLI = fileURLToPath(new URL("../cli.ts", import.meta.url));
let server: http.Server;
let serverUrl: string;
const registered: Array<Record<string, string>> = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", () => {
      if (req.method === "POST" && req.url === "/dev/factory/devices") {
        registered.push(JSON.parse(body));
        res.writeHead(201, { "content-type": "application/json" }).end("{}");
      } else res.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  serverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe("npm run sim -- --setup-mode --generation old", () => {
  it("prints the access point name, the MAC and the neighbourhood, registers the device and stops on SIGTERM", async () => {
    const child = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        CLI,
        "--setup-mode",
        "--generation",
        "old",
        "--server",
        serverUrl,
        "--ap-port",
        "0",
        "--lan-port",
        "0",
      ],
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
    expect(stdout).toContain("WIFI-BL3372");
    const mac = stdout.match(/MAC\s+((?:[0-9A-F]{2}:){5}[0-9A-F]{2})/)?.[1];
    expect(mac).toBeDefined();
    expect(registered).toHaveLength(1);
    expect(registered[0].mac).toBe(mac?.replaceAll(":", ""));
    for (const n of NEIGHBOURHOOD) {
      expect(stdout).toMatch(new RegExp(`${n.ssid}\\s+${n.band}\\s+${n.password}\\s+${n.rssi} dBm`));
    }
    expect(stdout).toMatch(/access point WiFi-BL3372 is up: UDP 127\.0\.0\.1:\d+; home-network side 127\.0\.0\.1:\d+/);
    expect(stdout).toContain("state 0 awaiting");
    // The device secret never appears.
    expect(stdout + stderr).not.toContain(registered[0].secret);
  });
});
