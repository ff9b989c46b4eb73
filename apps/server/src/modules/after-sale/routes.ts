import { endpoints } from "@aquapilot/contract";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { CORE_PLUGIN, type CoreServices, coreServices } from "../../core-services.ts";
import { registerEndpoint } from "../../http/route.ts";
import { createAfterSale, deleteAfterSale, getAfterSale, listAfterSales, updateAfterSale } from "./service.ts";

/** Routes of spec §7 /api/run-lucky/device/app/post-sale: the caller's after-sales requests (rules in service.ts). */
function afterSaleRoutes(app: FastifyInstance, ctx: CoreServices): void {
  registerEndpoint(app, endpoints.createAfterSale, async ({ user, body }) => createAfterSale(ctx, user.id, body));
  registerEndpoint(app, endpoints.getAfterSaleList, async ({ user, query }) => listAfterSales(ctx.db, user.id, query));
  registerEndpoint(app, endpoints.getAfterSale, async ({ user, params }) => getAfterSale(ctx.db, user.id, params.id));
  registerEndpoint(app, endpoints.updateAfterSale, async ({ user, params, body }) =>
    updateAfterSale(ctx, user.id, params.id, body),
  );
  registerEndpoint(app, endpoints.deleteAfterSale, async ({ user, params }) => {
    await deleteAfterSale(ctx, user.id, params.id);
    return null;
  });
}

/**
 * The after-sale module as the plugin "module-after-sale": {@link afterSaleRoutes} on the core's decorations ({@link
 * coreServices}). Encapsulated: its hooks apply to its own routes only; it decorates nothing another module uses.
 */
export const afterSaleModule = fp(async (app) => afterSaleRoutes(app, coreServices(app)), {
  name: "module-after-sale",
  fastify: "5.x",
  dependencies: [CORE_PLUGIN],
  encapsulate: true,
});
