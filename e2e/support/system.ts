import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import { DEMO_ACCOUNT, type DevSystem, startDevSystem } from "@aquapilot/dev";
import { generateDeviceIdentity, writeFleetFile } from "@aquapilot/device-sim";
import { createLogger } from "@aquapilot/server/app.ts";
import { loadConfig } from "@aquapilot/server/config.ts";
import { createSecretWatch } from "@aquapilot/server/test/secret-watch.ts";
import type { RouteIds } from "./routes.ts";

/** pino's numeric level of each LOG_LEVEL name. */
const PINO_LEVELS: Record<string, number> = {
  trace: 10,
  debug: 20,
  info: 30,
  warn: 40,
  error: 50,
  fatal: 60,
  silent: 99,
};

/** The built web app (`npm run build -w apps/web`). */
export const WEB_DIST = path.join(import.meta.dirname, "../../apps/web/dist");

/**
 * Starts the whole system (server with the built web app, embedded broker, simulated softeners, demo owner, development
 * routes) on free ports and a fresh DATA_DIR, as `npm start` does (the development launcher's `startDevSystem`). The web app must be built first (`npm run build -w apps/web`).
 * `opts.webDistDir` serves another copy of the build instead of {@link WEB_DIST}; `opts.models` makes the fleet's first
 * softeners of these models, in order (a new fleet's are random).
 * The server logs at info level through the real logger into memory (lines at the configured LOG_LEVEL and above
 * are also printed); `close` fails when the log holds a secret the browser's and the test's traffic carried
 * (passwords, codes, tokens: apps/server/test/secret-watch.ts).
 */
export async function startTestSystem(
  env: Record<string, string> = {},
  opts: { webDistDir?: string; models?: readonly string[] } = {},
): Promise<DevSystem & { dataDir: string }> {
  const index = path.join(opts.webDistDir ?? WEB_DIST, "index.html");
  if (!fs.existsSync(index)) throw new Error("apps/web/dist is missing: run `npm run build -w apps/web` first");
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "aq-e2e-"));
  // The fleet's first softeners of these models (a new fleet's models are random): what a screen shows of a model's
  // settings is then the same on every run.
  if (opts.models) {
    const devices = opts.models.map((model) => ({ ...generateDeviceIdentity(), model }));
    writeFleetFile(path.join(dataDir, "sim-fleet.json"), { version: 1, devices });
  }
  const config = loadConfig({
    APP_ENV: "test",
    PORT: "0",
    MQTT_PORT: "0",
    DATA_DIR: dataDir,
    SIM_DEVICES: "3",
    SIM_TIME_SCALE: "1",
    LOG_LEVEL: "warn",
    // The suites register and sign in many users from 127.0.0.1: the rate limits are multiplied.
    RATE_LIMIT_SCALE: "1000",
    ...env,
  });
  const lines: string[] = [];
  const printedFrom = PINO_LEVELS[config.LOG_LEVEL] ?? PINO_LEVELS.warn;
  const sink = new Writable({
    write(chunk, _enc, cb) {
      const line = String(chunk);
      lines.push(line);
      if (Number(/"level":(\d+)/.exec(line)?.[1] ?? 0) >= printedFrom) process.stdout.write(line);
      cb();
    },
  });
  const secrets = createSecretWatch();
  const system = await startDevSystem(config, {
    webDistDir: opts.webDistDir,
    logger: createLogger({ LOG_LEVEL: "info" }, sink),
    extendApp: (app) => secrets.watch(app),
  });
  return {
    ...system,
    dataDir,
    close: async () => {
      await system.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
      const leaks = secrets.leaks(lines);
      if (leaks.length > 0) throw new Error(`secrets in the server log:\n${leaks.join("\n")}`);
    },
  };
}

/**
 * The demo owner's household and the first simulated softener of the system's fleet in it (`familyId`, `deviceId`,
 * its `name`), read from the system's database. Throws when the fleet's first softener is not in that household.
 */
export async function demoSoftener(system: DevSystem): Promise<{ familyId: string; deviceId: string; name: string }> {
  const familyId = await familyIdOf(system, DEMO_ACCOUNT.email);
  const device = await system.db
    .selectFrom("devices")
    .select(["id", "name"])
    .where("family_id", "=", familyId)
    .where("mac", "=", system.fleet.devices[0].mac)
    .executeTakeFirstOrThrow();
  return { familyId, deviceId: device.id, name: device.name };
}

/**
 * The ids the routes of spec §2 take their query values from (support/routes.ts), for the demo owner: the household,
 * the owner's membership in it and the fleet's first softener ({@link demoSoftener}).
 */
export async function demoRouteIds(system: DevSystem): Promise<RouteIds> {
  const { familyId, deviceId } = await demoSoftener(system);
  const member = await system.db
    .selectFrom("family_members")
    .innerJoin("users", "users.id", "family_members.user_id")
    .select("family_members.id")
    .where("family_members.family_id", "=", familyId)
    .where("users.email", "=", DEMO_ACCOUNT.email)
    .executeTakeFirstOrThrow();
  return { familyId, familyUserId: member.id, deviceId };
}

/** The id of the (first) household `email` belongs to, read from the system's database. */
export async function familyIdOf(system: DevSystem, email: string): Promise<string> {
  const row = await system.db
    .selectFrom("families")
    .innerJoin("family_members", "family_members.family_id", "families.id")
    .innerJoin("users", "users.id", "family_members.user_id")
    .select("families.id")
    .where("users.email", "=", email)
    .executeTakeFirstOrThrow();
  return row.id;
}
