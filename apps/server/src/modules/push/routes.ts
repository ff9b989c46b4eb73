import { endpoints } from "@aquapilot/contract";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { CORE_PLUGIN, type CoreServices, coreServices } from "../../core-services.ts";
import { registerEndpoint } from "../../http/route.ts";
import {
  bindRegistration,
  createPushService,
  isPushOpen,
  type PushService,
  setPushOpen,
  subscribeWebPush,
  unbindRegistration,
  unsubscribeWebPush,
} from "./service.ts";

declare module "fastify" {
  interface FastifyInstance {
    /** The push service (bindings, JPush and Web Push delivery), decorated by the push module; the message centre pushes through it. */
    push: PushService;
  }
}

/**
 * Routes of the push module (spec §7): /api/push-service/app/jpush app-device-binding / app-device-unbinding,
 * /api/RunLuckyIot/appuser_setting/app/setting/is_open_jpush__message GET and POST (the push switch), and the Web Push
 * extension (public-key, subscribe, unsubscribe). Every call acts on the caller only; a registration or subscription
 * another user holds moves only with proof of the same installation (409 push.registrationTaken /
 * push.subscriptionTaken otherwise). `push` is the module's service (the Web Push public key).
 */
function pushRoutes(app: FastifyInstance, ctx: CoreServices, push: PushService): void {
  registerEndpoint(app, endpoints.appDeviceBinding, async ({ user, query }) => {
    await bindRegistration(ctx.db, user.id, query.registrationId, query.platform, ctx.now(), query.installationId);
    return null;
  });
  registerEndpoint(app, endpoints.appDeviceUnbinding, async ({ user, query }) => {
    await unbindRegistration(ctx.db, user.id, query.registrationId);
    return null;
  });
  registerEndpoint(app, endpoints.getPushSwitch, async ({ user }) => isPushOpen(ctx.db, user.id));
  registerEndpoint(app, endpoints.setPushSwitch, async ({ user, query }) =>
    setPushOpen(ctx.db, user.id, query.isOpen, ctx.now()),
  );
  registerEndpoint(app, endpoints.getWebPushPublicKey, async () => ({ publicKey: push.webPushPublicKey }));
  registerEndpoint(app, endpoints.webPushSubscribe, async ({ user, body }) => {
    await subscribeWebPush(ctx.db, user.id, body, ctx.now());
    return null;
  });
  registerEndpoint(app, endpoints.webPushUnsubscribe, async ({ user, body }) => {
    await unsubscribeWebPush(ctx.db, user.id, body.endpoint);
    return null;
  });
}

/**
 * The push module as the plugin "module-push": builds the push service ({@link createPushService}) on the core's
 * decorations and decorates `app.push` with it, for the message module. The plugin itself is not encapsulated, so that
 * decoration reaches the modules registered after it; its routes ({@link pushRoutes}) and their hooks are registered in
 * an encapsulated child.
 */
export const pushModule = fp(
  async (app) => {
    const ctx = coreServices(app);
    const push = createPushService({ db: ctx.db, config: ctx.config, logger: app.log, now: ctx.now });
    app.decorate("push", push);
    await app.register(async (scope) => pushRoutes(scope, ctx, push));
  },
  { name: "module-push", fastify: "5.x", dependencies: [CORE_PLUGIN] },
);
