import { z } from "zod";
import { OPEN } from "./access.ts";
import { endpoint, ZQueryChoice, ZQueryInt, ZQueryNumber, ZText } from "./define.ts";

// Region tree and IP lookup (spec §7 /api/business-basic-data/app/travel-location-lookup), plus two documented
// extensions for the map's offline fallback (reverse, search).

const LOOKUP = "/api/business-basic-data/app/travel-location-lookup";

/** Service region filter (spec §3: 1 China, 2 Europe); absent = the caller's own region (China when anonymous). */
const ZServiceRegionQuery = ZQueryChoice([1, 2]).optional();

/**
 * One node of the region tree: China GB/T 2260 province (1) → city (2) → district (3); Europe country (1) → ISO
 * 3166-2 subdivision (2). `name` is in the caller's language where the dataset has it, else the local name.
 */
export const ZRegion = z.object({
  id: z.number().int(),
  /** 0 for a root. */
  parentId: z.number().int(),
  name: z.string(),
  /** GB/T 2260 code (China) or ISO 3166-1/-2 code (Europe). */
  code: z.string(),
  level: z.number().int(),
  /** Approximate centre, degrees; absent when the dataset has none. */
  longitude: z.number().optional(),
  latitude: z.number().optional(),
  hasChildren: z.boolean(),
});
export type TRegion = z.infer<typeof ZRegion>;

/** A region with its path, for reverse lookups and searches (spec §3 Location result / Search hit). */
export const ZRegionPlace = ZRegion.extend({
  /** Names from the root down to this region. */
  path: z.array(z.string()),
  /** The path joined for display, e.g. "上海市 黄浦区" or "France, Île-de-France". */
  address: z.string(),
  /** China: level-1 name; Europe: the subdivision name. */
  province: z.string(),
  city: z.string(),
  district: z.string(),
  /** Country name in the caller's language ("China" for China regions). */
  country: z.string(),
  countryCode: z.string(),
});
export type TRegionPlace = z.infer<typeof ZRegionPlace>;

/** Region of an IP address (country precision) or the spec §9 default centre. */
export const ZIpLocation = z.object({
  ipAddress: z.string(),
  /** ISO 3166-1 alpha-2, null when unknown (private, loopback, IPv6 or unlisted address). */
  countryCode: z.string().nullable(),
  /** Best region name in the caller's language. */
  name: z.string(),
  /** Region tree id when the answer is a node of the tree (a European country, or Shanghai for the default). */
  regionId: z.number().int().nullable(),
  longitude: z.number(),
  latitude: z.number(),
  /** True when the answer is the default region Shanghai 121.491,31.233 (spec §9). */
  isDefault: z.boolean(),
});
export type TIpLocation = z.infer<typeof ZIpLocation>;

/** Location endpoints (spec §7). Open: the region data is public and the register screen may need it. */
export const locationEndpoints = {
  getRegionChildren: endpoint({
    method: "POST",
    access: OPEN,
    path: `${LOOKUP}/travel-location-child`,
    query: z.object({ parentId: ZQueryInt(0, 2_147_483_647).optional(), serviceRegion: ZServiceRegionQuery }),
    body: undefined,
    result: z.array(ZRegion),
    summary: "Children of a region (parentId absent or 0: the roots of the service region)",
  }),
  getLocationByIp: endpoint({
    method: "GET",
    access: OPEN,
    path: `${LOOKUP}/travel_Location_by_ipaddress`,
    query: z.object({ ipAddress: ZText(64, { trim: true }).optional() }),
    body: undefined,
    result: ZIpLocation,
    summary: "Region of an IP address (default: the caller's) from the offline database",
  }),
  reverseRegion: endpoint({
    method: "GET",
    access: OPEN,
    path: `${LOOKUP}/reverse`,
    query: z.object({
      longitude: ZQueryNumber(-180, 180),
      latitude: ZQueryNumber(-90, 90),
      serviceRegion: ZServiceRegionQuery,
    }),
    body: undefined,
    result: ZRegionPlace.extend({ distanceKm: z.number() }).nullable(),
    summary: "Extension (map offline fallback): the nearest known region to a point, by centre",
  }),
  searchRegions: endpoint({
    method: "GET",
    access: OPEN,
    path: `${LOOKUP}/search`,
    query: z.object({ keyword: ZText(64, { trim: true, min: 1 }), serviceRegion: ZServiceRegionQuery }),
    body: undefined,
    result: z.array(ZRegionPlace),
    summary: "Extension (map offline fallback): up to 10 regions whose name matches, with coordinates",
  }),
} as const;
