import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type DevSystem, startDevSystem } from "@aquapilot/dev";
import { loadConfig } from "@aquapilot/server/config.ts";

/** The built web app (`npm run build -w apps/web`). */
export const WEB_DIST = path.join(import.meta.dirname, "../../apps/web/dist");

/**
 * Starts the whole system (server with the built web app, embedded broker, simulated softeners, demo owner, development
 * routes) on free ports and a fresh DATA_DIR, as `npm start` does (the development launcher's `startDevSystem`). The web app must be built first (`npm run build -w apps/web`).
 * `opts.webDistDir` serves another copy of the build instead of {@link WEB_DIST}.
 */
export async function startTestSystem(
  env: Record<string, string> = {},
  opts: { webDistDir?: string } = {},
): Promise<DevSystem & { dataDir: string }> {
  const index = path.join(opts.webDistDir ?? WEB_DIST, "index.html");
  if (!fs.existsSync(index)) throw new Error("apps/web/dist is missing: run `npm run build -w apps/web` first");
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "aq-e2e-"));
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
  const system = await startDevSystem(config, { webDistDir: opts.webDistDir });
  return {
    ...system,
    dataDir,
    close: async () => {
      await system.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
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
