import { endpoints } from "@aquapilot/contract";
import type { FastifyInstance } from "fastify";
import { registerOpenEndpoint } from "../../http/route.ts";
import type { AppContext } from "../context.ts";
import { locateIp, regionChildren, reverseRegion, searchRegions } from "./service.ts";

/**
 * Routes of spec §7 /api/business-basic-data/app/travel-location-lookup (open: public data), plus the documented
 * extensions `GET reverse` and `GET search` for the map's offline fallback. Without `serviceRegion`, the region tree
 * answers the signed-in caller's region, China for an anonymous one.
 */
export function locationRoutes(app: FastifyInstance, _ctx: AppContext): void {
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
