import { endpoints } from "@aquapilot/contract";
import type { FastifyInstance } from "fastify";
import { registerEndpoint } from "../../http/route.ts";
import type { AppContext } from "../context.ts";
import { listFaults, reopenWater } from "./service.ts";

/**
 * Routes of the faults extension (/api/run-lucky/device/app/fault): the caller's fault list
 * (Device.View, members of the households only) and reopen-water (Device.Control; rules in service.ts).
 */
export function faultRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerEndpoint(app, endpoints.getFaultList, async ({ user, query }) => {
    return listFaults(ctx, user.id, query.deviceId);
  });
  registerEndpoint(app, endpoints.reopenWater, async ({ user, query, lang }) =>
    reopenWater(ctx, user, { deviceId: query.deviceId, commandId: query.commandId, lang }),
  );
}
