import { endpoints, type TRegion } from "@aquapilot/contract/wire";
import { api } from "../../api/client.ts";

/** One node of the region tree (spec §7 travel-location-child). */
export type Region = TRegion;

/**
 * Children of a region in the region tree: `POST
 * /api/business-basic-data/app/travel-location-lookup/travel-location-child?parentId` (spec §7); null or 0 gives the
 * roots of the caller's service region. Errors: ApiError from the client.
 */
export async function regionChildren(parentId: number | null): Promise<Region[]> {
  return api(endpoints.getRegionChildren, { query: parentId ? { parentId } : {} });
}
