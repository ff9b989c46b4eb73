/**
 * First-screen JavaScript budget: for each route below, the gzip -9 size of the JavaScript a phone loads
 * before that route's first paint, read from Vite's manifest (`dist/.vite/manifest.json`, `build.manifest: true` in
 * vite.config.ts): the entry (index.html's script) with all its static `imports`, recursively, plus the route's screen
 * modules with their static imports, recursively, plus the route's per-language modules (`{lang}` placeholder; the
 * largest language counts), each file counted once. `dynamicImports` are not followed: they load later, on demand.
 *
 * `npm run size -w apps/web` (after `npm run build -w apps/web`; root `npm run test:e2e` runs it right after the
 * build) prints a table and exits 1 when a route is over {@link BUDGET_GZIP_BYTES}, or when a configured module is
 * missing from the manifest (a rename must not silently shrink the figure). `bench/web-bench.ts` prints the same
 * figures beside Lighthouse's.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import {
  ANTD_LOCALE_DIR,
  ANTD_LOCALES,
  FIRST_SCREENS,
  LANGUAGES,
  MODULES_FILE,
  screenModules,
} from "../src/first-paint/build/first-screen-chunks.ts";
import { localeFile, TEXT_GROUPS, type TextGroup } from "../src/shared/i18n/groups.ts";

// ---------------------------------------------------------------------------------------------------------------
// Configuration. Module names are manifest keys: source paths relative to apps/web (as in `src` of the manifest).
// ---------------------------------------------------------------------------------------------------------------

/**
 * The budget per route: 130 KB of gzip-compressed JavaScript, so a phone on mobile data opens the app fast; 1 KB =
 * 1000 bytes as Vite prints sizes.
 */
export const BUDGET_GZIP_BYTES = 130_000;

/** The manifest key of the app's entry: index.html's module script. */
export const ENTRY = "index.html";

/** The interface languages (spec §1); `{lang}` in a per-language module name is replaced by each in turn. */
export { LANGUAGES };

/** One measured route: its hash path and the source modules its first screen loads besides the entry. */
export interface RouteBudget {
  /** Short name printed in the table, e.g. "login". */
  name: string;
  /** The route as opened in the browser, e.g. "#/login". */
  path: string;
  /** Screen modules (manifest keys) loaded before the first paint, e.g. the lazy route's screen. */
  modules: string[];
  /** Per-language modules with a `{lang}` (and `{antd}`) placeholder, e.g. "src/locales/{lang}.json". */
  perLanguage: string[];
  /**
   * A ratchet while the route is above the {@link BUDGET_GZIP_BYTES} goal: the most it may load today, gzip bytes
   * (its last measured figure plus 2 KB). Growing past it fails CI; lower it with every change that shrinks the
   * route, and remove it once the route is within the goal.
   */
  ceilingBytes?: number;
}

/**
 * What a route loads per language before its first paint: the locale files of its text groups (the same groups the
 * route declares in src/app/routes.ts; src/shared/i18n/groups.ts) and antd-mobile's locale, with `{lang}`.
 */
function perLanguage(groups: readonly TextGroup[]): string[] {
  return [
    ...groups.flatMap((g) => TEXT_GROUPS[g].map((area) => localeFile(area, "{lang}"))),
    `${ANTD_LOCALE_DIR}/{antd}.js`,
  ];
}

/**
 * The routes an app start opens first: their screen modules and the text groups they declare in src/app/routes.ts, as
 * the build's first-screen chunks take them (src/first-paint/build/first-screen-chunks.ts).
 */
export const ROUTES: RouteBudget[] = [
  {
    name: "login",
    path: "#/login",
    modules: screenModules(FIRST_SCREENS.login),
    perLanguage: perLanguage(FIRST_SCREENS.login.textGroups),
  },
  {
    name: "home",
    path: "#/index/home",
    modules: screenModules(FIRST_SCREENS.home),
    perLanguage: perLanguage(FIRST_SCREENS.home.textGroups),
  },
  {
    name: "device",
    path: "#/Device",
    modules: screenModules(FIRST_SCREENS.device),
    perLanguage: perLanguage(FIRST_SCREENS.device.textGroups),
  },
];

// ---------------------------------------------------------------------------------------------------------------

/** One chunk of Vite's manifest (only the fields used here). */
export interface ManifestChunk {
  /** Output file, relative to dist, e.g. "assets/index-CP694ggD.js". */
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  /** Manifest keys of the chunks this one imports statically (loaded with it). */
  imports?: string[];
  /** Manifest keys of the chunks this one may import later (not followed). */
  dynamicImports?: string[];
  css?: string[];
}

/** Vite's `dist/.vite/manifest.json`: manifest key (source path or "_chunk.js") → chunk. */
export type Manifest = Record<string, ManifestChunk>;

/** A configured module that the manifest does not hold (renamed, moved, or no longer a chunk of its own). */
export class SizeBudgetError extends Error {
  override name = "SizeBudgetError";
}

/** The first-screen JavaScript of one route, for its largest language. */
export interface RouteSize {
  name: string;
  path: string;
  /** The language whose per-language modules made the largest total, or null when the route has none. */
  language: string | null;
  /** The JavaScript files (relative to dist), each once, in load order of discovery. */
  files: string[];
  /** Sum of the files' sizes on disk, bytes. */
  rawBytes: number;
  /** Sum of each file's gzip -9 size, bytes. */
  gzipBytes: number;
  /** The limit the route was checked against, gzip bytes: its ratchet ceiling, else the goal (or the caller's). */
  budgetBytes: number;
  overBudget: boolean;
  /** How far the route is above the {@link BUDGET_GZIP_BYTES} goal, gzip bytes (0 within it). */
  overGoalBytes: number;
}

/**
 * The output files of `roots` and of every chunk they import statically, recursively, each file once (a cycle such
 * as a lazy chunk importing the entry back is visited once). Only JavaScript files are returned.
 * @param manifest Vite's manifest.
 * @param roots manifest keys to start from.
 * @param context what the roots are for, used in the error message (e.g. 'route "login"').
 * @throws SizeBudgetError when a root, or a chunk one of them imports, is not in the manifest.
 */
export function staticClosure(manifest: Manifest, roots: string[], context: string): string[] {
  const seen = new Set<string>();
  const files: string[] = [];
  const visit = (key: string, from: string | null): void => {
    if (seen.has(key)) return;
    const chunk = manifest[key];
    if (!chunk) {
      throw new SizeBudgetError(
        from === null
          ? `size budget: module "${key}" of ${context} is not in the Vite manifest (dist/.vite/manifest.json): ` +
              "renamed, moved, or no longer a chunk of its own? Update ROUTES in apps/web/scripts/size-budget.ts."
          : `size budget: chunk "${key}", imported by "${from}", is not in the Vite manifest: is the build complete?`,
      );
    }
    seen.add(key);
    if (/\.m?js$/.test(chunk.file) && !files.includes(chunk.file)) files.push(chunk.file);
    for (const next of chunk.imports ?? []) visit(next, key);
  };
  for (const root of roots) visit(root, null);
  return files;
}

/**
 * The first-screen JavaScript files of a route in one language: {@link ENTRY}, the route's modules and its
 * per-language modules with `{lang}` replaced, with their static imports (see {@link staticClosure}).
 * @throws SizeBudgetError when one of them is missing from the manifest.
 */
export function firstScreenFiles(manifest: Manifest, route: RouteBudget, lang: string, entry = ENTRY): string[] {
  // antd-mobile's own locale (main.tsx loads the active one before the first paint); none for zh-Hans, whose zh-CN
  // is antd-mobile's default, bundled with its ConfigProvider in the entry's closure.
  const antd = ANTD_LOCALES[lang] ?? null;
  const roots = [
    entry,
    ...route.modules,
    ...route.perLanguage
      .filter((m) => antd !== null || !m.includes("{antd}"))
      .map((m) => m.replaceAll("{lang}", lang).replaceAll("{antd}", antd ?? "")),
  ];
  return staticClosure(manifest, roots, `route "${route.name}"${route.perLanguage.length ? ` (${lang})` : ""}`);
}

/** Inputs of {@link measureRoutes}; everything but the manifest and the file reader has the configured default. */
export interface MeasureOptions {
  manifest: Manifest;
  /** Reads an output file, by its path relative to dist. */
  readFile: (file: string) => Buffer;
  routes?: RouteBudget[];
  languages?: readonly string[];
  budgetBytes?: number;
  entry?: string;
}

/**
 * Measures every route: raw and gzip -9 bytes of its first-screen files for each language, keeping the largest
 * language (by gzip bytes). Each file is compressed once.
 * @throws SizeBudgetError when a configured module is missing from the manifest.
 */
export function measureRoutes(opts: MeasureOptions): RouteSize[] {
  const { manifest, readFile } = opts;
  const sizes = new Map<string, { raw: number; gzip: number }>();
  const sizeOf = (file: string) => {
    let s = sizes.get(file);
    if (!s) {
      const bytes = readFile(file);
      s = { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
      sizes.set(file, s);
    }
    return s;
  };
  return (opts.routes ?? ROUTES).map((route) => {
    const languages = route.perLanguage.length ? (opts.languages ?? LANGUAGES) : [null];
    const budgetBytes = opts.budgetBytes ?? route.ceilingBytes ?? BUDGET_GZIP_BYTES;
    let best: RouteSize | null = null;
    for (const lang of languages) {
      const files = firstScreenFiles(manifest, route, lang ?? "", opts.entry);
      const rawBytes = files.reduce((sum, f) => sum + sizeOf(f).raw, 0);
      const gzipBytes = files.reduce((sum, f) => sum + sizeOf(f).gzip, 0);
      if (!best || gzipBytes > best.gzipBytes) {
        best = {
          name: route.name,
          path: route.path,
          language: lang,
          files,
          rawBytes,
          gzipBytes,
          budgetBytes,
          overBudget: gzipBytes > budgetBytes,
          overGoalBytes: Math.max(0, gzipBytes - BUDGET_GZIP_BYTES),
        };
      }
    }
    if (!best) throw new SizeBudgetError(`size budget: no language to measure route "${route.name}" in`);
    return best;
  });
}

/** Reads `dist/.vite/manifest.json` of a built app. @throws SizeBudgetError when it is missing (no build, or no `build.manifest`). */
export function readManifest(distDir: string): Manifest {
  const file = path.join(distDir, ".vite", "manifest.json");
  if (!fs.existsSync(file)) {
    throw new SizeBudgetError(
      `size budget: ${file} is missing: build the app first (npm run build -w apps/web, build.manifest: true)`,
    );
  }
  const manifest = JSON.parse(fs.readFileSync(file, "utf8")) as Manifest;
  const modulesFile = path.join(distDir, MODULES_FILE);
  if (!fs.existsSync(modulesFile)) return manifest;
  return withModules(manifest, JSON.parse(fs.readFileSync(modulesFile, "utf8")) as Record<string, string>);
}

/**
 * The manifest with a key for every module that has none of its own, from the build's module map
 * ({@link MODULES_FILE}: module → output file): the key names the chunk the module was put in (a first-screen chunk,
 * src/first-paint/build/first-screen-chunks.ts), so a route's module is found wherever the bundler placed it.
 * Existing keys are kept.
 */
export function withModules(manifest: Manifest, modules: Readonly<Record<string, string>>): Manifest {
  const byFile = new Map(Object.values(manifest).map((chunk) => [chunk.file, chunk] as const));
  const out: Manifest = { ...manifest };
  for (const [module, file] of Object.entries(modules)) {
    const chunk = byFile.get(file);
    if (chunk && !out[module]) out[module] = chunk;
  }
  return out;
}

/** Measures the routes of a built app (see {@link measureRoutes}). @throws SizeBudgetError as readManifest and measureRoutes. */
export function measureDist(distDir: string, opts: Partial<Omit<MeasureOptions, "manifest" | "readFile">> = {}) {
  return measureRoutes({
    ...opts,
    manifest: readManifest(distDir),
    readFile: (file) => fs.readFileSync(path.join(distDir, file)),
  });
}

/** Kilobytes (1000 bytes, as Vite prints) with one decimal. */
export function kb(bytes: number): string {
  return (bytes / 1000).toFixed(1);
}

/** The Markdown table of route sizes: route, language, files, raw KB, gzip KB, budget KB and the verdict. */
export function formatBudgetTable(sizes: RouteSize[]): string {
  const lines = [
    "| Route | Language | Files | Raw KB | Gzip KB | Limit KB | Goal KB | |",
    "| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |",
    ...sizes.map(
      (s) =>
        `| ${s.path} | ${s.language ?? "(all in entry)"} | ${s.files.length} | ${kb(s.rawBytes)} | ${kb(s.gzipBytes)} | ` +
        `${kb(s.budgetBytes)} | ${kb(BUDGET_GZIP_BYTES)} | ` +
        `${s.overBudget ? `OVER the limit by ${kb(s.gzipBytes - s.budgetBytes)} KB` : s.overGoalBytes ? `within the limit, ${kb(s.overGoalBytes)} KB above the goal` : "ok"} |`,
    ),
  ];
  return lines.join("\n");
}

/**
 * The command: measures `distDir`, prints the table (and the files with `verbose`), returns the exit code: 0 when
 * every route is within budget, 1 when one is over or a configured module is missing (message on `error`).
 */
export function sizeBudgetCli(opts: {
  distDir: string;
  budgetBytes?: number;
  verbose?: boolean;
  log?: (line: string) => void;
  error?: (line: string) => void;
}): number {
  const log = opts.log ?? console.log;
  const error = opts.error ?? console.error;
  let sizes: RouteSize[];
  try {
    sizes = measureDist(opts.distDir, { budgetBytes: opts.budgetBytes });
  } catch (err) {
    if (err instanceof SizeBudgetError) {
      error(err.message);
      return 1;
    }
    throw err;
  }
  log("First-screen JavaScript (entry + static imports + route modules, gzip -9, each file once):\n");
  log(formatBudgetTable(sizes));
  if (opts.verbose) for (const s of sizes) log(`\n${s.path}: ${s.files.join(", ")}`);
  const over = sizes.filter((s) => s.overBudget);
  if (over.length) {
    error(
      `\nsize budget: ${over.map((s) => `${s.path} ${kb(s.gzipBytes)} KB`).join(", ")} over ${kb(over[0].budgetBytes)} KB gzip`,
    );
    return 1;
  }
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const args = process.argv.slice(2);
  const distDir = args.find((a) => !a.startsWith("-")) ?? fileURLToPath(new URL("../dist", import.meta.url));
  process.exitCode = sizeBudgetCli({ distDir, verbose: args.includes("--verbose") });
}
