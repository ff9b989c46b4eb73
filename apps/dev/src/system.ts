import path from "node:path";
import {
  createFleet,
  type Fleet,
  generateDeviceIdentity,
  pinBrokerCa,
  readFleetFile,
  writeFleetFile,
} from "@aquapilot/device-sim";
import type { createLogger } from "@aquapilot/server/app.ts";
import type { AppConfig } from "@aquapilot/server/config.ts";
import { provisionDevice } from "@aquapilot/server/modules/devices/index.ts";
import { rawPublicKeyBase64, trustedFirmwareKeys } from "@aquapilot/server/modules/firmware/index.ts";
import { type System, type SystemParts, startSystem } from "@aquapilot/server/system.ts";
import type { FastifyInstance } from "fastify";
import type { DevBridgeOptions } from "./bridge/bridge.ts";
import { DEMO_ACCOUNT, demoDeviceName, isDemoDeviceName, seedDemoIfEmpty } from "./demo.ts";
import { registerDevelopmentRoutes } from "./routes.ts";

/** The development system: the server's production core plus the demo owner and the simulated softeners. */
export interface DevSystem extends System {
  /** The simulated softeners started with the server (empty when SIM_DEVICES is 0). */
  fleet: Fleet;
  /** The demo sign-in when it was created at this start because the database was empty (null otherwise). */
  demo: { email: string; password: string } | null;
  /** Whether the demo owner exists (created now or at an earlier start). */
  demoAvailable: boolean;
  /** Pairing codes MAC:SECRET of the simulated devices (for binding them in another family). */
  pairingCodes: string[];
}

/**
 * Starts what `npm start` runs (README "Quick start"): the server's production core (`startSystem` of
 * apps/server/src/system.ts: database, bus, device link, app, hubs, listening, workers) with one extension that,
 * before the HTTP server listens, mounts the development routes (`registerDevelopmentRoutes`: /dev/outbox, the factory
 * route, the development bridge, docs/device-protocol.md §13.6), loads or extends the fleet file
 * `DATA_DIR/sim-fleet.json` to SIM_DEVICES softeners, seeds the demo owner (whose family holds them) when the database
 * is empty, registers the devices' credentials (in the database, and with MQTT_BROKER_KIND=mosquitto-dynsec in the
 * broker) and starts the simulated softeners at SIM_TIME_SCALE without waiting for refused ones (they retry with
 * backoff), on the device link's device URL (MQTT over TLS on the embedded broker) pinning its CA, which every
 * simulated module of this process pins until the system closes (device-sim `pinBrokerCa`). `System.close` stops the fleet first. With APP_ENV=production there is no demo owner and no development
 * route (the core refuses the start while the demo account still signs in with its published password); the fleet
 * still follows SIM_DEVICES (0 unless set). `opts.webDistDir` and `opts.logger` are passed to the core; `opts.bridge`
 * overrides the bridge's options; `opts.extendApp` runs on the app before the development routes are mounted (hooks
 * of an embedding harness, e.g. the browser tests' watch for secrets in the log).
 * @throws ConfigError when production finds the demo credentials; errors of the core, the seeding or the fleet file;
 *   after closing what had started.
 */
export async function startDevSystem(
  config: AppConfig,
  opts: {
    logger?: ReturnType<typeof createLogger>;
    /** Built web app to serve instead of apps/web/dist (browser tests serve a copy they change). */
    webDistDir?: string;
    bridge?: Partial<DevBridgeOptions>;
    extendApp?: (app: FastifyInstance) => void;
  } = {},
): Promise<DevSystem> {
  let added: Omit<DevSystem, keyof System> | null = null;
  const system = await startSystem(config, {
    logger: opts.logger,
    webDistDir: opts.webDistDir,
    extensions: [
      async (parts) => {
        opts.extendApp?.(parts.app);
        await registerDevelopmentRoutes(parts.app, {
          config,
          db: parts.db,
          accounts: parts.deviceLink.accounts,
          bridge: opts.bridge,
        });
        const demo = await seedDemoFleet(parts);
        added = demo;
        // Modules set up through this launcher (setup mode, in this process) pin its CA, as a factory's firmware does.
        const caPem = parts.deviceLink.deviceCa;
        const unpin = caPem ? pinBrokerCa(caPem) : () => undefined;
        // Resolves after each device's first attempt: one the broker refuses (or a broker that is down) keeps
        // retrying with backoff and never stops the server starting.
        const online = await demo.fleet.start().catch(async (err: unknown) => {
          await demo.fleet.stop();
          unpin();
          throw err;
        });
        if (online < demo.fleet.devices.length) {
          parts.logger.warn(
            { online, devices: demo.fleet.devices.length },
            "simulated devices not connected yet; they keep retrying",
          );
        }
        return async () => {
          await demo.fleet.stop();
          unpin();
        };
      },
    ],
  });
  if (!added) {
    await system.close();
    throw new Error("startDevSystem: the development extension did not run");
  }
  return { ...system, ...(added as Omit<DevSystem, keyof System>) };
}

/**
 * The demo fleet, not started yet: identities kept in DATA_DIR/sim-fleet.json (extended to SIM_DEVICES, new ones
 * named in DEMO_LANGUAGE, written only when SIM_DEVICES > 0) so the same softeners come back on every start; the demo
 * owner seeded outside production when the database is empty, in DEMO_LANGUAGE (household and softener names; a
 * fleet-file name the launcher generated, in whichever language, gives way to the DEMO_LANGUAGE one, a name written
 * by hand is kept); every device registered at the factory (idempotent, keeping the cloud's copy of the credentials
 * in step with the fleet file) and in the broker's accounts (never fails, retried when refused).
 */
async function seedDemoFleet({ config, db, deviceLink }: SystemParts): Promise<Omit<DevSystem, keyof System>> {
  const fleetFile = path.join(config.DATA_DIR, "sim-fleet.json");
  const file = config.SIM_DEVICES > 0 ? readFleetFile(fleetFile) : { version: 1 as const, devices: [] };
  while (file.devices.length < config.SIM_DEVICES) {
    file.devices.push({
      ...generateDeviceIdentity(),
      name: demoDeviceName(config.DEMO_LANGUAGE, file.devices.length + 1),
    });
  }
  if (config.SIM_DEVICES > 0) writeFleetFile(fleetFile, file);
  const devices = file.devices.slice(0, config.SIM_DEVICES);
  // Production is production: never a demo owner with a published password.
  const seeded =
    config.APP_ENV === "production"
      ? null
      : await seedDemoIfEmpty(db, {
          language: config.DEMO_LANGUAGE,
          devices: devices.map((d, i) => ({
            ...d,
            name: !d.name || isDemoDeviceName(d.name, i + 1) ? undefined : d.name,
          })),
        });
  const demo = seeded?.created ? { email: seeded.email, password: seeded.password } : null;
  const demoAvailable =
    (await db
      .selectFrom("users")
      .select("id")
      .where("email", "=", DEMO_ACCOUNT.email)
      .where("is_deleted", "=", 0)
      .executeTakeFirst()) !== undefined;
  const pairingCodes: string[] = [];
  for (const d of devices) {
    await provisionDevice(db, {
      mac: d.mac,
      secret: d.secret,
      name: d.name ?? d.model,
      model: d.model,
      serialNumber: d.serialNumber,
      deviceSerialNumber: d.deviceSerialNumber,
    });
    await deviceLink.accounts.provision(d.mac, d.secret);
    pairingCodes.push(`${d.mac}:${d.secret}`);
  }
  // The simulated firmware pins the vendor keys the server trusts (docs/device-protocol.md §3.7 "Firmware update").
  const firmwareKeys = trustedFirmwareKeys(config).map(rawPublicKeyBase64);
  // Like the modules' firmware, the fleet connects to the address activation hands out (MQTT over TLS when the
  // broker serves it) and pins the CA the device link names (docs/device-protocol.md "Transport security").
  const fleet = createFleet({
    brokerUrl: deviceLink.deviceUrl,
    devices,
    timeScale: config.SIM_TIME_SCALE,
    deviceOptions: { firmwareKeys, brokerCa: deviceLink.deviceCa },
  });
  return { fleet, demo, demoAvailable, pairingCodes };
}
