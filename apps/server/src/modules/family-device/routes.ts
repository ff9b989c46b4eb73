import { endpoints } from "@aquapilot/contract";
import type { FastifyInstance } from "fastify";
import { deviceGrant, registerEndpoint } from "../../http/route.ts";
import { callerTimeZone } from "../../http/time-zone.ts";
import type { AppContext } from "../context.ts";
import { getDeviceWithData } from "../devices/index.ts";
import { readFamilyDashboard } from "./dashboard.ts";
import { deleteFamilyDevice, listFamilyDevices, updateDeviceSort } from "./service.ts";

/**
 * Routes of spec §7 /api/run-lucky/device/app/family-device, and the Home dashboard (issue 10, extension:
 * `GET …/family-device/dashboard?familyId`, members only, "today" in the caller's X-Time-Zone).
 */
export function familyDeviceRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerEndpoint(app, endpoints.getFamilyDevices, async ({ query }) => listFamilyDevices(ctx.db, query.familyId));
  registerEndpoint(app, endpoints.getFamilyDashboard, async ({ query, request, lang }) =>
    readFamilyDashboard(ctx, query.familyId, callerTimeZone(request), lang),
  );
  registerEndpoint(app, endpoints.getDeviceDetail, async ({ query }) => {
    return getDeviceWithData(ctx.db, query.deviceId);
  });
  registerEndpoint(app, endpoints.updateDeviceSort, async ({ user, body }) =>
    updateDeviceSort(ctx.db, user.id, body.familyId, body.deviceIds),
  );
  registerEndpoint(app, endpoints.deleteDevice, async ({ grant }) => deleteFamilyDevice(ctx, deviceGrant(grant)));
}
