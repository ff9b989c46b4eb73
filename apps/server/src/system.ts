import { randomUUID } from "node:crypto";
import os from "node:os";
import type { FastifyInstance } from "fastify";
import { buildApp, createLogger } from "./app.ts";
import { JWT_KEY_FILE } from "./auth/auth-service.ts";
import { DEMO_ACCOUNT } from "./auth/demo-account.ts";
import { verifyPassword } from "./auth/passwords.ts";
import { loadOrCreateSecret } from "./auth/secrets.ts";
import { type Bus, InProcessBus } from "./bus.ts";
import { type AppConfig, ConfigError, deviceTransportProblems } from "./config.ts";
import { type Db, openDatabase } from "./db/index.ts";
import { type DeviceLink, startDeviceLink } from "./iot/index.ts";
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

/** The production core of one process: database, bus, device link, REST API and hubs. */
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
  /**
   * Stops what the extensions started (their stop functions, last extension first), the HTTP server and hubs, the
   * device link, the bus and the database, in that order.
   */
  close(): Promise<void>;
}

/** What {@link startSystem} has built when it runs the extensions: everything but the listening HTTP server. */
export interface SystemParts {
  config: AppConfig;
  logger: ReturnType<typeof createLogger>;
  /** The app, not listening yet: an extension may register routes and plugins. */
  app: FastifyInstance;
  db: Db;
  engine: "sqlite" | "postgres";
  bus: Bus;
  /** The device link, its broker already serving (an extension may connect devices to `deviceLink.brokerUrl`). */
  deviceLink: DeviceLink;
  hubs: Hubs;
}

/**
 * An addition to the core (the development launcher's routes, demo and simulated fleet), run by {@link startSystem}
 * after the hubs and before `listen`. It may answer a stop function, run by `System.close` before the HTTP server
 * closes. A throw aborts the start (what had started is closed).
 */
export type SystemExtension = (parts: SystemParts) => Promise<(() => Promise<unknown>) | undefined>;

/**
 * Starts the production core on the given configuration (docs/architecture.md "Server", docs/deploy.md): opens and
 * migrates the database, refuses a production start while the demo account still signs in with its published
 * password or without TLS on the device link (config.ts `deviceTransportProblems`), starts the device link (embedded
 * Aedes broker unless MQTT_URL: MQTT over TLS on MQTT_TLS_PORT, plain MQTT on MQTT_PORT with MQTT_PLAIN), builds the app with the hubs, runs
 * `opts.extensions` in order, then listens on HOST:PORT and starts the message worker. With REDIS_URL the bus is a
 * {@link RedisBus} (every process's hubs hear every process's events; the start waits up to 5 s for its
 * subscription, then goes on with a warning while ioredis keeps trying) and the hubs' connection tokens are single
 * use across processes, and when the bus's subscription comes back after a Redis outage the hubs ask their clients to
 * reconnect (events may have been missed); the tokens are signed with a key derived from DATA_DIR/jwt-signing-key, so
 * processes sharing DATA_DIR's secrets accept each other's negotiations (docs/deploy.md). Activation step one tells
 * devices MQTT_PUBLIC_URL or the device link's device URL (its TLS address when it serves TLS). Nothing here is development-only: the demo owner, the
 * simulated fleet, the factory route, the development bridge and /dev/outbox are added by the development launcher
 * (apps/dev `startDevSystem`) through `opts.extensions`. `opts.webDistDir` serves another built web app at "/"
 * (default apps/web/dist; the web benchmark serves a copy with its static baseline page).
 * @throws ConfigError when production finds the demo credentials or a device link without TLS; errors of the parts and extensions; after closing
 *   what had started.
 */
export async function startSystem(
  config: AppConfig,
  opts: {
    logger?: ReturnType<typeof createLogger>;
    /** Built web app to serve instead of apps/web/dist (browser tests serve a copy they change). */
    webDistDir?: string;
    /** Run in order after the hubs are registered and before listening ({@link SystemExtension}). */
    extensions?: SystemExtension[];
  } = {},
): Promise<System> {
  const logger = opts.logger ?? createLogger(config);
  const cleanups: Array<() => Promise<unknown>> = [];
  const closeAll = async () => {
    for (const c of cleanups.reverse()) await c().catch((err) => logger.error({ err }, "shutdown step failed"));
  };
  try {
    if (config.APP_ENV === "production") {
      const problems = deviceTransportProblems(config);
      if (problems.length > 0) throw new ConfigError(problems);
    }
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
      mqttPlain: config.MQTT_PLAIN,
      tls: {
        port: config.MQTT_TLS_PORT,
        files: { cert: config.MQTT_TLS_CERT, key: config.MQTT_TLS_KEY, ca: config.MQTT_TLS_CA },
        hosts: config.MQTT_PUBLIC_URL ? [new URL(config.MQTT_PUBLIC_URL).hostname] : [],
      },
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
      brokerUrl: deviceLink.deviceUrl,
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
    // The extensions' stop functions, the last extension's first: at close before the HTTP server (pushed again
    // after listening), and on a failed start after what came later.
    const extensionStops: Array<() => Promise<unknown>> = [];
    const stopExtensions = async () => {
      for (const stop of extensionStops.splice(0).reverse()) await stop();
    };
    cleanups.push(stopExtensions);
    const parts: SystemParts = { config, logger, app, db, engine, bus, deviceLink, hubs };
    for (const extend of opts.extensions ?? []) {
      const stop = await extend(parts);
      if (stop) extensionStops.push(stop);
    }
    await app.listen({ port: config.PORT, host: config.HOST });
    cleanups.push(() => app.close());
    cleanups.push(async () => deviceLink.gateway.setEventHook(null));
    cleanups.push(app.messages.startWorker());
    const address = app.server.address();
    const port = typeof address === "object" && address ? address.port : config.PORT;
    const url = `http://${config.HOST.includes(":") ? `[${config.HOST}]` : config.HOST}:${port}`;
    cleanups.push(stopExtensions);
    return { url, app, db, engine, bus, deviceLink, hubs, close: closeAll };
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
