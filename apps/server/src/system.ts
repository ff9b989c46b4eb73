import { randomUUID } from "node:crypto";
import os from "node:os";
import path from "node:path";
import { createFleet, type Fleet, generateDeviceIdentity, readFleetFile, writeFleetFile } from "@aquapilot/device-sim";
import type { FastifyInstance } from "fastify";
import { buildApp, createLogger } from "./app.ts";
import { JWT_KEY_FILE } from "./auth/auth-service.ts";
import { verifyPassword } from "./auth/passwords.ts";
import { loadOrCreateSecret } from "./auth/secrets.ts";
import { type Bus, InProcessBus } from "./bus.ts";
import { type AppConfig, ConfigError } from "./config.ts";
import { type Db, openDatabase } from "./db/index.ts";
import { registerDevelopmentRoutes } from "./dev/index.ts";
import { type DeviceLink, startDeviceLink } from "./iot/index.ts";
import { DEMO_ACCOUNT, seedDemoIfEmpty } from "./modules/demo.ts";
import { provisionDevice } from "./modules/devices/index.ts";
import { forwardMessagesToHub, MESSAGE_EVENT_TYPES } from "./modules/message/index.ts";
import { rollupTelemetryBatch } from "./modules/statistics/index.ts";
import {
  accountHubAuth,
  deriveConnectionTokenKey,
  type Hubs,
  redisConnectionTokenClaims,
  registerHubs,
} from "./realtime/index.ts";
import { RedisBus } from "./redis-bus.ts";

/** The whole system of one process: database, bus, device link, REST API, hubs and (optionally) the demo fleet. */
export interface System {
  /** Base URL the HTTP server listens on, e.g. http://127.0.0.1:8080. */
  url: string;
  app: FastifyInstance;
  db: Db;
  engine: "sqlite" | "postgres";
  /** The Redis backplane ({@link RedisBus}) with REDIS_URL, the in-process bus without it. */
  bus: Bus;
  deviceLink: DeviceLink;
  hubs: Hubs;
  /** The simulated softeners started with the server (empty when SIM_DEVICES is 0). */
  fleet: Fleet;
  /** The demo sign-in when it was created at this start because the database was empty (null otherwise). */
  demo: { email: string; password: string } | null;
  /** Whether the demo owner exists (created now or at an earlier start). */
  demoAvailable: boolean;
  /** Pairing codes MAC:SECRET of the simulated devices (for binding them in another family). */
  pairingCodes: string[];
  /** Stops the fleet, the HTTP server and hubs, the device link, the bus and the database, in that order. */
  close(): Promise<void>;
}

/**
 * Starts everything on the given configuration (README "Quick start"): opens and migrates the database, starts the
 * device link (embedded Aedes broker unless MQTT_URL), builds the app with the hubs, listens, then loads or extends the
 * fleet file `DATA_DIR/sim-fleet.json` to SIM_DEVICES softeners, seeds the demo owner (whose family holds them) when
 * the database is empty, registers the devices' credentials (in the database, and with MQTT_BROKER_KIND=mosquitto-dynsec
 * in the broker) and starts the simulated softeners without waiting for refused ones (they retry with backoff). With
 * REDIS_URL the
 * bus is a {@link RedisBus} (every process's hubs hear every process's events; the start waits up to 5 s
 * for its subscription, then goes on with a warning while ioredis keeps trying) and the hubs' connection tokens are
 * single use across processes, and when the bus's subscription comes back after a Redis outage the hubs ask their
 * clients to reconnect (events may have been missed); the tokens are signed with a key derived from DATA_DIR/jwt-signing-key, so processes
 * sharing DATA_DIR's secrets accept each other's negotiations (docs/deploy.md). Outside production
 * it also mounts the factory route and the development bridge (src/dev, docs/device-protocol.md §13.6); activation
 * step one tells devices MQTT_PUBLIC_URL or the device link's broker URL. With APP_ENV=production there is
 * no demo owner, no factory route, bridge or /dev/outbox, and the start is refused while the demo account still
 * signs in with its published password. `opts.webDistDir` serves another built web app at "/" (default apps/web/dist;
 * the web benchmark serves a copy with its static baseline page).
 * @throws ConfigError when production finds the demo credentials; errors of the parts; after closing what had started.
 */
export async function startSystem(
  config: AppConfig,
  opts: {
    logger?: ReturnType<typeof createLogger>;
    /** Built web app to serve instead of apps/web/dist (browser tests serve a copy they change). */
    webDistDir?: string;
  } = {},
): Promise<System> {
  const logger = opts.logger ?? createLogger(config);
  const cleanups: Array<() => Promise<unknown>> = [];
  const closeAll = async () => {
    for (const c of cleanups.reverse()) await c().catch((err) => logger.error({ err }, "shutdown step failed"));
  };
  try {
    const { db, engine } = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
    cleanups.push(() => db.destroy());
    if (config.APP_ENV === "production") await refuseDemoCredentials(db);
    const redisBus = config.REDIS_URL
      ? new RedisBus({ url: config.REDIS_URL, logger: logger.child({ module: "bus" }) })
      : null;
    const bus: Bus = redisBus ?? new InProcessBus();
    cleanups.push(() => bus.close());
    if (redisBus && !(await redisBus.ready(5_000))) {
      logger.warn("bus: Redis not reachable yet; starting without it (events of other processes arrive once it is)");
    }
    const deviceLink = await startDeviceLink({
      db,
      bus,
      dataDir: config.DATA_DIR,
      mqttUrl: config.MQTT_URL,
      brokerKind: config.MQTT_BROKER_KIND,
      subscriptions: config.MQTT_SUBSCRIPTIONS,
      gatewayClientId: config.GATEWAY_CLIENT_ID ?? defaultGatewayClientId(config.PORT),
      mqttHost: config.MQTT_HOST,
      mqttPort: config.MQTT_PORT,
      logger: logger.child({ module: "iot" }),
      onTelemetry: rollupTelemetryBatch,
      // PostgreSQL: two write batches side by side (each batch takes what arrived while it was written,
      // so more lanes only mean more, smaller transactions on the same cores); SQLite has one connection.
      telemetryBatch: { lanes: engine === "postgres" ? 2 : 1 },
    });
    cleanups.push(() => deviceLink.close());

    const app = buildApp({
      config,
      db,
      bus,
      devices: deviceLink,
      logger,
      brokerUrl: deviceLink.brokerUrl,
      deviceAccounts: deviceLink.accounts,
      webDistDir: opts.webDistDir,
    });
    const hubs = registerHubs(app, {
      bus,
      logger: app.log,
      auth: accountHubAuth(app.auth, db),
      // The same key in every process that shares DATA_DIR's secrets: a negotiate on one attaches on another.
      tokenKey: deriveConnectionTokenKey(loadOrCreateSecret(config.DATA_DIR, JWT_KEY_FILE)),
      tokenClaims: redisBus ? redisConnectionTokenClaims(redisBus.commands) : undefined,
    });
    // After a gap in the backplane, events of other processes may be missing: clients reconnect and re-read, and
    // the cached token checks, memberships and device lists are read again.
    const stopResync = redisBus?.onResume(({ downMs }) => {
      app.auth.forgetCachedChecks();
      app.memberships.clear();
      app.familyDeviceLists.clear();
      const asked = hubs.reconnectAll();
      logger.warn({ downMs, connections: asked }, "bus: Redis back after a gap; hub clients asked to reconnect");
    });
    if (stopResync) cleanups.push(async () => stopResync());
    // Messages: hub 2 delivery, device events → messages, and the worker (pending delivery, offline watcher).
    const stopForwarding = forwardMessagesToHub(bus, hubs);
    cleanups.push(async () => stopForwarding());
    deviceLink.gateway.setEventHook(async (e) => {
      if (MESSAGE_EVENT_TYPES.includes(e.type)) await app.messages.fromDeviceEvent(e.deviceId, e.eventId);
    });
    // Factory registration and the development bridge (§13.6), never in production.
    await registerDevelopmentRoutes(app, { config, db, accounts: deviceLink.accounts });
    await app.listen({ port: config.PORT, host: config.HOST });
    cleanups.push(() => app.close());
    cleanups.push(async () => deviceLink.gateway.setEventHook(null));
    cleanups.push(app.messages.startWorker());
    const address = app.server.address();
    const port = typeof address === "object" && address ? address.port : config.PORT;
    const url = `http://${config.HOST.includes(":") ? `[${config.HOST}]` : config.HOST}:${port}`;

    // The demo fleet: identities kept in DATA_DIR/sim-fleet.json so the same softeners come back on every start.
    const fleetFile = path.join(config.DATA_DIR, "sim-fleet.json");
    const file = config.SIM_DEVICES > 0 ? readFleetFile(fleetFile) : { version: 1 as const, devices: [] };
    while (file.devices.length < config.SIM_DEVICES) {
      file.devices.push({ ...generateDeviceIdentity(), name: `Softener ${file.devices.length + 1}` });
    }
    if (config.SIM_DEVICES > 0) writeFleetFile(fleetFile, file);
    const devices = file.devices.slice(0, config.SIM_DEVICES);
    // Production is production: never a demo owner with a published password.
    const seeded =
      config.APP_ENV === "production"
        ? null
        : await seedDemoIfEmpty(db, { devices: devices.map((d) => ({ ...d, name: d.name ?? d.model })) });
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
      // Factory registration: idempotent; keeps the cloud's copy of the credentials in step with the fleet file.
      await provisionDevice(db, {
        mac: d.mac,
        secret: d.secret,
        name: d.name ?? d.model,
        model: d.model,
        serialNumber: d.serialNumber,
        deviceSerialNumber: d.deviceSerialNumber,
      });
      // The broker's account too (MQTT_BROKER_KIND=mosquitto-dynsec): never fails the start, retried when refused.
      await deviceLink.accounts.provision(d.mac, d.secret);
      pairingCodes.push(`${d.mac}:${d.secret}`);
    }
    const fleet = createFleet({ brokerUrl: deviceLink.brokerUrl, devices, timeScale: config.SIM_TIME_SCALE });
    cleanups.push(() => fleet.stop());
    // Resolves after each device's first attempt: one the broker refuses (or a broker that is down) keeps retrying
    // with backoff and never stops the server starting.
    const online = await fleet.start();
    if (online < devices.length) {
      logger.warn({ online, devices: devices.length }, "simulated devices not connected yet; they keep retrying");
    }
    return { url, app, db, engine, bus, deviceLink, hubs, fleet, demo, demoAvailable, pairingCodes, close: closeAll };
  } catch (err) {
    await closeAll();
    throw err;
  }
}

/**
 * Refuses a production start while the demo owner (created by an earlier start outside production on the same
 * database) still signs in with the published demo password (a known credential is a weak secret).
 * @throws ConfigError naming the account and what to do; the password is not repeated.
 */
export async function refuseDemoCredentials(db: Db): Promise<void> {
  const row = await db
    .selectFrom("users")
    .select("password_hash")
    .where("email", "=", DEMO_ACCOUNT.email)
    .where("is_deleted", "=", 0)
    .executeTakeFirst();
  if (row?.password_hash && (await verifyPassword(row.password_hash, DEMO_ACCOUNT.password))) {
    throw new ConfigError([
      `demo account ${DEMO_ACCOUNT.email}: still signs in with the published demo password; delete the account or change its password before starting with APP_ENV=production`,
    ]);
  }
}

export { DEMO_ACCOUNT };

/**
 * The gateway's MQTT client id when GATEWAY_CLIENT_ID is unset: `aquapilot-gw-<host name>-<port>` (host name cut to
 * letters, digits, '.', '-' and 40 characters), stable across restarts of one process and different for processes on
 * other ports or hosts, so each keeps its own persistent session on an external broker. PORT 0 (a free
 * port, tests) has no stable name: a random suffix then.
 */
export function defaultGatewayClientId(port: number, hostname: string = os.hostname()): string {
  const host = hostname.replace(/[^0-9A-Za-z.-]/g, "").slice(0, 40) || "host";
  return `aquapilot-gw-${host}-${port === 0 ? randomUUID().slice(0, 8) : port}`;
}
