import { endpoints } from "@aquapilot/contract";
import type { FastifyInstance } from "fastify";
import { registerEndpoint } from "../../http/route.js";
import type { AppContext } from "../context.js";
import { getProfile } from "./service.js";

/** Routes of spec §7 /api/basic-data/app/profile. */
export function profileRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerEndpoint(app, endpoints.getProfile, async ({ user }) => getProfile(ctx.db, user.id));
}
