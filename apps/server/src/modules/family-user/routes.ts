import { endpoints } from "@aquapilot/contract";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { loadOrCreateSecret } from "../../auth/secrets.ts";
import { CORE_PLUGIN, type CoreServices, coreServices } from "../../core-services.ts";
import { registerEndpoint } from "../../http/route.ts";
import type { MessageCenter } from "../message/index.ts";
import { listFamilyUsers, removeFamilyUser, transferAdministrator } from "./service.ts";
import { createShareCodes, SHARE_KEY_FILE } from "./share-codes.ts";

/**
 * Routes of spec §7 /api/run-lucky/device/app/family-user, plus the documented extensions `GET my-share-list` and
 * `DELETE revoke-share-code` (FamilyShareList). The share code key lives in DATA_DIR/family-share-key.
 * `analysis-code` (scan and join) is rate limited per client address, against guessing codes. `messages` delivers the
 * notice of a removed member at once.
 */
function familyUserRoutes(
  app: FastifyInstance,
  ctx: CoreServices,
  messages: Pick<MessageCenter, "publishPending">,
): void {
  const shares = createShareCodes({ ...ctx, secret: loadOrCreateSecret(ctx.config.DATA_DIR, SHARE_KEY_FILE) });

  registerEndpoint(app, endpoints.getFamilyUsers, async ({ query }) => listFamilyUsers(ctx, query.familyId));
  registerEndpoint(app, endpoints.removeFamilyUser, async ({ user, params }) => {
    await removeFamilyUser(ctx, user.id, params.id);
    // Deliver the removed member's notice now rather than at the message worker's next pass.
    await messages.publishPending();
    return null;
  });
  registerEndpoint(app, endpoints.transferAdministrator, async ({ user, query }) => {
    await transferAdministrator(ctx, user.id, query);
    return null;
  });
  registerEndpoint(app, endpoints.getShareCode, async ({ user, query }) =>
    shares.create(user.id, query.familyId, query.refresh ?? false),
  );
  // Scanning and joining by share code: limited per client address (security/limits.ts), before the code
  // is looked at; over the limit → 429 in the envelope with Retry-After.
  registerEndpoint(
    app,
    endpoints.analysisCode,
    async ({ user, query }) => shares.analyse(user.id, query.code, query.preview),
    { preHandler: (request) => ctx.guards.joinByCode(request) },
  );
  registerEndpoint(app, endpoints.getMyShares, async ({ user, query }) => shares.listMine(user.id, query));
  registerEndpoint(app, endpoints.revokeShareCode, async ({ user, query }) => {
    await shares.revoke(user.id, query.id);
    return null;
  });
}

/**
 * The family-user module as the plugin "module-family-user": {@link familyUserRoutes} on the core's decorations and
 * the message centre the message module decorates (`app.messages`), hence its dependency on "module-message".
 * Encapsulated: its hooks apply to its own routes only; it decorates nothing another module uses.
 */
export const familyUserModule = fp(async (app) => familyUserRoutes(app, coreServices(app), app.messages), {
  name: "module-family-user",
  fastify: "5.x",
  dependencies: [CORE_PLUGIN, "module-message"],
  encapsulate: true,
});
