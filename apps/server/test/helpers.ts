import { randomUUID } from "node:crypto";
import { Writable } from "node:stream";
import { type DeviceCommandName, endpoints } from "@aquapilot/contract";
import { type DevBridgeOptions, registerDevelopmentRoutes } from "@aquapilot/dev";
import type { FastifyInstance } from "fastify";
import { buildApp, createLogger } from "../src/app.ts";
import { InProcessBus } from "../src/bus.ts";
import { type AppConfig, loadConfig } from "../src/config.ts";
import type { Db } from "../src/db/index.ts";
import { AppError, ErrorCode } from "../src/http/errors.ts";
import type { Mailer } from "../src/notify/index.ts";
import type { DeviceCommandPort } from "../src/ports.ts";
import { call } from "./call.ts";
import { type Engine, openTestDatabase, type TestDatabase } from "./databases.ts";
import { type AnswerCheck, checkAnswersAgainstOpenApi } from "./openapi-answers.ts";
import { createSecretWatch, type SecretWatch } from "./secret-watch.ts";

/** One call received by {@link RecordingDevicePort}. */
export interface RecordedCommand {
  deviceId: string;
  name: DeviceCommandName;
  params?: Record<string, unknown>;
  userId?: string | null;
  commandId: string;
}

/**
 * A stand-in for the device link (the edge to hardware): records each command; devices whose id is in `offline`
 * fail with AppError DeviceOffline, as the real gateway does.
 */
export class RecordingDevicePort implements DeviceCommandPort {
  readonly calls: RecordedCommand[] = [];
  readonly offline = new Set<string>();
  async sendCommand(input: Parameters<DeviceCommandPort["sendCommand"]>[0]) {
    if (this.offline.has(input.deviceId)) throw new AppError(ErrorCode.DeviceOffline, "device.offline");
    const commandId = input.commandId ?? randomUUID();
    this.calls.push({ ...input, commandId });
    return { commandId };
  }
  async sendCommandAndWait(input: Parameters<DeviceCommandPort["sendCommandAndWait"]>[0]) {
    const { commandId } = await this.sendCommand(input);
    return { commandId, ok: true, error: null };
  }
}

/** An app built on a real database in a temp DATA_DIR, with its logs captured. */
export interface TestApp {
  app: FastifyInstance;
  db: Db;
  config: AppConfig;
  devices: RecordingDevicePort;
  /** The app's in-process bus (publish to it as another module or process would). */
  bus: InProcessBus;
  database: TestDatabase;
  /** Every log line written so far (JSON text). */
  logs: string[];
  /** Answers that did not match /openapi.json so far (see test/openapi-answers.ts). */
  answers: AnswerCheck;
  /** The secrets the app's traffic carried, looked for in `logs` at close. */
  secrets: SecretWatch;
  /**
   * Closes the app; fails when an answer did not match /openapi.json or a secret of the traffic is in the log;
   * `keepDatabase` leaves the database and DATA_DIR for a restart. */
  close(opts?: { keepDatabase?: boolean }): Promise<void>;
}

/**
 * RATE_LIMIT_SCALE of test apps: suites sign many users in from one address (127.0.0.1), so every rate-limit count
 * is multiplied by this unless `env` sets RATE_LIMIT_SCALE (the guessing suite, security/guessing.test.ts, sets "1"
 * to test the production limits).
 */
export const TEST_RATE_LIMIT_SCALE = "1000";

/**
 * The engine of test apps built without `engine` (and of {@link createTestApp}'s fresh databases): TEST_ENGINE of
 * `env`, "sqlite" (the default) or "postgres". The root vitest.config.ts sets TEST_ENGINE=postgres in its
 * "server-postgres" project, which runs the API test files that do not loop over ENGINES (test/databases.ts) a
 * second time, on PostgreSQL.
 * @throws Error naming the value when TEST_ENGINE is set to anything else.
 */
export function defaultTestEngine(env: NodeJS.ProcessEnv = process.env): Engine {
  const value = env.TEST_ENGINE?.trim() || "sqlite";
  if (value !== "sqlite" && value !== "postgres") {
    throw new Error(`TEST_ENGINE must be "sqlite" or "postgres", not ${JSON.stringify(env.TEST_ENGINE)}`);
  }
  return value;
}

/**
 * Builds the app like the development launcher does (the server's app with GET /dev/outbox outside production), on a
 * fresh database of `engine` (default {@link defaultTestEngine}: TEST_ENGINE, else SQLite) or on `database` (to
 * restart on the same DATA_DIR). `env` overrides
 * configuration variables (RATE_LIMIT_SCALE is {@link TEST_RATE_LIMIT_SCALE} unless given); `now` is the clock.
 */
export async function createTestApp(
  opts: {
    engine?: Engine;
    database?: TestDatabase;
    env?: Record<string, string>;
    now?: () => Date;
    /** Built web app folder to serve at "/" (default: none). */
    webDistDir?: string;
    /** Replaces the e-mail transport. */
    mailer?: Mailer;
    /**
     * Also mount the factory route and the development bridge, as the development launcher does (apps/dev
     * `registerDevelopmentRoutes`; absent with APP_ENV=production), with these bridge options. GET /dev/outbox is
     * mounted on every test app outside production.
     */
    development?: { bridge?: Partial<DevBridgeOptions> };
    /** Runs on the built app before it is ready: mount the hubs (`registerHubs` on `bus`) or extra test routes. */
    beforeReady?: (app: FastifyInstance, bus: InProcessBus) => void;
  } = {},
): Promise<TestApp> {
  const database = opts.database ?? (await openTestDatabase(opts.engine ?? defaultTestEngine()));
  const config = loadConfig({
    APP_ENV: "test",
    LOG_LEVEL: "info",
    DATA_DIR: database.dataDir,
    RATE_LIMIT_SCALE: TEST_RATE_LIMIT_SCALE,
    ...opts.env,
  });
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, cb) {
      logs.push(String(chunk));
      cb();
    },
  });
  const devices = new RecordingDevicePort();
  const bus = new InProcessBus();
  const app = buildApp({
    config,
    db: database.db,
    bus,
    devices,
    logger: createLogger(config, sink),
    now: opts.now,
    webDistDir: opts.webDistDir ?? "/nonexistent",
    mailer: opts.mailer,
  });
  await registerDevelopmentRoutes(app, {
    config,
    db: database.db,
    ...(opts.development ? { bridge: opts.development.bridge } : { only: "outbox" as const }),
  });
  // Every secret the traffic carries is watched for in the log; close() fails when one is there.
  const secrets = createSecretWatch();
  secrets.watch(app);
  opts.beforeReady?.(app, bus);
  // Every answer is checked against /openapi.json; close() fails when one did not match.
  const answers = checkAnswersAgainstOpenApi(app);
  await app.ready();
  return {
    app,
    db: database.db,
    config,
    devices,
    bus,
    database,
    logs,
    answers,
    secrets,
    async close(closeOpts) {
      await app.close();
      await bus.close();
      if (!closeOpts?.keepDatabase) await database.close();
      const leaks = secrets.leaks(logs);
      if (leaks.length > 0) throw new Error(`secrets in the server log:\n${leaks.join("\n")}`);
      if (answers.violations.length > 0) {
        throw new Error(`answers that do not match /openapi.json:\n${answers.violations.join("\n")}`);
      }
    },
  };
}

/** Reads the newest 6-digit code sent to `recipient` from GET /dev/outbox. */
export async function latestCode(app: FastifyInstance, recipient: string): Promise<string> {
  const res = await app.inject({ method: "GET", url: "/dev/outbox", query: { recipient } });
  const entries = res.json() as Array<{ body: string }>;
  const code = entries[0]?.body.match(/\b(\d{6})\b/)?.[1];
  if (!code) throw new Error(`no code in the outbox for ${recipient}: ${res.body}`);
  return code;
}

/**
 * POST /connect/token with the password grant over HTTP, at `baseUrl` (a listening server or server process);
 * answers the access and refresh tokens. @throws Error naming the user, the server and the status unless it answers 200.
 */
export async function passwordGrantOverHttp(
  baseUrl: string,
  username: string,
  password: string,
): Promise<{ access_token: string; refresh_token: string }> {
  const res = await fetch(`${baseUrl}/connect/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ grant_type: "password", username, password }),
  });
  if (res.status !== 200) throw new Error(`sign-in of ${username} at ${baseUrl}: ${res.status} ${await res.text()}`);
  return (await res.json()) as { access_token: string; refresh_token: string };
}

/** POST /connect/token with the password grant; answers the parsed JSON and the status. */
export async function passwordGrant(app: FastifyInstance, username: string, password: string) {
  const res = await app.inject({
    method: "POST",
    url: "/connect/token",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    payload: new URLSearchParams({ grant_type: "password", username, password, client_id: "App" }).toString(),
  });
  return { status: res.statusCode, body: res.json() as Record<string, unknown> };
}

/**
 * Registers `email` / `password` through the real routes (code from the outbox); answers the new user id. Both calls
 * send no Accept-Language, so the account has the server's default language, as every suite expects.
 */
export async function registerByEmail(app: FastifyInstance, email: string, password: string): Promise<string> {
  const send = await call(app, endpoints.sendEmailPasswordCode, { query: { email }, lang: null });
  if (send.status !== 200) throw new Error(`send code failed: ${send.text}`);
  const code = await latestCode(app, email);
  const res = await call(app, endpoints.register, {
    query: { bindType: "1", account: email, password, code, serviceRegion: "2" },
    lang: null,
  });
  if (res.status !== 200) throw new Error(`register failed: ${res.text}`);
  return res.result.id;
}

/** Signs in and answers the `authorization` header value. */
export async function bearer(app: FastifyInstance, username: string, password: string): Promise<string> {
  const { status, body } = await passwordGrant(app, username, password);
  if (status !== 200) throw new Error(`sign-in failed: ${JSON.stringify(body)}`);
  return `Bearer ${body.access_token}`;
}
