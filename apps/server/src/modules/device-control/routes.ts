import { endpoints } from "@aquapilot/contract";
import type { FastifyInstance } from "fastify";
import { registerEndpoint } from "../../http/route.js";
import type { AppContext } from "../context.js";
import { queryDeviceInfo } from "./service.js";

/** Routes of spec §7 /api/run-lucky/device/app/device-control. */
export function deviceControlRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerEndpoint(app, endpoints.queryDeviceInfo, async ({ user, query }) =>
    queryDeviceInfo(ctx, user.id, query.deviceId),
  );
}
