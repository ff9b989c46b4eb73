import { endpoints } from "@aquapilot/contract";
import type { FastifyInstance } from "fastify";
import { registerEndpoint } from "../../http/route.ts";
import type { AppContext } from "../context.ts";
import {
  bindRegistration,
  isPushOpen,
  type PushService,
  setPushOpen,
  subscribeWebPush,
  unbindRegistration,
  unsubscribeWebPush,
} from "./service.ts";

/**
 * Routes of the push module (spec §7): /api/push-service/app/jpush app-device-binding / app-device-unbinding,
 * /api/RunLuckyIot/appuser_setting/app/setting/is_open_jpush__message GET and POST (the push switch), and the Web Push
 * extension (public-key, subscribe, unsubscribe). Every call acts on the caller only; a registration or subscription
 * another user holds moves only with proof of the same installation (409 push.registrationTaken /
 * push.subscriptionTaken otherwise). `push` is the module's service buildApp built (the Web Push public key).
 */
export function pushRoutes(app: FastifyInstance, ctx: AppContext, push: PushService): void {
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
