import { createHash, timingSafeEqual } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { endpoints } from "@aquapilot/contract";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { loadOrCreateSecret } from "../../auth/secrets.ts";
import type { AppConfig } from "../../config.ts";
import { CORE_PLUGIN, type CoreServices, coreServices } from "../../core-services.ts";
import { AppError, ErrorCode } from "../../http/errors.ts";
import { clientAddressKey, createCounter, createLimiter, retryAfterSeconds } from "../../http/rate-limit.ts";
import { deviceGrant, registerEndpoint, registerOpenEndpoint } from "../../http/route.ts";
import { modelSetting } from "../device-model/index.ts";
import { bindDevice, getDeviceWithData, listMyDevices, recordConfigChange, updateDevice } from "./service.ts";

/**
 * Rate limits of the binding call (docs/device-protocol.md §13.7), requests per minute: per signed-in user and per
 * client address. Over either → 429 TooManyRequests (ABP envelope) with `retry-after` seconds; the request is not
 * looked at further.
 */
export const BIND_LIMITS = { perUser: 10, perAddress: 30, windowMs: 60_000 } as const;

/**
 * Wrong external-callback secrets a client address may send per window before the call answers 429 to that address
 * (the right secret included) until the window ends. Only wrong secrets count, per address: the integration's own
 * server, calling with the right secret from its address, is never refused because someone else guesses.
 */
export const CALLBACK_SECRET_LIMITS = { wrongPerAddress: 10, windowMs: 15 * 60_000 } as const;

/** File in DATA_DIR holding the generated external-callback secret when EXTERNAL_CALLBACK_SECRET is unset. */
export const EXTERNAL_CALLBACK_SECRET_FILE = "external-callback.secret";
/** Header that carries the shared secret of integration calls. */
export const EXTERNAL_CALLBACK_HEADER = "x-external-callback-secret";

/**
 * The shared secret of the external-callback integration calls: EXTERNAL_CALLBACK_SECRET, or the text of
 * DATA_DIR/external-callback.secret (generated once, mode 0600).
 */
export function externalCallbackSecret(config: Pick<AppConfig, "DATA_DIR" | "EXTERNAL_CALLBACK_SECRET">): string {
  if (config.EXTERNAL_CALLBACK_SECRET) return config.EXTERNAL_CALLBACK_SECRET;
  loadOrCreateSecret(config.DATA_DIR, EXTERNAL_CALLBACK_SECRET_FILE);
  return fs.readFileSync(path.join(config.DATA_DIR, EXTERNAL_CALLBACK_SECRET_FILE), "utf8").trim();
}

function sameSecret(given: unknown, expected: string): boolean {
  if (typeof given !== "string" || given.length === 0) return false;
  const a = createHash("sha256").update(given).digest();
  const b = createHash("sha256").update(expected).digest();
  return timingSafeEqual(a, b);
}

/**
 * Routes of spec §7 /api/run-lucky/device/app/device (bind, rate limited by {@link BIND_LIMITS}; get-device-with--data,
 * update-device-name, update-device-image), device-lookup (get-device-list, get-device-model-setting) and
 * /api/run-lucky/Iot/app/external-callback/send-device-config-change-message (integration call authenticated by the
 * header x-external-callback-secret, not by a user token).
 */
function deviceRoutes(app: FastifyInstance, ctx: CoreServices): void {
  const callbackSecret = externalCallbackSecret(ctx.config);

  // Binding checks a secret (argon2) or a pairing code from activation: limited per user and per client address.
  const bindByUser = createLimiter(app, {
    name: "bind-user",
    max: BIND_LIMITS.perUser,
    windowMs: BIND_LIMITS.windowMs,
    key: (request) => (request.user ? request.user.id : null),
  });
  const bindByAddress = createLimiter(app, {
    name: "bind-address",
    max: BIND_LIMITS.perAddress,
    windowMs: BIND_LIMITS.windowMs,
    key: clientAddressKey,
  });
  registerEndpoint(app, endpoints.bindDevice, async ({ user, body }) => bindDevice(ctx, user.id, body), {
    preHandler: async (request, reply) => {
      for (const limiter of [bindByUser, bindByAddress]) {
        const outcome = await limiter(request);
        if (outcome.limited) {
          reply.header("retry-after", String(outcome.retryAfterSeconds));
          throw new AppError(ErrorCode.TooManyRequests, "error.tooManyRequests");
        }
      }
    },
  });
  registerEndpoint(app, endpoints.getDeviceWithData, async ({ query, lang }) => {
    return getDeviceWithData(ctx.db, query.deviceId, lang);
  });
  registerEndpoint(app, endpoints.updateDeviceName, async ({ user, query, grant }) =>
    updateDevice(ctx, user.id, deviceGrant(grant), { name: query.name }),
  );
  registerEndpoint(app, endpoints.updateDeviceImage, async ({ user, query, grant }) =>
    updateDevice(ctx, user.id, deviceGrant(grant), { image: query.image }),
  );

  registerEndpoint(app, endpoints.getDeviceList, async ({ user, query }) => listMyDevices(ctx.db, user.id, query));
  registerEndpoint(app, endpoints.getDeviceModelSetting, async ({ query }) => {
    if (query.deviceId) {
      const device = await ctx.db
        .selectFrom("devices")
        .select("model")
        .where("id", "=", query.deviceId)
        .executeTakeFirstOrThrow();
      return modelSetting(device.model);
    }
    if (!query.deviceModel) {
      throw new AppError(ErrorCode.Validation, "device.modelRequired", {}, [
        { message: "device.modelRequired", members: ["deviceModel"] },
      ]);
    }
    return modelSetting(query.deviceModel);
  });

  // The secret is checked before validation, so a caller without it learns nothing about the body; an address that
  // sent CALLBACK_SECRET_LIMITS.wrongPerAddress wrong secrets is refused before its secret is looked at.
  const callbackPath = endpoints.sendDeviceConfigChangeMessage.path;
  const wrongCallbackSecrets = createCounter(app, {
    name: "callback-secret-wrong",
    windowMs: CALLBACK_SECRET_LIMITS.windowMs,
  });
  app.addHook("onRequest", async (request, reply) => {
    if (request.routeOptions.url !== callbackPath) return;
    const address = clientAddressKey(request);
    const wrong = await wrongCallbackSecrets.peek(request, address);
    if (wrong.count >= CALLBACK_SECRET_LIMITS.wrongPerAddress) {
      reply.header("retry-after", String(retryAfterSeconds(wrong.ttlMs)));
      throw new AppError(ErrorCode.TooManyRequests, "error.tooManyRequests");
    }
    if (!sameSecret(request.headers[EXTERNAL_CALLBACK_HEADER], callbackSecret)) {
      await wrongCallbackSecrets.hit(request, address);
      throw new AppError(ErrorCode.Unauthorized, "device.callbackSecret");
    }
  });
  registerOpenEndpoint(app, endpoints.sendDeviceConfigChangeMessage, async ({ body }) => recordConfigChange(ctx, body));
}

/**
 * The devices module as the plugin "module-devices": {@link deviceRoutes} on the core's decorations ({@link
 * coreServices}). Encapsulated: its hooks apply to its own routes only; it decorates nothing another module uses.
 */
export const devicesModule = fp(async (app) => deviceRoutes(app, coreServices(app)), {
  name: "module-devices",
  fastify: "5.x",
  dependencies: [CORE_PLUGIN],
  encapsulate: true,
});
