import { endpoints } from "@aquapilot/contract";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { CORE_PLUGIN, type CoreServices, coreServices } from "../../core-services.ts";
import { deviceGrant, registerEndpoint, type SerializedAnswer, serializeAnswer } from "../../http/route.ts";
import { callerTimeZone } from "../../http/time-zone.ts";
import { getDeviceWithData } from "../devices/index.ts";
import { readFamilyDashboard } from "./dashboard.ts";
import { createFamilyDeviceLists, type FamilyDeviceLists } from "./list-cache.ts";
import { deleteFamilyDevice, updateDeviceSort } from "./service.ts";

declare module "fastify" {
  interface FastifyInstance {
    /**
     * Households' device lists, kept per process until a bus event changes them (list-cache.ts); decorated by the
     * family-device module, cleared by system.ts after a gap in the bus.
     */
    familyDeviceLists: FamilyDeviceLists<SerializedAnswer<typeof endpoints.getFamilyDevices>>;
  }
}

/**
 * Routes of spec §7 /api/run-lucky/device/app/family-device, and the Home dashboard (extension:
 * `GET …/family-device/dashboard?familyId`, members only, "today" in the caller's X-Time-Zone). `lists` is the
 * module's cache of the households' device lists.
 */
function familyDeviceRoutes(
  app: FastifyInstance,
  ctx: CoreServices,
  lists: FamilyDeviceLists<SerializedAnswer<typeof endpoints.getFamilyDevices>>,
): void {
  // Each household's answer is kept per process, serialised, until a bus event changes it: most requests run no query.
  registerEndpoint(app, endpoints.getFamilyDevices, async ({ query }) => lists.read(query.familyId));
  registerEndpoint(app, endpoints.getFamilyDashboard, async ({ query, request, lang }) =>
    readFamilyDashboard(ctx, query.familyId, callerTimeZone(request), lang),
  );
  registerEndpoint(app, endpoints.getDeviceDetail, async ({ query, lang }) => {
    return getDeviceWithData(ctx.db, query.deviceId, lang);
  });
  registerEndpoint(app, endpoints.updateDeviceSort, async ({ user, body }) =>
    updateDeviceSort(ctx, user.id, body.familyId, body.deviceIds),
  );
  registerEndpoint(app, endpoints.deleteDevice, async ({ grant }) => deleteFamilyDevice(ctx, deviceGrant(grant)));
}

/**
 * The family-device module as the plugin "module-family-device": builds the households' device-list cache on the
 * core's decorations, decorates `app.familyDeviceLists` with it (system.ts clears it after a gap in the bus) and stops
 * it at close. The plugin itself is not encapsulated, so that decoration reaches the app; its routes
 * ({@link familyDeviceRoutes}) and their hooks are registered in an encapsulated child.
 */
export const familyDeviceModule = fp(
  async (app) => {
    const ctx = coreServices(app);
    const lists = createFamilyDeviceLists({
      db: ctx.db,
      bus: ctx.bus,
      ttlMs: ctx.config.AUTH_CACHE_MS,
      present: (list) => serializeAnswer(endpoints.getFamilyDevices, list),
    });
    app.decorate("familyDeviceLists", lists);
    app.addHook("onClose", async () => lists.close());
    await app.register(async (scope) => familyDeviceRoutes(scope, ctx, lists));
  },
  { name: "module-family-device", fastify: "5.x", dependencies: [CORE_PLUGIN] },
);
