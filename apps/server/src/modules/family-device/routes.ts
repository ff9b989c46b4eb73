import { endpoints } from "@aquapilot/contract";
import type { FastifyInstance } from "fastify";
import { registerEndpoint } from "../../http/route.js";
import type { AppContext } from "../context.js";
import { listFamilyDevices } from "./service.js";

/** Routes of spec §7 /api/run-lucky/device/app/family-device. */
export function familyDeviceRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerEndpoint(app, endpoints.getFamilyDevices, async ({ user, query }) =>
    listFamilyDevices(ctx.db, user.id, query.familyId),
  );
}
