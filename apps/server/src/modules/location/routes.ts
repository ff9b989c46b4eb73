import { endpoints } from "@aquapilot/contract";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { registerOpenEndpoint } from "../../http/route.ts";
import { locateIp, regionChildren, reverseRegion, searchRegions } from "./service.ts";

/**
 * Routes of spec §7 /api/business-basic-data/app/travel-location-lookup (open: public data), plus the documented
 * extensions `GET reverse` and `GET search` for the map's offline fallback. Without `serviceRegion`, the region tree
 * answers the signed-in caller's region, China for an anonymous one.
 */
function locationRoutes(app: FastifyInstance): void {
  registerOpenEndpoint(app, endpoints.getRegionChildren, async ({ query, user, lang }) =>
    regionChildren(query.parentId, query.serviceRegion ?? (user?.serviceRegion === 2 ? 2 : 1), lang),
  );
  registerOpenEndpoint(app, endpoints.getLocationByIp, async ({ query, request, lang }) =>
    locateIp(query.ipAddress || request.ip, lang),
  );
  registerOpenEndpoint(app, endpoints.reverseRegion, async ({ query, lang }) =>
    reverseRegion(query.longitude, query.latitude, lang, query.serviceRegion),
  );
  registerOpenEndpoint(app, endpoints.searchRegions, async ({ query, lang }) =>
    searchRegions(query.keyword, lang, query.serviceRegion),
  );
}

/**
 * The location module as the plugin "module-location": {@link locationRoutes}. It reads no decoration of the core
 * (the region data ship with it), so it declares no dependency. Encapsulated: it decorates nothing.
 */
export const locationModule = fp(async (app) => locationRoutes(app), {
  name: "module-location",
  fastify: "5.x",
  dependencies: [],
  encapsulate: true,
});
