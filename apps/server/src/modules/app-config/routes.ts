import { endpoints } from "@aquapilot/contract";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { CORE_PLUGIN, type CoreServices, coreServices } from "../../core-services.ts";
import { registerOpenEndpoint } from "../../http/route.ts";
import { appConfigSetting } from "./service.ts";

/** Route of spec §7 `GET /api/business-basic-data/app/app-config-setting/` (open; answered with no-store, like every API answer: http/security-headers.ts). */
function appConfigRoutes(app: FastifyInstance, ctx: CoreServices): void {
  const setting = appConfigSetting(ctx.config);
  // Version checks must see a new deployment at once: never cached (no-store from the security headers).
  registerOpenEndpoint(app, endpoints.appConfigSetting, async () => setting);
}

/**
 * The app-config module as the plugin "module-app-config": {@link appConfigRoutes} on the core's decorations ({@link
 * coreServices}). Encapsulated: its hooks apply to its own routes only; it decorates nothing another module uses.
 */
export const appConfigModule = fp(async (app) => appConfigRoutes(app, coreServices(app)), {
  name: "module-app-config",
  fastify: "5.x",
  dependencies: [CORE_PLUGIN],
  encapsulate: true,
});
