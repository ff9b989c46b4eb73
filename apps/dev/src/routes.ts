import type { AppConfig } from "@aquapilot/server/config.ts";
import type { Db } from "@aquapilot/server/db/index.ts";
import type { DeviceAccountsPort } from "@aquapilot/server/ports.ts";
import type { FastifyInstance } from "fastify";
import { type DevBridgeOptions, devBridgeRoutes } from "./bridge/bridge.ts";
import { factoryRoutes } from "./factory-route.ts";
import { registerDevOutboxRoute } from "./outbox-route.ts";

/**
 * Mounts the development-only routes when APP_ENV is not production (never in production): `GET /dev/outbox`
 * (outbox-route.ts), the factory endpoint `POST /dev/factory/devices` (docs/device-protocol.md §2) and the
 * development bridge `/dev/bridge/…` (§13.6) with the simulator's ports SIM_AP_UDP_PORT and SIM_LAN_UDP_PORT. Call it
 * before the app is ready (`startDevSystem` does, as an extension of the server's `startSystem`, before listening).
 * `only: "outbox"` mounts the outbox alone (the server's test apps, which read codes but have no simulator);
 * `bridge` overrides the bridge's options (tests shorten its waits).
 */
export async function registerDevelopmentRoutes(
  app: FastifyInstance,
  opts: {
    config: Pick<AppConfig, "APP_ENV" | "SIM_AP_UDP_PORT" | "SIM_LAN_UDP_PORT">;
    db: Db;
    /** The broker's device accounts: the factory route provisions each registered device there. */
    accounts?: DeviceAccountsPort;
    bridge?: Partial<DevBridgeOptions>;
    only?: "outbox";
  },
): Promise<void> {
  if (opts.config.APP_ENV === "production") return;
  registerDevOutboxRoute(app, opts.db);
  if (opts.only === "outbox") return;
  await app.register(factoryRoutes, { db: opts.db, accounts: opts.accounts });
  await app.register(devBridgeRoutes, {
    apPort: opts.config.SIM_AP_UDP_PORT,
    lanPort: opts.config.SIM_LAN_UDP_PORT,
    ...opts.bridge,
  });
}
