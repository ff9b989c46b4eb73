import { endpoints } from "@aquapilot/contract/wire";
import { api } from "../../api/client.ts";
import type { RegionPlace } from "./reverse-region.ts";

/** How many regions a search answers at most. */
const SEARCH_LIMIT = 10;

/**
 * Regions whose names match a keyword, at most 10, with coordinates: `GET
 * /api/business-basic-data/app/travel-location-lookup/search?keyword` (spec §7; the offline fallback of place search).
 * Errors: ApiError when the server cannot answer.
 */
export async function searchRegions(keyword: string): Promise<RegionPlace[]> {
  return (await api(endpoints.searchRegions, { query: { keyword } })).slice(0, SEARCH_LIMIT);
}
