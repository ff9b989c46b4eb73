import { type RegionPlace, reverseRegion } from "./api/reverse-region.ts";
import { searchRegions } from "./api/search-regions.ts";
import { type CoordSystem, convertCoord, type LngLat } from "./coords.ts";
import { jsonp } from "./jsonp.ts";
import type { GeoBounds, MapKeys, MapProvider, SearchHit, ServiceRequest } from "./providers.ts";

/**
 * Reverse geocoding and place search (spec §2 Select-address dialog, §7 "Map search", "Reverse geocoding uses a map
 * provider", §8 map errors). The configured vendor's web service is asked first when it has a key; when it has none or
 * cannot be reached (no internet) the server's own region data answers; when that fails too the caller shows
 * "address fetch failed" / the search error. Coordinates in and out are in the app's system {@link APP_CRS}.
 */

/**
 * Location result of spec §3. Coordinates are GCJ-02 (the system of AMap and Tencent; outside the China bounds of §5
 * GCJ-02 equals WGS-84), whatever the configured provider: the map layer converts at its edge.
 */
export interface LocationResult {
  address: string;
  hasAddress: boolean;
  province: string;
  city: string;
  district: string;
  street: string;
  cityCode: string;
  longitude: number;
  latitude: number;
}

/** The coordinate system of {@link LocationResult} and search hits handed to screens: GCJ-02 (WGS-84 outside China). */
export const APP_CRS: CoordSystem = "GCJ02";

/** How long a vendor web service may take before the server fallback answers, in ms. */
export const VENDOR_TIMEOUT_MS = 4000;

async function send(request: ServiceRequest): Promise<unknown> {
  if (request.transport === "jsonp") return jsonp(request.url, VENDOR_TIMEOUT_MS);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), VENDOR_TIMEOUT_MS);
  try {
    const response = await fetch(request.url, { signal: controller.signal, credentials: "omit" });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    return await response.json();
  } finally {
    clearTimeout(timer);
  }
}

/** Builds a spec §3 Location result from the server's nearest region for a point. */
export function locationFromRegion(point: LngLat, place: RegionPlace): LocationResult {
  return {
    address: place.address,
    hasAddress: place.address.length > 0,
    province: place.province,
    city: place.city || place.province,
    district: place.district,
    street: "",
    cityCode: place.code,
    longitude: point.longitude,
    latitude: point.latitude,
  };
}

/**
 * The address at a point (app system), as a spec §3 Location result. Vendor web service first (when keyed), then the
 * server's nearest region. Rejects when neither answers; the caller toasts "address fetch failed" (spec §8).
 */
export async function reverseGeocode(point: LngLat, provider: MapProvider, keys: MapKeys): Promise<LocationResult> {
  const key = keys[provider.id];
  if (key) {
    try {
      const vendorPoint = convertCoord(point, APP_CRS, provider.crs);
      const parts = provider.parseReverse(await send(provider.reverseRequest(vendorPoint, key)));
      if (parts.address) {
        return { ...parts, hasAddress: true, longitude: point.longitude, latitude: point.latitude };
      }
    } catch (err) {
      console.info(`[map] ${provider.id} reverse geocoding failed, asking the server`, err);
    }
  }
  const place = await reverseRegion(point.longitude, point.latitude);
  if (!place) throw new Error("no region for this point");
  return locationFromRegion(point, place);
}

/**
 * Place search (spec §7): at most 10 hits near the map bounds (app system), hits in the app system. Vendor web service
 * first (when keyed), then the server's region search. Rejects when neither answers; resolves [] for "no search
 * results". Region coordinates are taken as GCJ-02: at region scale the < 1 km datum shift does not matter.
 */
export async function searchPlaces(
  keyword: string,
  bounds: GeoBounds,
  provider: MapProvider,
  keys: MapKeys,
): Promise<SearchHit[]> {
  const text = keyword.trim();
  if (!text) return [];
  const key = keys[provider.id];
  if (key) {
    try {
      const vendorBounds = {
        southWest: convertCoord(bounds.southWest, APP_CRS, provider.crs),
        northEast: convertCoord(bounds.northEast, APP_CRS, provider.crs),
      };
      const found = provider.parseSearch(await send(provider.searchRequest(text, vendorBounds, key)));
      return found.slice(0, 10).map((hit) => {
        const p = convertCoord({ longitude: hit.lng, latitude: hit.lat }, provider.crs, APP_CRS);
        return { ...hit, lng: p.longitude, lat: p.latitude };
      });
    } catch (err) {
      console.info(`[map] ${provider.id} place search failed, asking the server`, err);
    }
  }
  const regions = await searchRegions(text);
  return regions
    .filter((r) => r.longitude !== undefined && r.latitude !== undefined)
    .slice(0, 10)
    .map((r) => ({
      name: r.name,
      address: r.address,
      lng: r.longitude as number,
      lat: r.latitude as number,
      region: true,
    }));
}
