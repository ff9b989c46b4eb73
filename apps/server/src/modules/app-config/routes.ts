import { endpoints } from "@aquapilot/contract";
import type { FastifyInstance } from "fastify";
import { registerOpenEndpoint } from "../../http/route.ts";
import type { AppContext } from "../context.ts";
import { appConfigSetting } from "./service.ts";

/** Route of spec §7 `GET /api/business-basic-data/app/app-config-setting/` (open; answered with no-store, like every API answer: http/security-headers.ts). */
export function appConfigRoutes(app: FastifyInstance, ctx: AppContext): void {
  const setting = appConfigSetting(ctx.config);
  // Version checks must see a new deployment at once: never cached (no-store from the security headers).
  registerOpenEndpoint(app, endpoints.appConfigSetting, async () => setting);
}
