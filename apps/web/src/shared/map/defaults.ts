import { ServiceRegion } from "@aquapilot/contract/wire";
import type { LngLat } from "./coords.ts";

/**
 * Map constants of spec §9: "map max zoom 18; map view default zoom 16 (another default zoom 11); default centre
 * 121.491,31.233"; "search debounce 500 ms; search up to 10 results".
 */

/** Default centre (GCJ-02), used when neither a start point nor the user's position is known. */
export const DEFAULT_CENTER: LngLat = { longitude: 121.491, latitude: 31.233 };
/** Default zoom of the map view (street level). */
export const DEFAULT_ZOOM = 16;
/** The other default zoom: city level, used for region-level places (the server's region search). */
export const OVERVIEW_ZOOM = 11;
/** Deepest zoom of the map. */
export const MAP_MAX_ZOOM = 18;
/** Pause after typing before the place search runs, in ms. */
export const SEARCH_DEBOUNCE_MS = 500;
/** Most search results shown. */
export const SEARCH_MAX_RESULTS = 10;

/** The centre of the Europe service region's map (Brussels, WGS-84) and the zoom that shows most of the region. */
const EUROPE_VIEW = { center: { longitude: 4.3517, latitude: 50.8503 }, zoom: 5 } as const;

/**
 * Where the map opens without a start point, before the phone's position is known, for an owner of service region
 * `region` (spec §5 register: the region is chosen at sign-up): the spec's default centre at street level in the
 * China region and when the region is unknown (spec §9); the middle of the region at a zoom showing most of it in
 * the Europe region, where Shanghai would be a continent away.
 */
export function defaultViewFor(region: number | null | undefined): { center: LngLat; zoom: number } {
  if (region === ServiceRegion.Europe) return EUROPE_VIEW;
  return { center: DEFAULT_CENTER, zoom: DEFAULT_ZOOM };
}
