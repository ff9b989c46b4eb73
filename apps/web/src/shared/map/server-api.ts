import { endpoints, type TRegion, type TRegionPlace } from "@aquapilot/contract/wire";
import { getAppConfig } from "../api/app-config.ts";
import { api } from "../api/client.ts";
import type { MapKeys } from "./providers.ts";

/**
 * The server calls the map layer uses (spec §7): the map service configuration (app-config-setting) and the server's
 * own region data (travel-location-lookup: the region tree, and the reverse/search extensions that are the offline
 * fallback for reverse geocoding and place search).
 */

/** The map service configuration: type code (1 AMap, 2 Baidu, 3 Tencent, other Tianditu) and vendor keys. */
export interface MapConfig {
  mapType: number;
  mapKeys: MapKeys;
}

/** Used when the configuration cannot be loaded: Tianditu (the server's default type) without keys. */
export const DEFAULT_MAP_CONFIG: MapConfig = { mapType: 4, mapKeys: {} };

let configPromise: Promise<MapConfig> | null = null;

/**
 * The map service configuration from `GET app-config-setting/` (spec §7; its one fetcher, shared/api/app-config.ts),
 * loaded once per session; empty keys become
 * null. A failure gives {@link DEFAULT_MAP_CONFIG} (and is retried next time).
 */
export function loadMapConfig(): Promise<MapConfig> {
  configPromise ??= getAppConfig()
    .then((config) => ({
      mapType: config.mapType,
      mapKeys: {
        amap: config.mapKeys.amap || null,
        baidu: config.mapKeys.baidu || null,
        tencent: config.mapKeys.tencent || null,
        tianditu: config.mapKeys.tianditu || null,
      },
    }))
    .catch((err: unknown) => {
      console.warn("[map] app-config-setting failed; using the default map without keys", err);
      configPromise = null;
      return DEFAULT_MAP_CONFIG;
    });
  return configPromise;
}

/** One node of the region tree (spec §7 travel-location-child). */
export type Region = TRegion;
/** A region with its path and address parts (reverse lookup and search). */
export type RegionPlace = TRegionPlace;

/**
 * The nearest known region to a point (`GET travel-location-lookup/reverse?longitude&latitude`), or null when the
 * server knows none. Throws ApiError when the server cannot answer.
 */
export async function reverseRegion(longitude: number, latitude: number): Promise<RegionPlace | null> {
  return api(endpoints.reverseRegion, { query: { longitude, latitude } });
}

/** Regions whose names match a keyword, at most 10, with coordinates (`GET travel-location-lookup/search?keyword`). */
export async function searchRegions(keyword: string): Promise<RegionPlace[]> {
  return (await api(endpoints.searchRegions, { query: { keyword } })).slice(0, 10);
}

/**
 * Children of a region in the region tree (`POST travel-location-lookup/travel-location-child?parentId`); null or 0
 * gives the roots of the caller's service region.
 */
export async function regionChildren(parentId: number | null): Promise<Region[]> {
  return api(endpoints.getRegionChildren, { query: parentId ? { parentId } : {} });
}
