import { endpoints, PERMISSIONS } from "@aquapilot/contract";
import type { FastifyInstance } from "fastify";
import { registerEndpoint } from "../../http/route.js";
import type { AppContext } from "../context.js";
import { getDeviceWithData, requirePermission } from "../devices/service.js";
import { deleteFamilyDevice, listFamilyDevices, updateDeviceSort } from "./service.js";

/** Routes of spec §7 /api/run-lucky/device/app/family-device. */
export function familyDeviceRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerEndpoint(app, endpoints.getFamilyDevices, async ({ user, query }) =>
    listFamilyDevices(ctx.db, user.id, query.familyId),
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
