import { endpoints } from "@aquapilot/contract";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { CORE_PLUGIN, type CoreServices, coreServices } from "../../core-services.ts";
import { registerEndpoint } from "../../http/route.ts";
import {
  controlDevice,
  getCommandStatus,
  queryDeviceInfo,
  queryDeviceInfoReturnResult,
  queryOtaVersion,
  runCommand,
  startOta,
  stationMaxWorkTimes,
  trackDeviceChanges,
} from "./service.ts";

/**
 * Routes of spec §7 /api/run-lucky/device/app/device-control (and the get-command-status extension). Reads need a
 * member of the device's family; commands also need Device.Control. Every command answers {commandId, status,
 * error, message}; "Device offline" (409) when the device is offline or silent for 10 s.
 */
function deviceControlRoutes(app: FastifyInstance, ctx: CoreServices): void {
  const untrack = trackDeviceChanges(ctx, app.log);
  app.addHook("onClose", async () => untrack());

  registerEndpoint(app, endpoints.queryDeviceInfo, async ({ user, query }) =>
    queryDeviceInfo(ctx, user.id, query.deviceId),
  );
  registerEndpoint(app, endpoints.deviceStationMaxWorkTimeCache, async ({ query }) => {
    return stationMaxWorkTimes(ctx, query.deviceId);
  });
  registerEndpoint(app, endpoints.queryDeviceInfoReturnResult, async ({ user, query, lang }) => {
    return queryDeviceInfoReturnResult(ctx, { ...query, userId: user.id, lang });
  });
  const simple = [
    [endpoints.forcedRegeneration, "forced-regeneration"],
    [endpoints.changeVacation, "change-vacation"],
    [endpoints.exitVacation, "exit-vacation"],
  ] as const;
  for (const [ep, name] of simple) {
    registerEndpoint(app, ep, async ({ user, query, lang }) => {
      return runCommand(ctx, { deviceId: query.deviceId, commandId: query.commandId, userId: user.id, name, lang });
    });
  }
  registerEndpoint(app, endpoints.controlDevice, async ({ user, query, body, lang }) => {
    return controlDevice(ctx, { ...query, ...body, userId: user.id, lang });
  });
  registerEndpoint(app, endpoints.queryOtaVersion, async ({ query }) => {
    return queryOtaVersion(ctx, query.deviceId);
  });
  registerEndpoint(app, endpoints.deviceOta, async ({ user, query, lang }) => {
    return startOta(ctx, { ...query, userId: user.id, lang });
  });
  registerEndpoint(app, endpoints.getCommandStatus, async ({ query, lang }) =>
    getCommandStatus(ctx, query.commandId, lang),
  );
}

/**
 * The device-control module as the plugin "module-device-control": {@link deviceControlRoutes} on the core's
 * decorations ({@link coreServices}). Encapsulated: its hooks apply to its own routes only; it decorates nothing
 * another module uses.
 */
export const deviceControlModule = fp(async (app) => deviceControlRoutes(app, coreServices(app)), {
  name: "module-device-control",
  fastify: "5.x",
  dependencies: [CORE_PLUGIN],
  encapsulate: true,
});
