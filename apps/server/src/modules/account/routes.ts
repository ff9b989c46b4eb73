import { endpoints } from "@aquapilot/contract";
import type { FastifyInstance } from "fastify";
import { registerOpenEndpoint } from "../../http/route.js";
import type { AppContext } from "../context.js";
import { resetPassword, sendResetCodeByEmail, sendResetCodeByPhone } from "./reset-password.js";
import { registerUser, sendEmailRegisterCode, sendPhoneRegisterCode, userBindTypes } from "./service.js";

/** Routes of spec §7 /api/basic-data/app/account (registration codes, register, bind types, find password). */
export function accountRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerOpenEndpoint(app, endpoints.sendEmailPasswordCode, async ({ query, lang }) => {
    await sendEmailRegisterCode(ctx, query.email, lang);
    return null;
  });
  registerOpenEndpoint(app, endpoints.sendPhonePasswordCode, async ({ query, lang }) => {
    await sendPhoneRegisterCode(ctx, query.phoneNumber, query.countryCode, lang);
    return null;
  });
  registerOpenEndpoint(app, endpoints.register, async ({ query, lang }) =>
    registerUser(ctx, { ...query, language: lang }),
  );
  registerOpenEndpoint(app, endpoints.userBindTypeList, async () => userBindTypes());

  // Find password (spec §5): the send calls answer success for unknown accounts and send nothing.
  registerOpenEndpoint(app, endpoints.forgetPasswordSendEmailCode, async ({ query, lang }) => {
    await sendResetCodeByEmail(ctx, query.email, lang);
    return null;
  });
  registerOpenEndpoint(app, endpoints.forgetPasswordSendPhoneCode, async ({ query, lang }) => {
    await sendResetCodeByPhone(ctx, query.phoneNumber, query.countryCode, lang);
    return null;
  });
  registerOpenEndpoint(app, endpoints.resetPassword, async ({ query, lang }) => {
    await resetPassword(ctx, query, lang);
    return null;
  });
}
