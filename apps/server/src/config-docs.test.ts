import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { defaultBrokerUrl, SIMULATOR_ENV } from "../../device-sim/src/env.ts";
import { ENV_SCOPE, envDocs, loadConfig } from "./config.ts";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

/** Every production source file (not a test) under `dir`, relative to the repository. */
function productionFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { recursive: true, encoding: "utf8" })
    .filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f))
    .map((f) => path.posix.join(dir, f.split(path.sep).join("/")));
}

/** The files among `files` whose code names `process.env`. */
function readersOfProcessEnv(files: string[]): string[] {
  return files.filter((f) => /\bprocess\.env\b/.test(readFileSync(path.join(ROOT, f), "utf8")));
}

/** The configuration is read in one place and documented from it (docs/configuration.md). */
describe("configuration sources and documentation", () => {
  it("gives every variable of the schema a description and a scope, and no scope to an unknown variable", () => {
    const docs = envDocs();
    expect(docs.map((d) => d.name).sort()).toEqual(Object.keys(ENV_SCOPE).sort());
    for (const d of docs) {
      expect(d.meaning.trim().length, d.name).toBeGreaterThan(10);
      expect(["production", "launcher", "tests"], d.name).toContain(d.scope);
    }
  });

  it("documents the defaults loadConfig applies to an empty environment", () => {
    const config = loadConfig({}) as Record<string, unknown>;
    for (const d of envDocs()) {
      const value = config[d.name];
      const expected =
        value === undefined ? "unset" : value === "" ? "empty" : Array.isArray(value) ? value.join(",") : String(value);
      expect(d.default, d.name).toBe(expected);
    }
  });

  it("marks the demo fleet, the development bridge and the rate-limit scale as not for production", () => {
    expect(ENV_SCOPE).toMatchObject({
      SIM_DEVICES: "launcher",
      SIM_TIME_SCALE: "launcher",
      SIM_AP_UDP_PORT: "launcher",
      SIM_LAN_UDP_PORT: "launcher",
      RATE_LIMIT_SCALE: "tests",
    });
  });

  it("reads process.env only in config.ts for the server and the launcher", () => {
    const files = [...productionFiles("apps/server/src"), ...productionFiles("apps/dev/src")];
    expect(files.length).toBeGreaterThan(20);
    expect(readersOfProcessEnv(files)).toEqual(["apps/server/src/config.ts"]);
  });

  it("reads process.env only in env.ts for the simulator, and only the variables it documents", () => {
    expect(readersOfProcessEnv(productionFiles("apps/device-sim/src"))).toEqual(["apps/device-sim/src/env.ts"]);
    const text = readFileSync(path.join(ROOT, "apps/device-sim/src/env.ts"), "utf8");
    const read = new Set([...text.matchAll(/\benv\.([A-Z][A-Z0-9_]*)/g)].map((m) => m[1]));
    expect([...read].sort()).toEqual(Object.keys(SIMULATOR_ENV).sort());
    expect(defaultBrokerUrl({})).toBe("mqtt://127.0.0.1:1883");
    expect(defaultBrokerUrl({ MQTT_URL: "" })).toBe("mqtt://127.0.0.1:1883");
    expect(defaultBrokerUrl({ MQTT_URL: "mqtt://broker:1884" })).toBe("mqtt://broker:1884");
  });
});
