import { endpoints, PERMISSIONS } from "@aquapilot/contract";
import type { FastifyInstance } from "fastify";
import { registerEndpoint } from "../../http/route.ts";
import { callerTimeZone } from "../../http/time-zone.ts";
import type { AppContext } from "../context.ts";
import { getDeviceWithData, requirePermission } from "../devices/index.ts";
import { readFamilyDashboard } from "./dashboard.ts";
import { deleteFamilyDevice, listFamilyDevices, updateDeviceSort } from "./service.ts";

/**
 * Routes of spec §7 /api/run-lucky/device/app/family-device, and the Home dashboard (issue 10, extension:
 * `GET …/family-device/dashboard?familyId`, members only, "today" in the caller's X-Time-Zone).
 */
export function familyDeviceRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerEndpoint(app, endpoints.getFamilyDevices, async ({ user, query }) =>
    listFamilyDevices(ctx.db, user.id, query.familyId),
  );
  registerEndpoint(app, endpoints.getFamilyDashboard, async ({ user, query, request, lang }) =>
    readFamilyDashboard(ctx, user.id, query.familyId, callerTimeZone(request), lang),
  );
  registerEndpoint(app, endpoints.getDeviceDetail, async ({ user, query }) => {
    requirePermission(user, PERMISSIONS.deviceView);
    return getDeviceWithData(ctx.db, user.id, query.deviceId);
  });
  registerEndpoint(app, endpoints.updateDeviceSort, async ({ user, body }) =>
    updateDeviceSort(ctx.db, user.id, body.familyId, body.deviceIds),
  );
  registerEndpoint(app, endpoints.deleteDevice, async ({ user, query }) =>
    deleteFamilyDevice(ctx, user.id, query.deviceId),
  );
}
