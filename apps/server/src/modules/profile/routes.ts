import { endpoints } from "@aquapilot/contract";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { createTicketService } from "../../auth/tickets.ts";
import { CORE_PLUGIN, type CoreServices, coreServices } from "../../core-services.ts";
import { registerEndpoint } from "../../http/route.ts";
import { avatarRoutes } from "./avatar.ts";
import { deleteAccount } from "./delete-account.ts";
import { preferenceRoutes } from "./preferences.ts";
import {
  changeLanguage,
  changePassword,
  getProfile,
  issueIdentityTicket,
  sendIdentityCode,
  updateIdentity,
  updateProfile,
} from "./service.ts";

/**
 * Routes of spec §7 /api/basic-data/app/profile: profile read and update, avatar upload (and `/uploads/…`),
 * change_password, change_language-type, the phone/e-mail change (ticket, code, update) and log-off (deletion); and
 * the caller's display units (appuser_setting/units, ./preferences.ts).
 */
function profileRoutes(app: FastifyInstance, ctx: CoreServices): void {
  const tickets = createTicketService({ dataDir: ctx.config.DATA_DIR, now: ctx.now });

  registerEndpoint(app, endpoints.getProfile, async ({ user }) => getProfile(ctx.db, user.id));
  registerEndpoint(app, endpoints.updateProfile, async ({ user, body }) => updateProfile(ctx, user.id, body));
  registerEndpoint(app, endpoints.changePassword, async ({ user, body, lang }) => {
    await changePassword(ctx, user.id, body, lang);
    return null;
  });
  registerEndpoint(app, endpoints.changeLanguageType, async ({ user, body }) => {
    await changeLanguage(ctx, user.id, body.languageType);
    return null;
  });
  registerEndpoint(app, endpoints.updatePhoneOrEmailVerification, async ({ user, query, lang }) =>
    issueIdentityTicket(ctx, tickets, user.id, query.password, lang),
  );
  registerEndpoint(app, endpoints.sendUserIdentityVerification, async ({ user, query, lang, request }) =>
    sendIdentityCode(ctx, tickets, user.id, query, lang, request),
  );
  registerEndpoint(app, endpoints.updateEmail, async ({ user, query, lang }) =>
    updateIdentity(ctx, tickets, user.id, query, lang),
  );
  registerEndpoint(app, endpoints.updatePhone, async ({ user, query, lang }) =>
    updateIdentity(ctx, tickets, user.id, query, lang),
  );
  registerEndpoint(app, endpoints.logOff, async ({ user, query }) => {
    await deleteAccount(ctx, user.id, query.code);
    return null;
  });
  avatarRoutes(app, ctx);
  preferenceRoutes(app, ctx);
}

/**
 * The profile module as the plugin "module-profile": {@link profileRoutes} on the core's decorations ({@link
 * coreServices}). Encapsulated: its hooks apply to its own routes only; it decorates nothing another module uses.
 */
export const profileModule = fp(async (app) => profileRoutes(app, coreServices(app)), {
  name: "module-profile",
  fastify: "5.x",
  dependencies: [CORE_PLUGIN],
  encapsulate: true,
});
