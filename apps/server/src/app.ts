import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import formbody from "@fastify/formbody";
import fastifyStatic from "@fastify/static";
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from "fastify";
import { serializerCompiler } from "fastify-type-provider-zod";
import { type DestinationStream, type Logger, pino } from "pino";
import { createAuthService } from "./auth/auth-service.ts";
import { loadOrCreateSecret } from "./auth/secrets.ts";
import type { Bus } from "./bus.ts";
import type { AppConfig } from "./config.ts";
import { corePlugin } from "./core-services.ts";
import type { Db } from "./db/index.ts";
import { registerApiReference } from "./http/api-reference.ts";
import { registerAsyncApi } from "./http/asyncapi.ts";
import { registerAuthentication } from "./http/authenticate.ts";
import { registerCompression, variesByEncoding } from "./http/compression.ts";
import { registerCors } from "./http/cors.ts";
import { EDGE_LIMITS, edgeServerOptions, registerEdgeRules } from "./http/edge.ts";
import { registerErrorHandler } from "./http/error-handler.ts";
import { databaseCheck, registerHealth } from "./http/health.ts";
import { IDEMPOTENCY_KEY_FILE, registerIdempotency } from "./http/idempotency.ts";
import { registerOpenApi } from "./http/openapi.ts";
import { registerRateLimiting } from "./http/rate-limit.ts";
import { registerAccessChecks } from "./http/route.ts";
import { inlineScriptHashes, registerSecurityHeaders, webAppCacheControl } from "./http/security-headers.ts";
import { zodValidatorCompiler } from "./http/validation.ts";
import { activationModule } from "./modules/activation/index.ts";
import { firmwareModule } from "./modules/firmware/index.ts";
import { API_MODULES } from "./modules/index.ts";
import type { Mailer, SmsSender } from "./notify/index.ts";
import type { DeviceAccountsPort, DeviceCommandPort } from "./ports.ts";
import { redactLogLine } from "./security/log-redaction.ts";

/** This server's version (package.json), the OpenAPI document's `info.version`. */
export const SERVER_VERSION: string = (
  JSON.parse(fs.readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }
).version;

/**
 * The root logger: pino at `config.LOG_LEVEL`, JSON to stdout (or `destination`). Every line it and its children
 * write passes through security/log-redaction.ts `redactLogLine` (pino's `hooks.streamWrite`): secrets are judged by
 * the name and shape of each field and parameter, not by a list of paths, so none reaches a log whatever it is called.
 */
export function createLogger(config: Pick<AppConfig, "LOG_LEVEL">, destination?: DestinationStream): Logger {
  return pino({ level: config.LOG_LEVEL, hooks: { streamWrite: redactLogLine } }, destination);
}

/** What {@link buildApp} needs. Only `config`, `db`, `bus` and `devices` are required. */
export interface AppDeps {
  config: AppConfig;
  db: Db;
  bus: Bus;
  /** The device link (src/iot); tests pass a recording stand-in. */
  devices: DeviceCommandPort;
  /** Root logger; by default {@link createLogger} (which redacts secrets). The safe request serializer is added to it. */
  logger?: Logger;
  /** Clock for tokens and codes (tests move it). */
  now?: () => Date;
  /** Replaces the e-mail transport (by default SMTP_URL, else the log). */
  mailer?: Mailer;
  /** Replaces the SMS transport (by default the log). */
  sms?: SmsSender;
  /** Built web app to serve at "/"; default apps/web/dist; served only when it holds index.html. */
  webDistDir?: string;
  /**
   * Where devices reach the broker (the device link's `brokerUrl`), told by activation step one unless
   * MQTT_PUBLIC_URL is set; default derived from the configuration (modules/activation `deviceBrokerUrl`).
   */
  brokerUrl?: string;
  /** The broker's device accounts (the device link's `accounts`): activation provisions devices there. */
  deviceAccounts?: DeviceAccountsPort;
}

const DEFAULT_WEB_DIST = fileURLToPath(new URL("../../web/dist", import.meta.url));

/**
 * Builds the Fastify app (not listening; docs/architecture.md "Server"): zod validation and serialisation, the edge
 * limits (body, URL and header rules answered in the envelope, http/edge.ts), form bodies for /connect/token, request
 * ids (echoed as `x-request-id`), the pino logger with secrets redacted, the one error handler, bearer authentication,
 * rate limiting (@fastify/rate-limit, per route), `Idempotency-Key` on creating and commanding calls
 * (http/idempotency.ts), the core plugin (core-services.ts: the shared infrastructure as decorations), the modules as
 * plugins (modules/index.ts, each with the REST routes of its area), security headers and caching
 * (http/security-headers.ts: CSP, frame-ancestors, nosniff, HSTS behind TLS, no-store by default), compression
 * (http/compression.ts: dynamic answers by @fastify/compress, the web app from the build's precompressed files), the
 * device activation calls `/iot/v1/activation/*` (docs/device-protocol.md §13.4), the interactive API reference
 * `/reference` (http/api-reference.ts) outside production, GET /openapi.json and /asyncapi.json, the probes GET /livez
 * and /readyz (http/health.ts), and the built web app
 * at "/" when apps/web/dist exists. The development-only routes (factory, bridge, /dev/outbox) are mounted by the
 * development launcher (apps/dev `registerDevelopmentRoutes`).
 *
 * The token checker for the realtime hubs is `app.auth.verifyAccessToken(token)`, there as soon as this returns. The
 * plugins load later, when the app becomes ready (`ready`, `listen`, `inject`, `await app.after()`): only then do the
 * modules' routes and the decorations of the core and the modules (`app.db`, `app.messages`, `app.familyDeviceLists`,
 * …) exist; plugins the caller registers load after the modules. The caller closes the app (`await app.close()`); the
 * database, bus and device link stay the caller's to close.
 */
export function buildApp(deps: AppDeps): FastifyInstance {
  const { config, db } = deps;
  const now = deps.now ?? (() => new Date());
  const root = deps.logger ?? createLogger(config);
  // Requests are logged by method, URL and address only (never headers or bodies); the URL's secret parameters are
  // redacted with every other secret when the line is written (createLogger).
  const logger = root.child(
    {},
    {
      serializers: {
        req: (req: { method: string; url: string; ip?: string }) => ({
          method: req.method,
          url: req.url,
          remoteAddress: req.ip,
        }),
      },
    },
  );

  const app = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: EDGE_LIMITS.paramLength },
    genReqId: () => randomUUID(),
    trustProxy: config.TRUST_PROXY,
    ...edgeServerOptions(),
  });
  app.setValidatorCompiler(zodValidatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.addHook("onSend", async (request, reply) => {
    reply.header("x-request-id", request.id);
  });
  app.register(formbody);
  registerErrorHandler(app);
  const webDist = deps.webDistDir ?? DEFAULT_WEB_DIST;
  const webIndex = path.join(webDist, "index.html");
  const webIndexHtml = fs.existsSync(webIndex) ? fs.readFileSync(webIndex, "utf8") : null;
  // The page's inline boot script runs under the CSP by its hash (inline, it costs no request); a rebuild that changes
  // apps/web/src/first-paint/boot.js needs a restart of the server that serves it.
  registerSecurityHeaders(app, config, webIndexHtml === null ? [] : inlineScriptHashes(webIndexHtml));
  // The native shells' origins only (their pages come from the web view's own origin), preflights answered before
  // authentication and rate limits.
  registerCors(app, config.CORS_ORIGINS);
  // Before any route: @fastify/compress attaches itself to the routes declared after it.
  registerCompression(app);
  registerEdgeRules(app);

  const cacheMs = config.AUTH_CACHE_MS;
  const auth = createAuthService({ db, dataDir: config.DATA_DIR, now, bus: deps.bus, log: app.log, cacheMs });
  registerAuthentication(app, auth);
  registerAccessChecks(app, db, { bus: deps.bus, cacheMs });
  // The API's OpenAPI 3.1 document, generated from the contract: GET /openapi.json, open.
  registerOpenApi(app, SERVER_VERSION);
  // The device link's AsyncAPI 3.0 document, generated from the contract's MQTT schemas: GET /asyncapi.json, open.
  registerAsyncApi(app, SERVER_VERSION);
  const limits = registerRateLimiting(app, { redisUrl: config.REDIS_URL });
  // GET /livez and /readyz (open, unlimited): the database required, the limits' Redis degrading when down.
  const redis = limits.redis;
  registerHealth(app, [
    databaseCheck(db),
    ...(redis ? [{ name: "redis", required: false, run: () => redis.probe() }] : []),
  ]);
  registerIdempotency(app, { db, now, fingerprintKey: loadOrCreateSecret(config.DATA_DIR, IDEMPOTENCY_KEY_FILE) });
  // The shared infrastructure as decorations of the app (config, db, bus, devices, codes, notifier, guards, now; auth
  // is decorated above): every module plugin depends on it.
  app.register(corePlugin, {
    config,
    db,
    bus: deps.bus,
    devices: deps.devices,
    now,
    mailer: deps.mailer,
    sms: deps.sms,
  });
  // Device activation (docs/device-protocol.md §13.4): device-facing, plain JSON, in production too.
  app.register(activationModule, { brokerUrl: deps.brokerUrl, accounts: deps.deviceAccounts });
  // Firmware downloads of `ota` commands (docs/device-protocol.md §3.7): device-facing, token-gated, in production too.
  app.register(firmwareModule);
  // The app API's modules, in the order and with the dependencies of modules/index.ts.
  for (const plugin of API_MODULES) app.register(plugin);
  if (config.APP_ENV !== "production") {
    // The interactive reference over /openapi.json (Scalar, served from the package), development only.
    app.register(registerApiReference);
  }

  if (webIndexHtml !== null) {
    app.register(fastifyStatic, {
      root: webDist,
      prefix: "/",
      // An array: with preCompressed, @fastify/static looks the index up only in an array (a string answers 404 on "/").
      index: ["index.html"],
      // The build's `.br` / `.gz` beside each file, chosen by Accept-Encoding; "/" gets index.html's.
      preCompressed: true,
      // Caching by file: hashed assets immutable, the rest revalidated (http/security-headers.ts).
      cacheControl: false,
      setHeaders: (res, file) => {
        const relative = path.relative(webDist, file);
        res.setHeader("cache-control", webAppCacheControl(relative));
        if (variesByEncoding(relative)) res.setHeader("vary", "accept-encoding");
      },
    });
  }
  return app;
}
