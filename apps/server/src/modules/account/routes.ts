import { endpoints } from "@aquapilot/contract";
import type { FastifyInstance } from "fastify";
import { registerOpenEndpoint } from "../../http/route.ts";
import { requireGuards } from "../../security/limits.ts";
import type { AppContext } from "../context.ts";
import { resetPassword, sendResetCodeByEmail, sendResetCodeByPhone } from "./reset-password.ts";
import { registerUser, sendEmailRegisterCode, sendPhoneRegisterCode, userBindTypes } from "./service.ts";

/**
 * Routes of spec §7 /api/basic-data/app/account (registration codes, register, bind types, find password). Code
 * sending and registration are rate limited (security/limits.ts): 429 in the envelope with Retry-After.
 */
export function accountRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerOpenEndpoint(app, endpoints.sendEmailPasswordCode, async ({ query, lang, request }) => {
    await sendEmailRegisterCode(ctx, request, query.email, lang);
    return null;
  });
  registerOpenEndpoint(app, endpoints.sendPhonePasswordCode, async ({ query, lang, request }) => {
    await sendPhoneRegisterCode(ctx, request, query.phoneNumber, query.countryCode, lang);
    return null;
  });
  registerOpenEndpoint(app, endpoints.register, async ({ query, lang, request }) => {
    await requireGuards(ctx).register(request);
    return registerUser(ctx, { ...query, language: lang });
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
  registerOpenEndpoint(app, endpoints.resetPassword, async ({ query, lang }) => {
    await resetPassword(ctx, query, lang);
    return null;
  });
}
