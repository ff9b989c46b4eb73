import { endpoints } from "@aquapilot/contract";
import type { FastifyInstance } from "fastify";
import { registerOpenEndpoint } from "../../http/route.js";
import type { AppContext } from "../context.js";
import { appConfigSetting } from "./service.js";

/** Route of spec §7 `GET /api/business-basic-data/app/app-config-setting/` (open; answered with no-cache). */
export function appConfigRoutes(app: FastifyInstance, ctx: AppContext): void {
  const setting = appConfigSetting(ctx.config);
  registerOpenEndpoint(app, endpoints.appConfigSetting, async ({ reply }) => {
    // Version checks must see a new deployment at once.
    reply.header("cache-control", "no-cache");
    return setting;
  });
}
