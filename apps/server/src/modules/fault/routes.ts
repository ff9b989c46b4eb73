import { endpoints } from "@aquapilot/contract";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { CORE_PLUGIN, type CoreServices, coreServices } from "../../core-services.ts";
import { registerEndpoint } from "../../http/route.ts";
import { listFaults, reopenWater } from "./service.ts";

/**
 * Routes of the faults extension (/api/run-lucky/device/app/fault): the caller's fault list
 * (Device.View, members of the households only) and reopen-water (Device.Control; rules in service.ts).
 */
function faultRoutes(app: FastifyInstance, ctx: CoreServices): void {
  registerEndpoint(app, endpoints.getFaultList, async ({ user, query }) => {
    return listFaults(ctx, user.id, query.deviceId);
  });
  registerEndpoint(app, endpoints.reopenWater, async ({ user, query, lang }) =>
    reopenWater(ctx, user, { deviceId: query.deviceId, commandId: query.commandId, lang }),
  );
}

/**
 * The fault module as the plugin "module-fault": {@link faultRoutes} on the core's decorations ({@link coreServices}).
 * Encapsulated: its hooks apply to its own routes only; it decorates nothing another module uses.
 */
export const faultModule = fp(async (app) => faultRoutes(app, coreServices(app)), {
  name: "module-fault",
  fastify: "5.x",
  dependencies: [CORE_PLUGIN],
  encapsulate: true,
});
