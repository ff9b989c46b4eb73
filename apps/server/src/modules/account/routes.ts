import { endpoints } from "@aquapilot/contract";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { CORE_PLUGIN, type CoreServices, coreServices } from "../../core-services.ts";
import { registerOpenEndpoint } from "../../http/route.ts";
import { resetPassword, sendResetCodeByEmail, sendResetCodeByPhone } from "./reset-password.ts";
import { registerUser, sendEmailRegisterCode, sendPhoneRegisterCode, userBindTypes } from "./service.ts";

/**
 * Routes of spec §7 /api/basic-data/app/account (registration codes, register, bind types, find password). Code
 * sending and registration are rate limited (security/limits.ts): 429 in the envelope with Retry-After.
 */
function accountRoutes(app: FastifyInstance, ctx: CoreServices): void {
  registerOpenEndpoint(app, endpoints.sendEmailPasswordCode, async ({ query, lang, request }) => {
    await sendEmailRegisterCode(ctx, request, query.email, lang);
    return null;
  });
  registerOpenEndpoint(app, endpoints.sendPhonePasswordCode, async ({ query, lang, request }) => {
    await sendPhoneRegisterCode(ctx, request, query.phoneNumber, query.countryCode, lang);
    return null;
  });
  registerOpenEndpoint(app, endpoints.register, async ({ query, lang, request }) => {
    await ctx.guards.register(request);
    return registerUser(ctx, { ...query, language: lang }, ctx.guards.codeRequester(request));
  });
  registerOpenEndpoint(app, endpoints.userBindTypeList, async () => userBindTypes());

  // Find password (spec §5): the send calls answer success for unknown accounts too (only the e-mail says so).
  registerOpenEndpoint(app, endpoints.forgetPasswordSendEmailCode, async ({ query, lang, request }) => {
    await sendResetCodeByEmail(ctx, request, query.email, lang);
    return null;
  });
  registerOpenEndpoint(app, endpoints.forgetPasswordSendPhoneCode, async ({ query, lang, request }) => {
    await sendResetCodeByPhone(ctx, request, query.phoneNumber, query.countryCode, lang);
    return null;
  });
  registerOpenEndpoint(app, endpoints.resetPassword, async ({ query, lang, request }) => {
    await resetPassword(ctx, request, query, lang);
    return null;
  });
}

/**
 * The account module as the plugin "module-account": {@link accountRoutes} on the core's decorations ({@link
 * coreServices}). Encapsulated: its hooks apply to its own routes only; it decorates nothing another module uses.
 */
export const accountModule = fp(async (app) => accountRoutes(app, coreServices(app)), {
  name: "module-account",
  fastify: "5.x",
  dependencies: [CORE_PLUGIN],
  encapsulate: true,
});
