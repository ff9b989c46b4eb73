import {
  ACTIVATION_PATHS,
  normaliseMac,
  ZActivationBegin,
  ZActivationBeginResult,
  ZActivationComplete,
  ZActivationCompleteResult,
} from "@aquapilot/contract";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import type { z } from "zod";
import { loadOrCreateSecret } from "../../auth/secrets.ts";
import { CORE_PLUGIN } from "../../core-services.ts";
import { clientAddressKey, createLimiter, type Limiter } from "../../http/rate-limit.ts";
import type { DeviceAccountsPort } from "../../ports.ts";
import { ACTIVATION_KEY_FILE } from "./nonce.ts";
import {
  type ActivationDeps,
  ActivationFailure,
  beginActivation,
  completeActivation,
  deviceBrokerUrl,
} from "./service.ts";

/**
 * Rate limits of the activation calls (docs/device-protocol.md §13.4, §13.7), requests per minute. Per MAC they bound
 * what one device (or someone trying its MAC) may ask; per client address they bound a scanner trying many MACs.
 * A module makes one begin and one complete per attempt, and retries at most every few seconds.
 */
export const ACTIVATION_LIMITS = {
  beginPerMac: 20,
  beginPerAddress: 60,
  completePerMac: 10,
  completePerAddress: 30,
  windowMs: 60_000,
} as const;

/** Largest accepted body of an activation call, bytes (the schemas allow well under 1 KiB). */
const BODY_LIMIT = 8 * 1024;

function macKey(request: FastifyRequest): string | null {
  const mac = normaliseMac(String((request.body as { mac?: unknown } | null)?.mac ?? ""));
  return mac.length === 12 ? mac : null;
}

async function enforce(limiter: Limiter, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const outcome = await limiter(request);
  if (outcome.limited) {
    reply.header("retry-after", String(outcome.retryAfterSeconds));
    throw new ActivationFailure("rate-limited");
  }
}

function parse<T extends z.ZodType>(schema: T, body: unknown): z.output<T> {
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new ActivationFailure("invalid-request");
  return parsed.data;
}

/**
 * Device-facing activation routes (docs/device-protocol.md §13.4; packages/contract/src/activation.ts), plain JSON,
 * not the app's ABP envelope: `POST /iot/v1/activation/begin` and `POST /iot/v1/activation/complete`. Each request
 * is first refused with 403 `https-required` in production unless it came over HTTPS (the trusted proxy's
 * X-Forwarded-Proto), then counted per client address, then its body is validated (400 `invalid-request`), then
 * counted per MAC ({@link ACTIVATION_LIMITS}; 429 `rate-limited` with `retry-after` seconds), then handed to the
 * service. Errors are
 * `{error}` with 400/401/403/404/409/429 (a body Fastify cannot read — bad JSON, wrong content type, too large — is 400
 * `invalid-request`); anything unexpected is 500 `{error: "internal"}`, logged without the body.
 *
 * Needs the app's rate-limit plugin (http/rate-limit.ts `registerRateLimiting`). Bodies are never logged (the
 * request serializer logs method, URL and address only), so secrets, nonces and tokens stay out of the logs.
 */
function activationRoutes(app: FastifyInstance, deps: ActivationDeps): void {
  // Production: the device's secret and the pairing code travel over HTTPS only. Behind the reverse proxy that
  // terminates TLS, `protocol` is its X-Forwarded-Proto when TRUST_PROXY trusts it (docs/deploy.md).
  const httpsOnly = app.config.APP_ENV === "production";
  const requireHttps = (request: FastifyRequest) => {
    if (httpsOnly && request.protocol !== "https") throw new ActivationFailure("https-required");
  };
  const address = clientAddressKey;
  const minute = ACTIVATION_LIMITS.windowMs;
  const limits = {
    beginByAddress: createLimiter(app, {
      name: "activation-begin-address",
      max: ACTIVATION_LIMITS.beginPerAddress,
      windowMs: minute,
      key: address,
    }),
    beginByMac: createLimiter(app, {
      name: "activation-begin-mac",
      max: ACTIVATION_LIMITS.beginPerMac,
      windowMs: minute,
      key: macKey,
    }),
    completeByAddress: createLimiter(app, {
      name: "activation-complete-address",
      max: ACTIVATION_LIMITS.completePerAddress,
      windowMs: minute,
      key: address,
    }),
    completeByMac: createLimiter(app, {
      name: "activation-complete-mac",
      max: ACTIVATION_LIMITS.completePerMac,
      windowMs: minute,
      key: macKey,
    }),
  };

  app.setErrorHandler((err: FastifyError | Error, request, reply) => {
    if (err instanceof ActivationFailure) return reply.code(err.status).send({ error: err.error });
    const status = (err as FastifyError).statusCode;
    if (typeof status === "number" && status >= 400 && status < 500) {
      return reply.code(400).send({ error: "invalid-request" });
    }
    request.log.error({ err, reqId: request.id }, "activation failed");
    return reply.code(500).send({ error: "internal" });
  });

  app.post(
    ACTIVATION_PATHS.begin,
    { bodyLimit: BODY_LIMIT, schema: { response: { 200: ZActivationBeginResult } } },
    async (request, reply) => {
      requireHttps(request);
      await enforce(limits.beginByAddress, request, reply);
      const body = parse(ZActivationBegin, request.body);
      await enforce(limits.beginByMac, request, reply);
      return beginActivation(deps, body);
    },
  );

  app.post(
    ACTIVATION_PATHS.complete,
    { bodyLimit: BODY_LIMIT, schema: { response: { 200: ZActivationCompleteResult } } },
    async (request, reply) => {
      requireHttps(request);
      await enforce(limits.completeByAddress, request, reply);
      const body = parse(ZActivationComplete, request.body);
      await enforce(limits.completeByMac, request, reply);
      return completeActivation(deps, body);
    },
  );
}

/** What {@link activationModule} is registered with: the device link's parts that activation tells about or provisions. */
export interface ActivationOptions {
  /**
   * Where devices reach the broker (the device link's `brokerUrl`), told by step one unless MQTT_PUBLIC_URL is set;
   * absent, derived from the configuration ({@link deviceBrokerUrl}).
   */
  brokerUrl?: string;
  /** The broker's device accounts (the device link's `accounts`); absent, step two provisions nothing. */
  accounts?: DeviceAccountsPort;
}

/**
 * Device activation as the plugin "module-activation": {@link activationRoutes} on the core's database and clock, the
 * nonce key DATA_DIR/activation.secret and the options' broker. Encapsulated: its error handler (plain JSON `{error}`,
 * not the app's envelope) and hooks apply to its own routes only. buildApp registers it before the app API's modules,
 * with the options, as it is device-facing and takes what the device link gives.
 * @throws at load when the nonce key cannot be read or created.
 */
export const activationModule = fp<ActivationOptions>(
  async (app, opts) =>
    activationRoutes(app, {
      db: app.db,
      now: app.now,
      nonceKey: loadOrCreateSecret(app.config.DATA_DIR, ACTIVATION_KEY_FILE),
      mqttUrl: deviceBrokerUrl(app.config, opts.brokerUrl),
      accounts: opts.accounts,
    }),
  { name: "module-activation", fastify: "5.x", dependencies: [CORE_PLUGIN], encapsulate: true },
);
