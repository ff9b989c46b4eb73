/** The CLI's `--new N`: fresh identities appended to the fleet file, registered with --server, pairing codes printed. */
import { execFile } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFleetFile } from "./fleet-file.js";

const run = promisify(execFile);
const CLI = fileURLToPath(new URL("./cli.ts", import.meta.url));
let dir: string;
let server: http.Server;
let serverUrl: string;
const registered: Array<Record<string, string>> = [];

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "aq-sim-cli-"));
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
  fs.rmSync(dir, { recursive: true, force: true });
});

function cli(...args: string[]) {
  return run(process.execPath, ["--import", "tsx", CLI, ...args], {
    cwd: path.dirname(path.dirname(CLI)),
    timeout: 20_000,
  });
}

describe("npm run sim -- --new N", () => {
  it("appends N fresh identities, registers them with --server and prints MAC:SECRET", async () => {
    const file = path.join(dir, "fleet.json");
    const first = await cli("--new", "2", "--create-only", "--fleet-file", file, "--server", serverUrl);
    const fleet = readFleetFile(file);
    expect(fleet.devices).toHaveLength(2);
    const codes = first.stdout.match(/^[0-9A-F]{12}:[A-Za-z0-9_-]{43}$/gm);
    expect(codes).toEqual(fleet.devices.map((d) => `${d.mac}:${d.secret}`));
    expect(registered.map((r) => r.mac)).toEqual(fleet.devices.map((d) => d.mac));
    expect(registered[0]).toMatchObject({ secret: fleet.devices[0].secret, model: fleet.devices[0].model });
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);

    const second = await cli("--new", "1", "--create-only", "--fleet-file", file);
    const after = readFleetFile(file);
    expect(after.devices.slice(0, 2)).toEqual(fleet.devices); // existing identities are kept
    expect(after.devices).toHaveLength(3);
    expect(second.stdout).toContain(`${after.devices[2].mac}:${after.devices[2].secret}`);
    expect(second.stdout).not.toContain(fleet.devices[0].secret);
    expect(registered).toHaveLength(2); // no --server: nothing registered

    await expect(cli("--new", "x", "--fleet-file", file)).rejects.toMatchObject({ code: 2 });
  });
});
