/**
 * The environment variables the simulator's CLI (`npm run sim`, cli.ts) reads, read here only: each is the default of
 * a flag, so a shell set up for the server runs the simulator against the same broker. docs/configuration.md lists
 * them (scripts/architecture-tables.ts imports this file: keep it free of side effects).
 */

import { createPrivateKey, createPublicKey } from "node:crypto";
import fs from "node:fs";

/** One variable the simulator reads: its default when unset and what it does (Markdown). */
export interface SimulatorEnvDoc {
  default: string;
  meaning: string;
}

/** Every variable the simulator's CLI reads. */
export const SIMULATOR_ENV = {
  MQTT_URL: {
    default: "mqtt://127.0.0.1:1883",
    meaning: "Default of the simulator's `--broker`: the broker the simulated fleet connects to.",
  },
  SIM_MQTT_CA: {
    default: "./data/tls/ca.crt",
    meaning:
      "PEM file of the CA simulated devices pin for an `mqtts://` broker (as a module's firmware does; " +
      '`docs/device-protocol.md` "Transport security"): the development CA the server keeps in `DATA_DIR/tls/`. ' +
      "A missing file pins nothing (then only the system's CAs are trusted).",
  },
  FIRMWARE_SIGNING_PUBLIC_KEYS: {
    default: "the development vendor key of ./data",
    meaning:
      "The vendor keys simulated devices pin for signed firmware updates (`docs/device-protocol.md` §3.7), as the " +
      "server reads them: comma-separated PEM or base64 raw Ed25519 public keys. Unset: the public key of the " +
      "development vendor key the server keeps in `DATA_DIR/firmware-signing/vendor-dev.key` (`./data`); none " +
      "when that file is missing (then every signed update fails `signature`).",
  },
} as const satisfies Record<string, SimulatorEnvDoc>;

/**
 * The broker URL `--broker` defaults to: MQTT_URL from `env` when set and not empty (as for the server, empty counts
 * as unset), else the local broker.
 */
export function defaultBrokerUrl(env: Record<string, string | undefined> = process.env): string {
  return env.MQTT_URL || SIMULATOR_ENV.MQTT_URL.default;
}

/**
 * The CA file simulated devices pin for `mqtts://` brokers: SIM_MQTT_CA from `env` when set and not empty, else the
 * development CA of the server's default DATA_DIR (`./data/tls/ca.crt`, relative to the working folder).
 */
export function defaultBrokerCaFile(env: Record<string, string | undefined> = process.env): string {
  return env.SIM_MQTT_CA || SIMULATOR_ENV.SIM_MQTT_CA.default;
}

/** The development vendor key file of the server's default DATA_DIR, relative to the working folder. */
const DEV_VENDOR_KEY_FILE = "./data/firmware-signing/vendor-dev.key";

/**
 * The vendor keys simulated devices pin (`firmwareKeys` of the devices, base64 raw or PEM): FIRMWARE_SIGNING_PUBLIC_KEYS
 * from `env` when set and not empty (comma separated; a PEM holds no comma), else the public key of the development
 * vendor key in ./data (read when asked, never at import), else none.
 */
export function defaultFirmwareKeys(
  env: Record<string, string | undefined> = process.env,
  readFile: (file: string) => string = (file) => fs.readFileSync(file, "utf8"),
): string[] {
  if (env.FIRMWARE_SIGNING_PUBLIC_KEYS) {
    return env.FIRMWARE_SIGNING_PUBLIC_KEYS.split(",")
      .map((k) => k.trim())
      .filter(Boolean);
  }
  let pem: string;
  try {
    pem = readFile(DEV_VENDOR_KEY_FILE);
  } catch {
    return [];
  }
  return [createPublicKey(createPrivateKey(pem)).export({ format: "pem", type: "spki" }).toString()];
}
