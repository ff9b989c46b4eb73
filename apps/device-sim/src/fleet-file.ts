import fs from "node:fs";
import path from "node:path";
import type { DeviceIdentity } from "./fleet.ts";

/** The JSON file that keeps a simulated fleet's identities and secrets between runs (mode 0600). */
export interface FleetFile {
  version: 1;
  devices: Array<DeviceIdentity & { name?: string }>;
}

/**
 * Reads a fleet file; a missing file is an empty fleet.
 * @throws when the file exists but is not JSON or has no `devices` array.
 */
export function readFleetFile(file: string): FleetFile {
  if (!fs.existsSync(file)) return { version: 1, devices: [] };
  const data = JSON.parse(fs.readFileSync(file, "utf8")) as Partial<FleetFile>;
  if (!Array.isArray(data.devices)) throw new Error(`${file} is not a fleet file (no "devices" array)`);
  return { version: 1, devices: data.devices };
}

/** Writes a fleet file (creating its folder), readable by the owner only: it holds device secrets. */
export function writeFleetFile(file: string, data: FleetFile): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(data, null, 2)}\n`, { mode: 0o600 });
  fs.chmodSync(file, 0o600);
}
