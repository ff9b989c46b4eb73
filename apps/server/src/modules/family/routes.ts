import { endpoints } from "@aquapilot/contract";
import type { FastifyInstance } from "fastify";
import { registerEndpoint } from "../../http/route.js";
import type { AppContext } from "../context.js";
import { listFamilies } from "./service.js";

/** Routes of spec §7 /api/run-lucky/device/app/family. */
export function familyRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerEndpoint(app, endpoints.getFamilies, async ({ user, query }) => listFamilies(ctx.db, user.id, query));
}
