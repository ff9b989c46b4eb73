import { endpoints, type TRegionPlace } from "@aquapilot/contract/wire";
import { api } from "../../api/client.ts";

/** A region with its path and address parts (reverse lookup and search; spec §7 travel-location-lookup). */
export type RegionPlace = TRegionPlace;

/**
 * The nearest known region to a point (longitude, latitude in degrees): `GET
 * /api/business-basic-data/app/travel-location-lookup/reverse?longitude&latitude` (spec §7; the offline fallback of
 * reverse geocoding), or null when the server knows none. Errors: ApiError when the server cannot answer.
 */
export async function reverseRegion(longitude: number, latitude: number): Promise<RegionPlace | null> {
  return api(endpoints.reverseRegion, { query: { longitude, latitude } });
}
