import gcoord from "gcoord";

/**
 * Coordinate systems and conversion of the map layer (spec §1 "coordinate conversion", §5 "Non-mainland-China
 * coordinates are not shifted in conversion"). The conversion itself is gcoord's (checked against its published test
 * points in coords.test.ts); this module adds the names the map layer uses and the China bounds guard.
 */

/** A coordinate system: WGS-84 (GPS, Tianditu/CGCS2000), GCJ-02 (AMap, Tencent), BD-09 (Baidu). */
export type CoordSystem = "WGS84" | "GCJ02" | "BD09";

/** A point as longitude and latitude in degrees. */
export interface LngLat {
  longitude: number;
  latitude: number;
}

/** The China bounds of spec §5 in degrees; outside them conversion leaves a point unchanged. */
export const CHINA_BOUNDS = {
  minLongitude: 72.004,
  maxLongitude: 137.8347,
  minLatitude: 0.8293,
  maxLatitude: 55.8271,
} as const;

/** Whether a point lies inside the China bounds of spec §5 (edges included). */
export function isInChina(point: LngLat): boolean {
  return (
    point.longitude >= CHINA_BOUNDS.minLongitude &&
    point.longitude <= CHINA_BOUNDS.maxLongitude &&
    point.latitude >= CHINA_BOUNDS.minLatitude &&
    point.latitude <= CHINA_BOUNDS.maxLatitude
  );
}

const GCOORD_CRS = { WGS84: gcoord.WGS84, GCJ02: gcoord.GCJ02, BD09: gcoord.BD09 } as const;

/**
 * Converts a point between WGS-84, GCJ-02 and BD-09 (degrees in, degrees out). Points outside the China bounds of
 * spec §5 come back unchanged (the shift is only defined for mainland China). Throws for non-finite input.
 */
export function convertCoord(point: LngLat, from: CoordSystem, to: CoordSystem): LngLat {
  if (!Number.isFinite(point.longitude) || !Number.isFinite(point.latitude)) {
    throw new Error(`Invalid coordinate ${point.longitude},${point.latitude}`);
  }
  if (from === to || !isInChina(point)) return { longitude: point.longitude, latitude: point.latitude };
  const [longitude, latitude] = gcoord.transform([point.longitude, point.latitude], GCOORD_CRS[from], GCOORD_CRS[to]);
  return { longitude, latitude };
}

/**
 * BD-09 degrees → Baidu Mercator metres (BD09MC), the plane Baidu's tiles are cut in. Used by the Baidu tile CRS.
 */
export function bd09ToMercator(point: LngLat): { x: number; y: number } {
  const [x, y] = gcoord.transform([point.longitude, point.latitude], gcoord.BD09, gcoord.BD09MC);
  return { x, y };
}

/** Baidu Mercator metres (BD09MC) → BD-09 degrees; the inverse of {@link bd09ToMercator}. */
export function mercatorToBd09(x: number, y: number): LngLat {
  const [longitude, latitude] = gcoord.transform([x, y], gcoord.BD09MC, gcoord.BD09);
  return { longitude, latitude };
}

/** Great-circle distance in metres between two points of the same system (haversine, mean Earth radius 6371008.8 m). */
export function distanceMeters(a: LngLat, b: LngLat): number {
  const R = 6_371_008.8;
  const rad = Math.PI / 180;
  const dLat = (b.latitude - a.latitude) * rad;
  const dLng = (b.longitude - a.longitude) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * R * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Formats a "longitude,latitude" pair as the AddressSelect dialog shows it (spec §2), six decimals. */
export function formatLngLat(point: LngLat): string {
  return `${point.longitude.toFixed(6)},${point.latitude.toFixed(6)}`;
}
