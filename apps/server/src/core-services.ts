import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import type { AuthService } from "./auth/auth-service.ts";
import { loadOrCreateSecret } from "./auth/secrets.ts";
import { CODE_KEY_FILE, type CodeService, createCodeService } from "./auth/verification-codes.ts";
import type { Bus } from "./bus.ts";
import type { AppConfig } from "./config.ts";
import type { Db } from "./db/index.ts";
import { createNotifier, type Mailer, type Notifier, type SmsSender } from "./notify/index.ts";
import type { DeviceCommandPort } from "./ports.ts";
import { createGuards, type Guards, scaleLimits } from "./security/limits.ts";

/** The name of the core plugin: every module plugin lists it in its `dependencies`. */
export const CORE_PLUGIN = "aquapilot-core";

/**
 * The server's shared infrastructure as the services receive it: every field set, each one a decoration of the app
 * ({@link coreServices} reads them). A service a module owns (the push service, the message centre) is not part of
 * it: the module decorates it, and the modules that use it declare a dependency on that module.
 */
export interface CoreServices {
  config: AppConfig;
  db: Db;
  bus: Bus;
  /** The device link's commands (src/iot); tests pass a recording stand-in. */
  devices: DeviceCommandPort;
  /** Token issuing and checking, decorated by the authentication layer (http/authenticate.ts). */
  auth: AuthService;
  codes: CodeService;
  notifier: Notifier;
  /** Rate limits and the sign-in lockout of the HTTP API (security/limits.ts). */
  guards: Guards;
  /** The clock; tests move it. */
  now: () => Date;
}

declare module "fastify" {
  interface FastifyInstance {
    /** The validated configuration (config.ts), decorated by the core plugin. */
    config: AppConfig;
    /** The database, decorated by the core plugin; the caller closes it after the app. */
    db: Db;
    /** The event bus (bus.ts), decorated by the core plugin. */
    bus: Bus;
    /** The device link's commands (ports.ts), decorated by the core plugin. */
    devices: DeviceCommandPort;
    /** Verification codes (auth/verification-codes.ts), decorated by the core plugin. */
    codes: CodeService;
    /** E-mail and SMS with the outbox (notify/), decorated by the core plugin. */
    notifier: Notifier;
    /** Rate limits and the sign-in lockout (security/limits.ts), decorated by the core plugin. */
    guards: Guards;
    /** The clock, decorated by the core plugin. */
    now: () => Date;
  }
}

/** What {@link corePlugin} is registered with: the parts the caller owns, and the message transports. */
export interface CoreOptions {
  config: AppConfig;
  db: Db;
  bus: Bus;
  devices: DeviceCommandPort;
  now: () => Date;
  /** Replaces the e-mail transport (by default SMTP_URL, else the log). */
  mailer?: Mailer;
  /** Replaces the SMS transport (by default the log). */
  sms?: SmsSender;
}

/**
 * The core plugin "aquapilot-core" (fastify-plugin, not encapsulated, so its decorations reach every module): decorates
 * the app with the shared infrastructure of {@link CoreServices} — the parts given in {@link CoreOptions}, the
 * verification codes (keyed by DATA_DIR/code-hmac-key), the notifier (the outbox, with bodies kept outside
 * production only), and the rate-limit guards at RATE_LIMIT_SCALE. `app.auth` is decorated before it by the
 * authentication layer (http/authenticate.ts `registerAuthentication`), which the realtime hubs read as soon as
 * `buildApp` returns, before any plugin has loaded; the plugin declares that decoration as required.
 * @throws at load (the app's `ready`) when `app.auth` is missing, or the code key cannot be read or created.
 */
export const corePlugin = fp<CoreOptions>(
  async (app, opts) => {
    const { config, db, now } = opts;
    app.decorate("config", config);
    app.decorate("db", db);
    app.decorate("bus", opts.bus);
    app.decorate("devices", opts.devices);
    app.decorate("now", now);
    app.decorate("guards", createGuards(app, scaleLimits(config.RATE_LIMIT_SCALE)));
    app.decorate("codes", createCodeService({ db, secret: loadOrCreateSecret(config.DATA_DIR, CODE_KEY_FILE), now }));
    app.decorate(
      "notifier",
      createNotifier({
        db,
        logger: app.log,
        smtpUrl: config.SMTP_URL,
        mailer: opts.mailer,
        sms: opts.sms,
        now,
        production: config.APP_ENV === "production",
      }),
    );
  },
  { name: CORE_PLUGIN, fastify: "5.x", decorators: { fastify: ["auth"] } },
);

/**
 * The shared infrastructure read from `app`'s decorations, as one typed object for the services of a module. Call it
 * inside a module plugin, which lists {@link CORE_PLUGIN} in its dependencies, so every decoration is there.
 */
export function coreServices(app: FastifyInstance): CoreServices {
  return {
    config: app.config,
    db: app.db,
    bus: app.bus,
    devices: app.devices,
    auth: app.auth,
    codes: app.codes,
    notifier: app.notifier,
    guards: app.guards,
    now: app.now,
  };
}
