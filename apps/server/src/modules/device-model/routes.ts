import { endpoints } from "@aquapilot/contract";
import type { FastifyInstance } from "fastify";
import { registerEndpoint } from "../../http/route.ts";
import type { AppContext } from "../context.ts";
import { deviceModelByMac, findDeviceModel } from "./service.ts";

/** Routes of spec §7 /api/run-lucky/device/app/device-model: product images (relative paths) by model or MAC. */
export function deviceModelRoutes(app: FastifyInstance, ctx: AppContext): void {
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
