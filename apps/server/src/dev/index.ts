import type { FastifyInstance } from "fastify";
import type { AppConfig } from "../config.ts";
import type { Db } from "../db/index.ts";
import { factoryRoutes } from "../modules/devices/index.ts";
import type { DeviceAccountsPort } from "../ports.ts";
import { type DevBridgeOptions, devBridgeRoutes } from "./bridge.ts";

export { type DevBridgeOptions, devBridgeRoutes } from "./bridge.ts";
export { MODULE_ACCESS_POINT, SimulatedPhone } from "./phone.ts";

/**
 * Mounts the development-only routes when APP_ENV is not production (never in production): the factory endpoint
 * `POST /dev/factory/devices` (docs/device-protocol.md §2) and the development bridge `/dev/bridge/…` (§13.6) with
 * the simulator's ports SIM_AP_UDP_PORT and SIM_LAN_UDP_PORT. Call it before the app is ready (system.ts does, before
 * listening). `bridge` overrides the bridge's options (tests shorten its waits).
 */
export async function registerDevelopmentRoutes(
  app: FastifyInstance,
  opts: {
    config: Pick<AppConfig, "APP_ENV" | "SIM_AP_UDP_PORT" | "SIM_LAN_UDP_PORT">;
    db: Db;
    /** The broker's device accounts: the factory route provisions each registered device there. */
    accounts?: DeviceAccountsPort;
    bridge?: Partial<DevBridgeOptions>;
  },
): Promise<void> {
  if (opts.config.APP_ENV === "production") return;
  await app.register(factoryRoutes, { db: opts.db, accounts: opts.accounts });
  await app.register(devBridgeRoutes, {
    apPort: opts.config.SIM_AP_UDP_PORT,
    lanPort: opts.config.SIM_LAN_UDP_PORT,
    ...opts.bridge,
  });
}
