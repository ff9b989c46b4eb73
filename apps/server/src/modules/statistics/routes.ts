import {
  CSV_TOTAL_ROWS_HEADER,
  DEVICE_FLOW_STATISTICS_CSV_PATH,
  deviceFlowStatisticsCsv,
  endpoints,
  ZFlowStatisticsCsvQuery,
} from "@aquapilot/contract";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import type { z } from "zod";
import { CORE_PLUGIN, type CoreServices, coreServices } from "../../core-services.ts";
import { authorizeCaller, authorizeObject, registerEndpoint } from "../../http/route.ts";
import { callerTimeZone } from "../../http/time-zone.ts";
import { countCsvRows, telemetryCsvStream } from "./csv.ts";
import { readRegenerationCycles } from "./cycles.ts";
import { deviceFlowStatistics } from "./flow-statistics.ts";
import { readSaltStatus, resetSaltLevel, setSaltReminder } from "./salt.ts";

function isoOf(text: string): string {
  return new Date(text.length === 10 ? `${text}T00:00:00.000Z` : text).toISOString();
}

/**
 * Routes of the statistics module: spec §7 device/device-flow-statistics, and the extensions
 * device-control/get-salt-status, reset-salt-level, set-salt-reminder, get-regeneration-cycles and the CSV export
 * (`GET …/device/device-flow-statistics/export.csv?deviceId&from&to&granularity=raw|hourly`, text/csv, streamed, with
 * the rows it will hold announced in `X-Total-Rows`).
 * Every call requires a member of the device's family (strangers 403, unknown devices 404).
 */
function statisticsRoutes(app: FastifyInstance, ctx: CoreServices): void {
  registerEndpoint(app, endpoints.deviceFlowStatistics, async ({ body, request }) => {
    return deviceFlowStatistics(ctx.db, body, ctx.now(), callerTimeZone(request));
  });
  registerEndpoint(app, endpoints.getSaltStatus, async ({ query, lang }) => {
    return readSaltStatus(ctx.db, query.deviceId, ctx.now(), lang);
  });
  registerEndpoint(app, endpoints.resetSaltLevel, async ({ user, query, lang }) => {
    await resetSaltLevel(ctx.db, query.deviceId, query.levelKg, user.id, ctx.now());
    return readSaltStatus(ctx.db, query.deviceId, ctx.now(), lang);
  });
  // The low-salt reminder: any member of the household may set it, like "Salt refilled" — whoever looks
  // after the brine tank decides how early everyone is reminded; it changes no device setting and no membership.
  registerEndpoint(app, endpoints.setSaltReminder, async ({ user, query, lang }) => {
    await setSaltReminder(ctx.db, query.deviceId, query.days, user.id, ctx.now());
    return readSaltStatus(ctx.db, query.deviceId, ctx.now(), lang);
  });
  registerEndpoint(app, endpoints.getRegenerationCycles, async ({ query }) => {
    return readRegenerationCycles(ctx.db, query.deviceId, query);
  });
  app.route({
    method: "GET",
    url: DEVICE_FLOW_STATISTICS_CSV_PATH,
    schema: { querystring: ZFlowStatisticsCsvQuery },
    onRequest: async (request) => authorizeCaller(request, deviceFlowStatisticsCsv.access),
    preHandler: async (request) => authorizeObject(app, request, deviceFlowStatisticsCsv.access),
    handler: async (request, reply) => {
      const q = request.query as z.output<typeof ZFlowStatisticsCsvQuery>;
      const input = { deviceId: q.deviceId, from: isoOf(q.from), to: isoOf(q.to), granularity: q.granularity };
      // The stream has no Content-Length: announce the rows so the app's progress has a total.
      const rows = await countCsvRows(ctx.db, input);
      return reply
        .type("text/csv; charset=utf-8")
        .header("content-disposition", `attachment; filename="water-${q.granularity}.csv"`)
        .header(CSV_TOTAL_ROWS_HEADER, String(rows))
        .send(telemetryCsvStream(ctx.db, input));
    },
  });
}

/**
 * The statistics module as the plugin "module-statistics": {@link statisticsRoutes} on the core's decorations ({@link
 * coreServices}). Encapsulated: its hooks apply to its own routes only; it decorates nothing another module uses.
 */
export const statisticsModule = fp(async (app) => statisticsRoutes(app, coreServices(app)), {
  name: "module-statistics",
  fastify: "5.x",
  dependencies: [CORE_PLUGIN],
  encapsulate: true,
});
