import type { CoordSystem, LngLat } from "./coords.ts";

/**
 * Map providers of spec §1 ("Map type codes: 1 AMap-like, 2 Baidu-like, 3 Tencent-like, any other Tianditu") and §7
 * ("Map search: GET to a third-party place-search service with keyword, map bound, level 12, query type 7, start 0,
 * count 10. Reverse geocoding uses a map provider. A map service configuration holds keys for several vendors
 * ({key})."). Each adapter says which coordinate system its tiles and web services use, builds its tile URL templates
 * (`{key}` filled from the configuration) and its place-search / reverse-geocoding requests, and parses the answers.
 * Pure data and functions: nothing here loads Leaflet or calls the network.
 */

/** Provider ids; `mapKeys` of the app-config-setting answer uses the same names. */
export type MapProviderId = "amap" | "baidu" | "tencent" | "tianditu";

/** Vendor keys of the map service configuration (spec §7); a missing key skips that vendor's web services. */
export type MapKeys = Partial<Record<MapProviderId, string | null>>;

/** The map styles the map-type switch toggles between (spec §2 "map type switch"). */
export type MapStyle = "normal" | "satellite";

/** One raster tile layer: a Leaflet URL template with `{s}`, `{x}`, `{y}`, `{z}` (and `{-y}` for TMS rows). */
export interface TileLayerSpec {
  url: string;
  subdomains: string;
  /** Deepest zoom the vendor cuts tiles for; Leaflet scales above it. */
  maxNativeZoom: number;
  /** Whether the tiles are labels drawn over another layer. */
  overlay?: boolean;
}

/** A place-search hit of spec §3 (name, address, lng, lat); coordinates in the provider's system until converted. */
export interface SearchHit {
  name: string;
  address: string;
  lng: number;
  lat: number;
  /** Set on hits from the server's region data, which are shown at the overview zoom. */
  region?: boolean;
}

/** What reverse geocoding yields (the address part of the spec §3 Location result). */
export interface AddressParts {
  address: string;
  province: string;
  city: string;
  district: string;
  street: string;
  cityCode: string;
}

/** A rectangle in the provider's coordinate system. */
export interface GeoBounds {
  southWest: LngLat;
  northEast: LngLat;
}

/** How a web-service request is sent: plain GET (CORS) or JSONP (vendors without CORS). */
export interface ServiceRequest {
  url: string;
  transport: "fetch" | "jsonp";
}

/** One provider adapter. */
export interface MapProvider {
  id: MapProviderId;
  /** The map type code of spec §1 this adapter answers (Tianditu answers every other code). */
  code: number;
  /** The coordinate system of its tiles and web services (AMap/Tencent GCJ-02, Baidu BD-09, Tianditu WGS-84). */
  crs: CoordSystem;
  /** Whether its tiles are cut in its own Mercator plane (Baidu) rather than Web Mercator. */
  projection: "web-mercator" | "baidu-mercator";
  /** Tile layers for a style, `{key}` already filled; empty when the vendor needs a key and has none. */
  tiles(style: MapStyle, key: string): TileLayerSpec[];
  /** Place-search request (spec §7), at most {@link SEARCH_COUNT} hits; bounds in the provider's system. */
  searchRequest(keyword: string, bounds: GeoBounds, key: string): ServiceRequest;
  /** Parses a place-search answer; throws on a failed status. */
  parseSearch(body: unknown): SearchHit[];
  /** Reverse-geocoding request for a point in the provider's system. */
  reverseRequest(point: LngLat, key: string): ServiceRequest;
  /** Parses a reverse-geocoding answer; throws on a failed status (spec §8: "Geocoder status other than 0"). */
  parseReverse(body: unknown): AddressParts;
}

/** Search paging of spec §7 / §9: start 0, count 10, level 12, query type 7. */
export const SEARCH_COUNT = 10;
export const SEARCH_LEVEL = 12;
export const SEARCH_QUERY_TYPE = 7;

/** Fills `{key}` in a template (spec §7 "{key}"). */
export function fillKey(template: string, key: string): string {
  return template.replaceAll("{key}", encodeURIComponent(key));
}

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (v && typeof v === "object" && !Array.isArray(v) ? (v as Json) : {});
const str = (v: unknown): string => (typeof v === "string" ? v : typeof v === "number" ? String(v) : "");
const num = (v: unknown): number => (typeof v === "number" ? v : typeof v === "string" ? Number(v) : Number.NaN);

/** Parses "lng,lat" (AMap, Tianditu) or "lng lat" (older Tianditu answers) into numbers. */
function pair(text: unknown): { lng: number; lat: number } {
  const [lng, lat] = str(text)
    .trim()
    .split(/[\s,]+/)
    .map(Number);
  return { lng, lat };
}

function hits(list: unknown, map: (item: Json) => SearchHit): SearchHit[] {
  if (!Array.isArray(list)) return [];
  return list
    .map((item) => map(obj(item)))
    .filter((h) => h.name && Number.isFinite(h.lng) && Number.isFinite(h.lat))
    .slice(0, SEARCH_COUNT);
}

function failed(vendor: string, status: unknown, message?: unknown): never {
  throw new Error(str(message) || `${vendor} status ${str(status)}`);
}

const qs = (params: Record<string, string | number>) =>
  Object.entries(params)
    .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
    .join("&");

const boundsText = (b: GeoBounds) =>
  `${b.southWest.longitude},${b.southWest.latitude},${b.northEast.longitude},${b.northEast.latitude}`;

/** AMap (code 1): GCJ-02 tiles (keyless), REST web services with CORS; status "1" is success. */
export const amapProvider: MapProvider = {
  id: "amap",
  code: 1,
  crs: "GCJ02",
  projection: "web-mercator",
  tiles(style) {
    return style === "satellite"
      ? [
          {
            url: "https://webst0{s}.is.autonavi.com/appmaptile?style=6&x={x}&y={y}&z={z}",
            subdomains: "1234",
            maxNativeZoom: 18,
          },
          {
            url: "https://webst0{s}.is.autonavi.com/appmaptile?style=8&x={x}&y={y}&z={z}",
            subdomains: "1234",
            maxNativeZoom: 18,
            overlay: true,
          },
        ]
      : [
          {
            url: "https://webrd0{s}.is.autonavi.com/appmaptile?lang=zh_cn&size=1&scale=1&style=8&x={x}&y={y}&z={z}",
            subdomains: "1234",
            maxNativeZoom: 18,
          },
        ];
  },
  searchRequest(keyword, bounds, key) {
    const polygon = `${bounds.southWest.longitude},${bounds.southWest.latitude}|${bounds.northEast.longitude},${bounds.northEast.latitude}`;
    return {
      url: `https://restapi.amap.com/v3/place/text?${qs({ key, keywords: keyword, offset: SEARCH_COUNT, page: 1, extensions: "base" })}&polygon=${encodeURIComponent(polygon)}`,
      transport: "fetch",
    };
  },
  parseSearch(body) {
    const b = obj(body);
    if (str(b.status) !== "1") failed("AMap", b.status, b.info);
    return hits(b.pois, (p) => ({ name: str(p.name), address: str(p.address), ...pair(p.location) }));
  },
  reverseRequest(point, key) {
    return {
      url: `https://restapi.amap.com/v3/geocode/regeo?${qs({ key, location: `${point.longitude},${point.latitude}` })}`,
      transport: "fetch",
    };
  },
  parseReverse(body) {
    const b = obj(body);
    if (str(b.status) !== "1") failed("AMap", b.status, b.info);
    const r = obj(b.regeocode);
    const c = obj(r.addressComponent);
    const street = obj(c.streetNumber);
    return {
      address: str(r.formatted_address),
      province: str(c.province),
      city: str(c.city) || str(c.province),
      district: str(c.district),
      street: str(street.street) || str(c.township),
      cityCode: str(c.citycode),
    };
  },
};

/** Baidu (code 2): BD-09 in Baidu's own Mercator tiling, web services by JSONP; status 0 is success. */
export const baiduProvider: MapProvider = {
  id: "baidu",
  code: 2,
  crs: "BD09",
  projection: "baidu-mercator",
  tiles(style) {
    return style === "satellite"
      ? [
          {
            url: "https://maponline{s}.bdimg.com/starpic/?qt=satepc&u=x={x};y={y};z={z};v=009;type=sate&fm=46&app=webearth2&v=009",
            subdomains: "0123",
            maxNativeZoom: 18,
          },
          {
            url: "https://maponline{s}.bdimg.com/tile/?qt=vtile&x={x}&y={y}&z={z}&styles=sl&scaler=1",
            subdomains: "0123",
            maxNativeZoom: 18,
            overlay: true,
          },
        ]
      : [
          {
            url: "https://maponline{s}.bdimg.com/tile/?qt=vtile&x={x}&y={y}&z={z}&styles=pl&scaler=1",
            subdomains: "0123",
            maxNativeZoom: 18,
          },
        ];
  },
  searchRequest(keyword, b, key) {
    const bounds = `${b.southWest.latitude},${b.southWest.longitude},${b.northEast.latitude},${b.northEast.longitude}`;
    return {
      url: `https://api.map.baidu.com/place/v2/search?${qs({ query: keyword, bounds, output: "json", page_size: SEARCH_COUNT, page_num: 0, ak: key })}`,
      transport: "jsonp",
    };
  },
  parseSearch(body) {
    const b = obj(body);
    if (num(b.status) !== 0) failed("Baidu", b.status, b.message);
    return hits(b.results, (p) => {
      const l = obj(p.location);
      return { name: str(p.name), address: str(p.address), lng: num(l.lng), lat: num(l.lat) };
    });
  },
  reverseRequest(point, key) {
    return {
      url: `https://api.map.baidu.com/reverse_geocoding/v3/?${qs({ ak: key, output: "json", coordtype: "bd09ll", location: `${point.latitude},${point.longitude}` })}`,
      transport: "jsonp",
    };
  },
  parseReverse(body) {
    const b = obj(body);
    if (num(b.status) !== 0) failed("Baidu", b.status, b.message);
    const r = obj(b.result);
    const c = obj(r.addressComponent);
    return {
      address: str(r.formatted_address),
      province: str(c.province),
      city: str(c.city),
      district: str(c.district),
      street: str(c.street),
      cityCode: str(r.cityCode),
    };
  },
};

/** Tencent (code 3): GCJ-02 tiles with TMS rows, web services by JSONP; status 0 is success. */
export const tencentProvider: MapProvider = {
  id: "tencent",
  code: 3,
  crs: "GCJ02",
  projection: "web-mercator",
  tiles(style, key) {
    const keyPart = key ? fillKey("&key={key}", key) : "";
    return style === "satellite"
      ? [
          {
            url: `https://p{s}.map.gtimg.com/sateTiles/{z}/{sx}/{sy}/{x}_{-y}.jpg?version=400${keyPart}`,
            subdomains: "0123",
            maxNativeZoom: 18,
          },
          {
            url: `https://rt{s}.map.gtimg.com/tile?z={z}&x={x}&y={-y}&styleid=2&scene=0&version=347${keyPart}`,
            subdomains: "0123",
            maxNativeZoom: 18,
            overlay: true,
          },
        ]
      : [
          {
            url: `https://rt{s}.map.gtimg.com/tile?z={z}&x={x}&y={-y}&styleid=1000&scene=0&version=347${keyPart}`,
            subdomains: "0123",
            maxNativeZoom: 18,
          },
        ];
  },
  searchRequest(keyword, b, key) {
    const boundary = `rectangle(${b.southWest.latitude},${b.southWest.longitude},${b.northEast.latitude},${b.northEast.longitude})`;
    return {
      url: `https://apis.map.qq.com/ws/place/v1/search?${qs({ keyword, boundary, page_size: SEARCH_COUNT, page_index: 1, key, output: "jsonp" })}`,
      transport: "jsonp",
    };
  },
  parseSearch(body) {
    const b = obj(body);
    if (num(b.status) !== 0) failed("Tencent", b.status, b.message);
    return hits(b.data, (p) => {
      const l = obj(p.location);
      return { name: str(p.title), address: str(p.address), lng: num(l.lng), lat: num(l.lat) };
    });
  },
  reverseRequest(point, key) {
    return {
      url: `https://apis.map.qq.com/ws/geocoder/v1/?${qs({ location: `${point.latitude},${point.longitude}`, key, output: "jsonp" })}`,
      transport: "jsonp",
    };
  },
  parseReverse(body) {
    const b = obj(body);
    if (num(b.status) !== 0) failed("Tencent", b.status, b.message);
    const r = obj(b.result);
    const c = obj(r.address_component);
    return {
      address: str(r.address),
      province: str(c.province),
      city: str(c.city),
      district: str(c.district),
      street: str(c.street),
      cityCode: str(obj(r.ad_info).city_code),
    };
  },
};

/**
 * Tianditu (any other code): WGS-84/CGCS2000 tiles (Web Mercator "_w" matrix set) that need the key `tk`; the place
 * search of spec §7 (keyWord, mapBound, level 12, queryType 7, start 0, count 10); geocoder status "0" is success.
 */
export const tiandituProvider: MapProvider = {
  id: "tianditu",
  code: 4,
  crs: "WGS84",
  projection: "web-mercator",
  tiles(style, key) {
    if (!key) return [];
    const layer = (name: string, overlay = false): TileLayerSpec => ({
      url: fillKey(
        `https://t{s}.tianditu.gov.cn/${name}_w/wmts?SERVICE=WMTS&REQUEST=GetTile&VERSION=1.0.0&LAYER=${name}&STYLE=default&TILEMATRIXSET=w&FORMAT=tiles&TILEMATRIX={z}&TILEROW={y}&TILECOL={x}&tk={key}`,
        key,
      ),
      subdomains: "01234567",
      maxNativeZoom: 18,
      overlay,
    });
    return style === "satellite" ? [layer("img"), layer("cia", true)] : [layer("vec"), layer("cva", true)];
  },
  searchRequest(keyword, bounds, key) {
    const postStr = JSON.stringify({
      keyWord: keyword,
      mapBound: boundsText(bounds),
      level: SEARCH_LEVEL,
      queryType: SEARCH_QUERY_TYPE,
      start: 0,
      count: SEARCH_COUNT,
    });
    return {
      url: `https://api.tianditu.gov.cn/v2/search?${qs({ postStr, type: "query", tk: key })}`,
      transport: "fetch",
    };
  },
  parseSearch(body) {
    const b = obj(body);
    const status = obj(b.status);
    if (status.infocode !== undefined && num(status.infocode) !== 1000)
      failed("Tianditu", status.infocode, status.cndesc);
    return hits(b.pois, (p) => ({ name: str(p.name), address: str(p.address), ...pair(p.lonlat) }));
  },
  reverseRequest(point, key) {
    const postStr = JSON.stringify({ lon: point.longitude, lat: point.latitude, ver: 1 });
    return {
      url: `https://api.tianditu.gov.cn/geocoder?${qs({ postStr, type: "geocode", tk: key })}`,
      transport: "fetch",
    };
  },
  parseReverse(body) {
    const b = obj(body);
    if (str(b.status) !== "0") failed("Tianditu", b.status, b.msg);
    const r = obj(b.result);
    const c = obj(r.addressComponent);
    return {
      address: str(r.formatted_address),
      province: str(c.province),
      city: str(c.city) || str(c.province),
      district: str(c.county),
      street: str(c.road) || str(c.address),
      cityCode: str(c.city_code),
    };
  },
};

/** The adapter for a map type code (spec §1): 1 AMap, 2 Baidu, 3 Tencent, any other Tianditu. */
export function providerForType(mapType: number | null | undefined): MapProvider {
  if (mapType === 1) return amapProvider;
  if (mapType === 2) return baiduProvider;
  if (mapType === 3) return tencentProvider;
  return tiandituProvider;
}
