import { endpoints } from "@aquapilot/contract";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { CORE_PLUGIN, type CoreServices, coreServices } from "../../core-services.ts";
import { registerEndpoint } from "../../http/route.ts";
import { deviceModelByMac, findDeviceModel } from "./service.ts";

/** Routes of spec §7 /api/run-lucky/device/app/device-model: product images (relative paths) by model or MAC. */
function deviceModelRoutes(app: FastifyInstance, ctx: CoreServices): void {
  registerEndpoint(
    app,
    endpoints.getImagesByDeviceModel,
    async ({ query }) => (await findDeviceModel(ctx.db, query.deviceModel))?.images ?? [],
  );
  registerEndpoint(
    app,
    endpoints.getMainImageByDeviceModel,
    async ({ query }) => (await findDeviceModel(ctx.db, query.deviceModel))?.mainImage ?? null,
  );
  registerEndpoint(
    app,
    endpoints.getImagesByDeviceMac,
    async ({ query }) => (await deviceModelByMac(ctx.db, query.mac))?.images ?? [],
  );
  registerEndpoint(
    app,
    endpoints.getMainImageByDeviceMac,
    async ({ query }) => (await deviceModelByMac(ctx.db, query.mac))?.mainImage ?? null,
  );
}

/**
 * The device-model module as the plugin "module-device-model": {@link deviceModelRoutes} on the core's decorations
 * ({@link coreServices}). Encapsulated: its hooks apply to its own routes only; it decorates nothing another module
 * uses.
 */
export const deviceModelModule = fp(async (app) => deviceModelRoutes(app, coreServices(app)), {
  name: "module-device-model",
  fastify: "5.x",
  dependencies: [CORE_PLUGIN],
  encapsulate: true,
});
