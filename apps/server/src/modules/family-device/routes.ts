import { endpoints } from "@aquapilot/contract";
import type { FastifyInstance } from "fastify";
import { deviceGrant, registerEndpoint, type SerializedAnswer, serializeAnswer } from "../../http/route.ts";
import { callerTimeZone } from "../../http/time-zone.ts";
import type { AppContext } from "../context.ts";
import { getDeviceWithData } from "../devices/index.ts";
import { readFamilyDashboard } from "./dashboard.ts";
import { createFamilyDeviceLists, type FamilyDeviceLists } from "./list-cache.ts";
import { deleteFamilyDevice, updateDeviceSort } from "./service.ts";

declare module "fastify" {
  interface FastifyInstance {
    /** Households' device lists, kept per process until a bus event changes them (list-cache.ts). */
    familyDeviceLists: FamilyDeviceLists<SerializedAnswer<typeof endpoints.getFamilyDevices>>;
  }
}

/**
 * Routes of spec §7 /api/run-lucky/device/app/family-device, and the Home dashboard (extension:
 * `GET …/family-device/dashboard?familyId`, members only, "today" in the caller's X-Time-Zone).
 */
export function familyDeviceRoutes(app: FastifyInstance, ctx: AppContext): void {
  const lists = createFamilyDeviceLists({
    db: ctx.db,
    bus: ctx.bus,
    ttlMs: ctx.config.AUTH_CACHE_MS,
    present: (list) => serializeAnswer(endpoints.getFamilyDevices, list),
  });
  app.decorate("familyDeviceLists", lists);
  app.addHook("onClose", async () => lists.close());
  // Each household's answer is kept per process, serialised, until a bus event changes it: most requests run no query.
  registerEndpoint(app, endpoints.getFamilyDevices, async ({ query }) => lists.read(query.familyId));
  registerEndpoint(app, endpoints.getFamilyDashboard, async ({ query, request, lang }) =>
    readFamilyDashboard(ctx, query.familyId, callerTimeZone(request), lang),
  );
  registerEndpoint(app, endpoints.getDeviceDetail, async ({ query }) => {
    return getDeviceWithData(ctx.db, query.deviceId);
  });
  registerEndpoint(app, endpoints.updateDeviceSort, async ({ user, body }) =>
    updateDeviceSort(ctx, user.id, body.familyId, body.deviceIds),
  );
  registerEndpoint(app, endpoints.deleteDevice, async ({ grant }) => deleteFamilyDevice(ctx, deviceGrant(grant)));
}
