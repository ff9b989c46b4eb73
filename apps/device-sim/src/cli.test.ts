/** The CLI's `--new N`: fresh identities appended to the fleet file, registered with --server, pairing codes printed. */
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FactoryStub, startFactoryStub } from "./factory-stub.ts";
import { readFleetFile } from "./fleet-file.ts";

const run = promisify(execFile);
const CLI = fileURLToPath(new URL("./cli.ts", import.meta.url));
let dir: string;
let factory: FactoryStub;
let serverUrl: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "aq-sim-cli-"));
  factory = await startFactoryStub();
  serverUrl = factory.url;
});

afterAll(async () => {
  await factory.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function cli(...args: string[]) {
  return run(process.execPath, [CLI, ...args], {
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
    expect(factory.registered.map((r) => r.mac)).toEqual(fleet.devices.map((d) => d.mac));
    expect(factory.registered[0]).toMatchObject({ secret: fleet.devices[0].secret, model: fleet.devices[0].model });
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);

    const second = await cli("--new", "1", "--create-only", "--fleet-file", file);
    const after = readFleetFile(file);
    expect(after.devices.slice(0, 2)).toEqual(fleet.devices); // existing identities are kept
    expect(after.devices).toHaveLength(3);
    expect(second.stdout).toContain(`${after.devices[2].mac}:${after.devices[2].secret}`);
    expect(second.stdout).not.toContain(fleet.devices[0].secret);
    expect(factory.registered).toHaveLength(2); // no --server: nothing registered

    await expect(cli("--new", "x", "--fleet-file", file)).rejects.toMatchObject({ code: 2 });
  });
});
