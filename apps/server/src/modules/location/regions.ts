import fs from "node:fs";
import { fileURLToPath } from "node:url";
import type { Language, TRegion, TRegionPlace } from "@aquapilot/contract";

/** The shipped dataset (apps/server/data/regions.json, built by scripts/build-region-data.ts; see data/README.md). */
export const REGIONS_FILE = fileURLToPath(new URL("../../../data/regions.json", import.meta.url));

type Names = Partial<Record<Language, string>>;
type Row = [number, number, string, number, number, Names, number | null, number | null];

/** One region of the tree, as loaded. Coordinates are approximate centres in degrees. */
export interface RegionNode {
  id: number;
  parentId: number;
  code: string;
  level: number;
  /** 1 China, 2 Europe (spec §3). */
  serviceRegion: 1 | 2;
  names: Names;
  longitude: number | null;
  latitude: number | null;
  children: RegionNode[];
}

/** A country of the world list: ISO 3166-1 alpha-2, names, approximate centre. */
export interface Country {
  code: string;
  names: Names;
  longitude: number;
  latitude: number;
}

/** The loaded region tree with its indexes. */
export interface RegionTree {
  byId: Map<number, RegionNode>;
  roots: Record<1 | 2, RegionNode[]>;
  /** Regions usable for a nearest-centre lookup: with a centre and no child that has one. */
  leaves: RegionNode[];
  countries: Map<string, Country>;
}

let cached: RegionTree | null = null;

/** Loads (once) and indexes the shipped region dataset. @throws when data/regions.json is missing or malformed. */
export function regionTree(): RegionTree {
  if (cached) return cached;
  const data = JSON.parse(fs.readFileSync(REGIONS_FILE, "utf8")) as {
    rows: Row[];
    world: Array<[string, Names, number, number]>;
  };
  const byId = new Map<number, RegionNode>();
  const roots: Record<1 | 2, RegionNode[]> = { 1: [], 2: [] };
  for (const [id, parentId, code, level, serviceRegion, names, longitude, latitude] of data.rows) {
    byId.set(id, {
      id,
      parentId,
      code,
      level,
      serviceRegion: serviceRegion as 1 | 2,
      names,
      longitude,
      latitude,
      children: [],
    });
  }
  for (const node of byId.values()) {
    if (node.parentId === 0) roots[node.serviceRegion].push(node);
    else byId.get(node.parentId)?.children.push(node);
  }
  const leaves = [...byId.values()].filter(
    (n) => n.longitude !== null && n.latitude !== null && !n.children.some((c) => c.longitude !== null),
  );
  const countries = new Map(
    data.world.map(([code, names, longitude, latitude]) => [code, { code, names, longitude, latitude }]),
  );
  cached = { byId, roots, leaves, countries };
  return cached;
}

/** A region's name in `lang`, else its local name (Chinese for China, English for Europe). */
export function regionName(node: Pick<RegionNode, "names" | "serviceRegion">, lang: Language): string {
  const local = node.serviceRegion === 1 ? node.names["zh-Hans"] : node.names.en;
  return node.names[lang] ?? local ?? node.names.en ?? node.names["zh-Hans"] ?? "";
}

/** A country's name in `lang`, else English. */
export function countryName(country: Country | undefined, lang: Language): string {
  return country?.names[lang] ?? country?.names.en ?? "";
}

/** The wire shape of a node (spec §7 travel-location-child). */
export function toRegion(node: RegionNode, lang: Language): TRegion {
  return {
    id: node.id,
    parentId: node.parentId,
    name: regionName(node, lang),
    code: node.code,
    level: node.level,
    ...(node.longitude !== null && node.latitude !== null
      ? { longitude: node.longitude, latitude: node.latitude }
      : {}),
    hasChildren: node.children.length > 0,
  };
}

/** A node with its path, address and province/city/district split (spec §3 Location result). */
export function toPlace(tree: RegionTree, node: RegionNode, lang: Language): TRegionPlace {
  const chain: RegionNode[] = [];
  for (let n: RegionNode | undefined = node; n; n = n.parentId ? tree.byId.get(n.parentId) : undefined)
    chain.unshift(n);
  const path = chain.map((n) => regionName(n, lang));
  let province = "";
  let city = "";
  let district = "";
  let country: string;
  let countryCode: string;
  if (node.serviceRegion === 1) {
    countryCode = "CN";
    country = countryName(tree.countries.get("CN"), lang);
    province = path[0] ?? "";
    // A municipality (上海市 → 黄浦区) is its own city, as map providers report it.
    if (chain.length === 3) [city, district] = [path[1], path[2]];
    else if (chain.length === 2)
      [city, district] = chain[0].children.every((c) => c.children.length === 0) ? [path[0], path[1]] : [path[1], ""];
  } else {
    countryCode = chain[0].code;
    country = path[0];
    province = path[1] ?? "";
  }
  // Chinese addresses run from the largest region down without spaces; other languages from the smallest up.
  const address = lang === "zh-Hans" ? path.join("") : [...path].reverse().join(", ");
  return { ...toRegion(node, lang), path, address, province, city, district, country, countryCode };
}
