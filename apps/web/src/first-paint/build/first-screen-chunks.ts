import path from "node:path";
import type { Language } from "@aquapilot/contract/wire";
import type { Plugin, Rolldown } from "vite";
import { localeFile, TEXT_GROUPS, type TextGroup } from "../../shared/i18n/groups.ts";

type CodeSplittingGroup = NonNullable<
  Exclude<NonNullable<Rolldown.OutputOptions["codeSplitting"]>, boolean>["groups"]
>[number];

/**
 * First screens in few files, so a phone opens them fast. Left alone, the bundler
 * splits per screen and per shared module, which is right for the screens opened later but puts Home's first screen in
 * about fifty files of 0.3–6 KB: on a phone's HTTP/1.1 connections (six per host) that is some ten round trips
 * before the first paint. This plugin reads the module graph at the end of the build and captures, with an output
 * `codeSplitting` group ({@link firstScreenChunks}):
 * - `app`: what the entry (src/main.tsx) runs — its static imports, recursively, followed by name through barrels
 *   ({@link usedClosure}) — and what the first screens share;
 * - one chunk per first screen (`login`, `home`, `device`): what its modules ({@link FIRST_SCREENS}) run, less the
 *   above;
 * - per language, one chunk of each first screen's texts (the locale files of its text groups) and, with the start
 *   texts, antd-mobile's locale for that language.
 * Every other module is split as before, so a screen opened later still loads only its own code (it may load a first
 * screen's chunk when it uses one of its modules: that chunk is then in the cache already, or small).
 */

/** A first screen: the modules it runs besides the entry (paths relative to apps/web) and its text groups. */
export interface FirstScreen {
  /** Source modules, e.g. "src/features/home/screens/home-screen.tsx" (the route's screen and layout). */
  modules: readonly string[];
  /** The text groups the route declares in src/app/routes.ts (src/shared/i18n/groups.ts). */
  textGroups: readonly TextGroup[];
  /**
   * The route's data starter (its `data` in src/app/routes.ts), which goes in `app` with what it runs: its calls then
   * leave as soon as start-up asks for them, not after the screen's chunk has been fetched, evaluated and linked (a
   * dynamic import of a preloaded chunk still resolves some tasks later, behind the first render and its layout).
   */
  starter?: string;
}

/** The screens an app start opens, each in a handful of files, by chunk name. */
export const FIRST_SCREENS: Readonly<Record<string, FirstScreen>> = {
  login: { modules: ["src/features/account/screens/login-screen.tsx"], textGroups: ["start"] },
  home: {
    modules: ["src/app/index-layout.tsx", "src/features/home/screens/home-screen.tsx"],
    textGroups: ["start", "home"],
    starter: "src/features/home/prefetch.ts",
  },
  // The Device screen: opened first from a push, a message or a link (spec §2); it must be interactive within 2 s.
  device: {
    modules: ["src/features/device/screens/device-screen.tsx"],
    textGroups: ["start", "home", "device"],
    starter: "src/features/device/prefetch.ts",
  },
};

/** Every module a first screen runs besides the entry: its modules, then its data starter when it has one. */
export function screenModules(screen: FirstScreen): string[] {
  return screen.starter ? [...screen.modules, screen.starter] : [...screen.modules];
}

/**
 * Where every module went, written next to Vite's manifest: `{ "src/…/home-screen.tsx": "assets/home-….js" }` for
 * every module of every chunk (paths relative to apps/web). Vite's manifest names a chunk by the module it was built
 * from, and a module captured in a first-screen chunk has none of its own: the size budget
 * (scripts/size-budget.ts) finds it here.
 */
export const MODULES_FILE = ".vite/modules.json";

/** The app's entry module (index.html's script), relative to apps/web. */
export const ENTRY_MODULE = "src/main.tsx";

/**
 * What every first screen loads once it is in (the app-update check and the message centre, src/app/app.tsx), relative
 * to apps/web: a module it shares with one first screen goes to `app`, or the Device screen would load Home's and
 * Login's chunks for two small helpers each (their download and compilation after the first paint).
 */
export const AFTER_EVERY_FIRST_SCREEN = ["src/app/background.tsx"] as const;

/**
 * The interface languages of spec §1 (the contract's `LANGUAGES`, written out: the build's configuration loads this
 * file before the workspace's TypeScript packages can be imported; the type keeps the two lists the same).
 */
export const LANGUAGES = ["zh-Hans", "en", "es", "ru", "fr"] as const satisfies readonly Language[];

/** antd-mobile's locale modules, relative to apps/web. */
export const ANTD_LOCALE_DIR = "../../node_modules/antd-mobile/es/locales";

/** antd-mobile's locale module per app language (zh-Hans: its default, bundled with the entry). */
export const ANTD_LOCALES: Readonly<Record<string, string | null>> = {
  "zh-Hans": null,
  en: "en-US",
  es: "es-ES",
  ru: "ru-RU",
  fr: "fr-FR",
};

/** One module as the walk needs it: what its own code imports, what it re-exports, and its exports. */
export interface ModuleRecord {
  /** Static imports of its own code: target module id and the names used (`"*"`: a namespace or unknown). */
  imports: ReadonlyArray<{ id: string; names: readonly string[] | "*" }>;
  /** Named re-exports: exported name → the module and name it comes from (`"*"`: `export * as name from`). */
  reexports: ReadonlyMap<string, { id: string; name: string }>;
  /** `export * from` sources. */
  stars: readonly string[];
  /** Every name the module exports (its own, re-exported and star-exported), as the bundler reports them. */
  exports: readonly string[];
}

/** `load` called at most once per module id: later calls share the first one's promise. */
function onceEach<T>(load: (id: string) => Promise<T>): (id: string) => Promise<T> {
  const started = new Map<string, Promise<T>>();
  return (id) => {
    let result = started.get(id);
    if (!result) {
      result = load(id);
      started.set(id, result);
    }
    return result;
  };
}

/**
 * Every module the code reached from `roots` runs, following static imports by name (dynamic imports are not
 * followed): a module whose export is used runs with all its own imports, but a re-export is followed only when the
 * name it re-exports is used, so a barrel such as antd-mobile's index brings only the components imported through it
 * (as the bundler's tree-shaking does). A module `load` cannot read (null) counts as reached, without imports; each
 * module is read once.
 */
export async function usedClosure(
  roots: readonly string[],
  load: (id: string) => Promise<ModuleRecord | null>,
): Promise<Set<string>> {
  const reached = new Map<string, { all: boolean; names: Set<string> }>();
  const read = onceEach(load);
  const queue: Array<{ id: string; names: readonly string[] | "*" }> = roots.map((id) => ({ id, names: "*" }));
  while (queue.length > 0) {
    const { id, names } = queue.shift() as { id: string; names: readonly string[] | "*" };
    let state = reached.get(id);
    const first = !state;
    if (!state) {
      state = { all: false, names: new Set() };
      reached.set(id, state);
    }
    if (state.all) continue;
    const fresh = names === "*" ? "*" : names.filter((n) => !state.names.has(n));
    if (!first && fresh !== "*" && fresh.length === 0) continue;
    if (fresh === "*") state.all = true;
    else for (const n of fresh) state.names.add(n);
    const record = await read(id);
    if (!record) continue;
    if (first) queue.push(...record.imports);
    const wanted = fresh === "*" ? [...record.reexports.keys()] : fresh;
    for (const name of wanted) {
      const from = record.reexports.get(name);
      if (from) {
        queue.push({ id: from.id, names: from.name === "*" ? "*" : [from.name] });
        continue;
      }
      if (fresh === "*") continue;
      for (const star of record.stars) {
        const target = await read(star);
        if (!target || target.exports.includes(name)) queue.push({ id: star, names: [name] });
      }
    }
    if (fresh === "*") for (const star of record.stars) queue.push({ id: star, names: "*" });
  }
  return new Set(reached.keys());
}

/** An ESTree node as far as {@link moduleRecord} reads it. */
interface EsNode {
  type: string;
  source?: { value: string } | null;
  specifiers?: Array<{ type: string; imported?: EsName; local?: EsName; exported?: EsName }>;
  exported?: EsName | null;
  importKind?: string;
  exportKind?: string;
}
/** An identifier or a string literal used as a module export name. */
type EsName = { name?: string; value?: string };
const nameOf = (n: EsName | undefined | null) => String(n?.name ?? n?.value ?? "");

/**
 * A module's {@link ModuleRecord} from its parsed code (`body`: the ESTree program's statements). `resolve` maps an
 * import's specifier to the module id the bundler chose (null: unknown); the module's static imports the code does
 * not name (CommonJS `require`, imports a plugin adds later) count as imports of everything, so nothing it needs is
 * left out.
 */
export function moduleRecord(
  body: readonly EsNode[],
  resolve: (specifier: string) => string | null,
  importedIds: readonly string[],
  exports: readonly string[],
): ModuleRecord {
  const imports: Array<{ id: string; names: readonly string[] | "*" }> = [];
  const reexports = new Map<string, { id: string; name: string }>();
  const stars: string[] = [];
  const named = new Set<string>();
  for (const node of body) {
    const id = node.source ? resolve(node.source.value) : null;
    if (!id) continue;
    if (node.type === "ImportDeclaration" && node.importKind !== "type") {
      named.add(id);
      const specs = node.specifiers ?? [];
      if (specs.some((s) => s.type === "ImportNamespaceSpecifier")) imports.push({ id, names: "*" });
      else
        imports.push({
          id,
          names: specs.map((s) => (s.type === "ImportDefaultSpecifier" ? "default" : nameOf(s.imported))),
        });
    } else if (node.type === "ExportNamedDeclaration" && node.exportKind !== "type") {
      named.add(id);
      for (const s of node.specifiers ?? []) reexports.set(nameOf(s.exported), { id, name: nameOf(s.local) });
    } else if (node.type === "ExportAllDeclaration" && node.exportKind !== "type") {
      named.add(id);
      if (node.exported) reexports.set(nameOf(node.exported), { id, name: "*" });
      else stars.push(id);
    }
  }
  for (const id of importedIds) if (!named.has(id)) imports.push({ id, names: "*" });
  return { imports, reexports, stars, exports };
}

/** Which chunk each captured module goes to: module id → group name. */
export type ChunkPlan = Map<string, string>;

/**
 * Adds chunks to `plan`: each of `parts` (chunk name → root module ids) takes what its roots run (`closure`), except
 * modules already planned; a module two parts run goes to `app` instead (so no part loads another's chunk), and so
 * does a module of a part that `sharedWith` (modules run by code every part loads later) also holds.
 */
async function planParts(
  plan: ChunkPlan,
  parts: ReadonlyMap<string, readonly string[]>,
  closure: (roots: readonly string[]) => Promise<Set<string>>,
  sharedWith: ReadonlySet<string> = new Set(),
): Promise<void> {
  const closures: Array<readonly [string, Set<string>]> = [];
  for (const [name, roots] of parts) closures.push([name, await closure(roots)] as const);
  const partsOf = new Map<string, number>();
  for (const [, ids] of closures) for (const id of ids) partsOf.set(id, (partsOf.get(id) ?? 0) + 1);
  for (const id of sharedWith) if (partsOf.has(id)) partsOf.set(id, (partsOf.get(id) ?? 0) + 1);
  for (const [id, count] of partsOf) if (count > 1 && !plan.has(id)) plan.set(id, "app");
  for (const [name, ids] of closures) for (const id of ids) if (!plan.has(id)) plan.set(id, name);
}

/**
 * The chunk plan: `app` ← what the entry and the first screens' data starters run, every module two first screens
 * share and every module of a first screen that {@link AFTER_EVERY_FIRST_SCREEN} runs too; each first screen ← the rest
 * of what its modules run; `texts-{group}-{lang}` ← the locale files of that text group in that language (the start
 * group also takes antd-mobile's locale), with what they import (what two of them share goes to `app`). `resolve`
 * maps a path relative to apps/web to its module id (null when the build has no such module); `closure` is
 * {@link usedClosure} over the build's graph. Modules no first screen runs are left out (the bundler splits them).
 * @throws Error when the entry or a first screen's module is not in the build (renamed or moved).
 */
export async function planChunks(
  resolve: (file: string) => string | null,
  closure: (roots: readonly string[]) => Promise<Set<string>>,
  languages: readonly string[],
  screens: Readonly<Record<string, FirstScreen>> = FIRST_SCREENS,
): Promise<ChunkPlan> {
  const must = (file: string) => {
    const id = resolve(file);
    if (!id) throw new Error(`first-screen chunks: ${file} is not in the build`);
    return id;
  };
  const plan: ChunkPlan = new Map();
  const starters = Object.values(screens).flatMap((s) => (s.starter ? [must(s.starter)] : []));
  for (const id of await closure([must(ENTRY_MODULE), ...starters])) plan.set(id, "app");
  // What every first screen loads after it is in: it runs no part of its own (the bundler splits it), but what it
  // shares with a first screen goes to app. A build without it (the unit tests' graphs) shares nothing.
  const later = AFTER_EVERY_FIRST_SCREEN.flatMap((file) => resolve(file) ?? []);
  const sharedLater = later.length > 0 ? await closure(later) : new Set<string>();
  await planParts(
    plan,
    new Map(Object.entries(screens).map(([name, s]) => [name, s.modules.map(must)])),
    closure,
    sharedLater,
  );
  const texts = new Map<string, string[]>();
  const groups = new Set(Object.values(screens).flatMap((s) => s.textGroups));
  for (const lang of languages) {
    for (const group of groups) {
      const files = TEXT_GROUPS[group].map((area) => localeFile(area, lang));
      const antd = group === "start" ? ANTD_LOCALES[lang] : null;
      if (antd) files.push(`${ANTD_LOCALE_DIR}/${antd}.js`);
      texts.set(
        `texts-${group}-${lang}`,
        files.map(resolve).filter((id): id is string => id !== null),
      );
    }
  }
  await planParts(plan, texts, closure);
  return plan;
}

/**
 * The plugin and the `codeSplitting` groups it fills: put `groups` in `build.rolldownOptions.output.codeSplitting`
 * and `plugin` in `plugins`. The plan is made in `buildEnd` (the whole module graph is known then) and read by the
 * groups' `test` and `name` while the output is chunked.
 */
export function firstScreenChunks(): { plugin: Plugin; groups: CodeSplittingGroup[] } {
  let root = process.cwd();
  let plan: ChunkPlan = new Map();
  const norm = (id: string) => id.replaceAll("\\", "/");
  const plugin: Plugin = {
    name: "aquapilot-first-screen-chunks",
    apply: "build",
    configResolved(config) {
      root = config.root;
    },
    async buildEnd(error) {
      if (error) return;
      const byPath = new Map<string, string>();
      for (const id of this.getModuleIds()) byPath.set(norm(id), id);
      const resolve = (file: string) => byPath.get(norm(path.resolve(root, file))) ?? null;
      // Each module is parsed and its specifiers resolved once for the whole plan (every closure reads the same ones).
      const parse = async (id: string): Promise<ModuleRecord | null> => {
        const info = this.getModuleInfo(id);
        if (!info) return null;
        let body: EsNode[] = [];
        try {
          body = info.code ? (this.parse(info.code, { lang: "tsx" } as never).body as unknown as EsNode[]) : [];
        } catch {
          body = []; // not JavaScript (a stylesheet's stub…): its imports count whole
        }
        const specifiers = new Map<string, string | null>();
        for (const node of body)
          if (node.source && !specifiers.has(node.source.value)) {
            const resolved = await this.resolve(node.source.value, id);
            specifiers.set(node.source.value, resolved && !resolved.external ? resolved.id : null);
          }
        return moduleRecord(body, (s) => specifiers.get(s) ?? null, info.importedIds, info.exports ?? []);
      };
      const read = onceEach(parse);
      plan = await planChunks(resolve, (roots) => usedClosure(roots, read), LANGUAGES);
    },
    generateBundle(_options, bundle) {
      const modules: Record<string, string> = {};
      for (const chunk of Object.values(bundle))
        if (chunk.type === "chunk")
          for (const id of chunk.moduleIds)
            if (path.isAbsolute(id)) modules[norm(path.relative(root, id))] = chunk.fileName;
      this.emitFile({ type: "asset", fileName: MODULES_FILE, source: `${JSON.stringify(modules, null, 1)}\n` });
    },
  };
  // One group, named per module by the plan. `includeDependenciesRecursively: false`: the plan already holds what a
  // chunk's modules run; the bundler's own rule would also take every module a barrel names (all of antd-mobile).
  const groups: CodeSplittingGroup[] = [
    {
      name: (id: string) => plan.get(id) ?? null,
      debugName: "first-screen",
      priority: 1,
      test: (id: string) => plan.has(id),
      includeDependenciesRecursively: false,
    },
  ];
  return { plugin, groups };
}
