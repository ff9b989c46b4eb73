import { endpoints } from "@aquapilot/contract";
import type { FastifyInstance } from "fastify";
import { registerOpenEndpoint } from "../../http/route.js";
import type { AppContext } from "../context.js";
import { registerUser, sendEmailRegisterCode, sendPhoneRegisterCode, userBindTypes } from "./service.js";

/** Routes of spec §7 /api/basic-data/app/account (registration codes, register, bind types). */
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
}
