import { endpoints } from "@aquapilot/contract";
import type { FastifyInstance } from "fastify";
import { registerEndpoint } from "../../http/route.ts";
import type { AppContext } from "../context.ts";
import { createAfterSale, deleteAfterSale, getAfterSale, listAfterSales, updateAfterSale } from "./service.ts";

/** Routes of spec §7 /api/run-lucky/device/app/post-sale: the caller's after-sales requests (rules in service.ts). */
export function afterSaleRoutes(app: FastifyInstance, ctx: AppContext): void {
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
