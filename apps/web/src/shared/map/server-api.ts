import { ApiError, ClientErrorCode } from "../api/errors.js";
import { requestHeaders, serializeQuery, unwrapResponse } from "../api/client.js";
import { i18n } from "../i18n/index.js";
import type { MapKeys } from "./providers.js";

/**
 * The server calls the map layer uses (spec §7): the map service configuration (app-config-setting) and the server's
 * own region data (travel-location-lookup), the offline fallback for reverse geocoding and place search.
 */

const CONFIG_PATH = "/api/business-basic-data/app/app-config-setting/";
const LOOKUP = "/api/business-basic-data/app/travel-location-lookup";

/** The map service configuration: type code (1 AMap, 2 Baidu, 3 Tencent, other Tianditu) and vendor keys. */
export interface MapConfig {
  mapType: number;
  mapKeys: MapKeys;
}

/** Used when the configuration cannot be loaded: AMap, whose tiles need no key. */
export const DEFAULT_MAP_CONFIG: MapConfig = { mapType: 1, mapKeys: {} };

async function get(path: string, query: Record<string, string | number>, method = "GET"): Promise<unknown> {
  const headers = await requestHeaders(true);
  let response: Response;
  try {
    response = await fetch(path + serializeQuery(query), { method, headers });
  } catch {
    throw new ApiError(i18n.t("errors.serverError"), ClientErrorCode.Network, null);
  }
  const text = await response.text().catch(() => "");
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  return unwrapResponse(response.status, response.statusText, body);
}

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (v && typeof v === "object" && !Array.isArray(v) ? (v as Json) : {});
const str = (v: unknown): string => (typeof v === "string" ? v : typeof v === "number" ? String(v) : "");

let configPromise: Promise<MapConfig> | null = null;

/**
 * The map service configuration from `GET app-config-setting/` (spec §7), loaded once per session; a failure gives
 * {@link DEFAULT_MAP_CONFIG} (and is retried next time).
 */
export function loadMapConfig(): Promise<MapConfig> {
  configPromise ??= get(CONFIG_PATH, {})
    .then((result) => {
      const r = obj(result);
      const keys = obj(r.mapKeys);
      const mapType = Number(r.mapType);
      return {
        mapType: Number.isFinite(mapType) ? mapType : DEFAULT_MAP_CONFIG.mapType,
        mapKeys: {
          amap: str(keys.amap) || null,
          baidu: str(keys.baidu) || null,
          tencent: str(keys.tencent) || null,
          tianditu: str(keys.tianditu) || null,
        },
      };
    })
    .catch((err) => {
      console.warn("[map] app-config-setting failed; using AMap without keys", err);
      configPromise = null;
      return DEFAULT_MAP_CONFIG;
    });
  return configPromise;
}

/** One region of the server's region tree (spec §7 travel-location-lookup). */
export interface Region {
  id: string;
  name: string;
  parentId: string | null;
  code: string;
  longitude: number | null;
  latitude: number | null;
  /** Names from the top level down to this region, when the server gives them. */
  path: string[];
  hasChildren: boolean;
}

function toRegion(v: unknown): Region {
  const r = obj(v);
  const lng = Number(r.longitude ?? r.lng);
  const lat = Number(r.latitude ?? r.lat);
  const path = Array.isArray(r.path)
    ? r.path.map((p) => (typeof p === "string" ? p : str(obj(p).name))).filter(Boolean)
    : str(r.fullName)
      ? str(r.fullName).split(/\s*[/,>]\s*/)
      : [];
  const hasChildren =
    typeof r.hasChildren === "boolean" ? r.hasChildren : typeof r.isLeaf === "boolean" ? !r.isLeaf : true;
  return {
    id: str(r.id ?? r.code),
    name: str(r.name ?? r.displayName),
    parentId: r.parentId === null || r.parentId === undefined ? null : str(r.parentId),
    code: str(r.code ?? r.cityCode ?? r.adcode),
    longitude: r.longitude === null || r.longitude === undefined || !Number.isFinite(lng) ? null : lng,
    latitude: r.latitude === null || r.latitude === undefined || !Number.isFinite(lat) ? null : lat,
    path,
    hasChildren,
  };
}

function regionList(result: unknown): Region[] {
  const list = Array.isArray(result) ? result : (obj(result).items ?? obj(result).path ?? obj(result).regions);
  return Array.isArray(list) ? list.map(toRegion) : [];
}

/**
 * Nearest region path for a point (`GET travel-location-lookup/reverse?longitude&latitude`): the regions from the top
 * level down (e.g. province, city, district). Throws {@link ApiError} when the server cannot answer.
 */
export async function reverseRegion(longitude: number, latitude: number): Promise<Region[]> {
  const result = await get(`${LOOKUP}/reverse`, { longitude, latitude });
  const regions = regionList(result);
  if (regions.length > 0) return regions;
  // A single region object that carries its path as names.
  const one = toRegion(result);
  return one.path.length > 0 ? one.path.map((name) => ({ ...one, name })) : one.name ? [one] : [];
}

/** Regions whose names match a keyword, at most 10, with coordinates (`GET travel-location-lookup/search?keyword`). */
export async function searchRegions(keyword: string): Promise<Region[]> {
  return regionList(await get(`${LOOKUP}/search`, { keyword })).slice(0, 10);
}

/** Children of a region in the region tree (`POST travel-location-lookup/travel-location-child?parentId`); null → top level. */
export async function regionChildren(parentId: string | null): Promise<Region[]> {
  return regionList(await get(`${LOOKUP}/travel-location-child`, parentId ? { parentId } : {}, "POST"));
}
