import { parseAst } from "vite";
import { describe, expect, it } from "vitest";
import {
  ENTRY_MODULE,
  type FirstScreen,
  type ModuleRecord,
  moduleRecord,
  planChunks,
  usedClosure,
} from "./first-screen-chunks.ts";

/**
 * A module graph written as code: module id → source. Specifiers are module ids as they are; `exports` is what the
 * bundler would report (here: the names of `export` statements, star exports resolved one level).
 */
function graph(sources: Record<string, string>) {
  const bodies = new Map(Object.entries(sources).map(([id, code]) => [id, parseAst(code).body as never[]]));
  const importedIds = (id: string) =>
    (bodies.get(id) ?? [])
      .map((n: { source?: { value: string } | null }) => n.source?.value)
      .filter((v): v is string => typeof v === "string");
  type Declaration = { id?: { name: string }; declarations?: Array<{ id: { name: string } }> };
  const declared = (d: Declaration | undefined) =>
    d?.id ? [d.id.name] : (d?.declarations ?? []).map((v) => v.id.name);
  const ownExports = (id: string): string[] =>
    (bodies.get(id) ?? []).flatMap(
      (n: { type: string; specifiers?: Array<{ exported?: { name?: string } }>; declaration?: Declaration }) =>
        n.type === "ExportNamedDeclaration"
          ? [...(n.specifiers ?? []).map((s) => s.exported?.name ?? ""), ...declared(n.declaration)]
          : n.type === "ExportDefaultDeclaration"
            ? ["default"]
            : [],
    );
  const loads: string[] = [];
  const load = async (id: string): Promise<ModuleRecord | null> => {
    loads.push(id);
    const body = bodies.get(id);
    if (!body) return null;
    return moduleRecord(body, (s) => (bodies.has(s) ? s : null), importedIds(id), ownExports(id));
  };
  return { load, loads };
}

describe("usedClosure", () => {
  it("follows a barrel's re-exports only for the names used through it", async () => {
    const { load } = graph({
      entry: 'import { Button } from "barrel"; Button();',
      barrel: 'import "global"; export { default as Button } from "button"; export { default as Popup } from "popup";',
      global: "document.body;",
      button: 'import "button-css"; export default function Button() {}',
      "button-css": "",
      popup: 'import "spring"; export default function Popup() {}',
      spring: "",
    });
    expect([...(await usedClosure(["entry"], load))].sort()).toEqual([
      "barrel",
      "button",
      "button-css",
      "entry",
      "global",
    ]);
  });

  it("takes every re-export for a namespace import, and a module's own imports once any of its exports is used", async () => {
    const { load } = graph({
      entry: 'import * as all from "barrel"; import { helper } from "util"; all; helper;',
      barrel: 'export { a } from "a"; export * from "b";',
      a: "export const a = 1;",
      b: 'import { deep } from "deep"; export const b = deep;',
      deep: "export const deep = 2; export const unused = 3;",
      util: 'import { x } from "x"; export const helper = 1; export const other = x;',
      x: "export const x = 1;",
    });
    expect([...(await usedClosure(["entry"], load))].sort()).toEqual([
      "a",
      "b",
      "barrel",
      "deep",
      "entry",
      "util",
      "x",
    ]);
  });

  it("forwards a name through `export *` only to the modules that export it", async () => {
    const { load } = graph({
      entry: 'import { two } from "barrel"; two;',
      barrel: 'export * from "one"; export * from "two";',
      one: 'import "heavy"; export const one = 1;',
      heavy: "",
      two: "export const two = 2;",
    });
    expect([...(await usedClosure(["entry"], load))].sort()).toEqual(["barrel", "entry", "two"]);
  });

  it("counts a module it cannot read as reached, without imports, and reads each module once", async () => {
    const { load, loads } = graph({
      entry: 'import { a } from "a"; import { b } from "a"; import "ghost"; a; b;',
      a: "export const a = 1; export const b = 2;",
    });
    const ghostly = async (id: string) => (id === "ghost" ? null : load(id));
    expect([...(await usedClosure(["entry"], ghostly))].sort()).toEqual(["a", "entry", "ghost"]);
    expect(loads.filter((id) => id === "a")).toHaveLength(1);
  });
});

describe("moduleRecord", () => {
  it("counts an import the code does not name (CommonJS require, a plugin's import) as an import of everything", () => {
    const record = moduleRecord(parseAst('import { a } from "a";').body as never[], (s) => s, ["a", "cjs"], []);
    expect(record.imports).toEqual([
      { id: "a", names: ["a"] },
      { id: "cjs", names: "*" },
    ]);
  });
});

describe("planChunks", () => {
  const files: Record<string, string> = {
    [ENTRY_MODULE]: "main",
    "src/login.tsx": "login",
    "src/home.tsx": "home",
    "src/locales/en.json": "start-en",
    "src/features/home/locales/en.json": "home-en",
    "src/features/family/locales/en.json": "family-en",
    "../../node_modules/antd-mobile/es/locales/en-US.js": "antd-en",
  };
  const deps: Record<string, string[]> = {
    main: ["main", "router"],
    login: ["login", "text-field", "user-icon"],
    home: ["home", "card", "user-icon"],
    "start-en": ["start-en"],
    "home-en": ["home-en"],
    "family-en": ["family-en"],
    "antd-en": ["antd-en", "antd-base"],
  };
  const closure = async (roots: readonly string[]) => new Set(roots.flatMap((r) => deps[r] ?? [r]));
  const screens: Record<string, FirstScreen> = {
    login: { modules: ["src/login.tsx"], textGroups: ["start"] },
    home: { modules: ["src/home.tsx"], textGroups: ["start", "home"] },
  };

  it("puts the entry's modules and what the screens share in app, the rest per screen, and texts per group and language", async () => {
    const plan = await planChunks((f) => files[f] ?? null, closure, ["en"], screens);
    expect(Object.fromEntries(plan)).toEqual({
      main: "app",
      router: "app",
      "user-icon": "app",
      login: "login",
      "text-field": "login",
      home: "home",
      card: "home",
      "start-en": "texts-start-en",
      "antd-en": "texts-start-en",
      "antd-base": "texts-start-en",
      "home-en": "texts-home-en",
      "family-en": "texts-home-en",
    });
  });

  it("puts what two languages' texts share in app", async () => {
    const more: Record<string, string> = {
      ...files,
      "src/locales/fr.json": "start-fr",
      "../../node_modules/antd-mobile/es/locales/fr-FR.js": "antd-fr",
    };
    deps["antd-fr"] = ["antd-fr", "antd-base"];
    const plan = await planChunks((f) => more[f] ?? null, closure, ["en", "fr"], screens);
    expect(plan.get("antd-base")).toBe("app");
    expect(plan.get("antd-fr")).toBe("texts-start-fr");
  });

  it("puts a first screen's data starter in app with what it runs", async () => {
    const withStarter: Record<string, string> = { ...files, "src/home-prefetch.ts": "prefetch" };
    deps.prefetch = ["prefetch", "families-query", "card"];
    const plan = await planChunks((f) => withStarter[f] ?? null, closure, ["en"], {
      ...screens,
      home: { ...screens.home, starter: "src/home-prefetch.ts" },
    });
    expect(plan.get("prefetch")).toBe("app");
    expect(plan.get("families-query")).toBe("app");
    // What the screen and its starter both run is loaded with the starter, at start-up.
    expect(plan.get("card")).toBe("app");
    expect(plan.get("home")).toBe("home");
    await expect(
      planChunks((f) => files[f] ?? null, closure, ["en"], { home: { ...screens.home, starter: "src/gone.ts" } }),
    ).rejects.toThrow(/src\/gone\.ts is not in the build/);
  });

  it("puts in app what a first screen shares with what every first screen loads after it is in", async () => {
    const withBackground: Record<string, string> = { ...files, "src/app/background.tsx": "background" };
    deps.background = ["background", "unread", "text-field"];
    deps.home = ["home", "card", "user-icon", "unread"];
    const plan = await planChunks((f) => withBackground[f] ?? null, closure, ["en"], screens);
    // Home's and Login's modules that the background code runs too: in app, so it loads neither screen's chunk.
    expect(plan.get("unread")).toBe("app");
    expect(plan.get("text-field")).toBe("app");
    expect(plan.get("card")).toBe("home");
    // The background code itself stays out of the plan (split by the bundler).
    expect(plan.has("background")).toBe(false);
    deps.home = ["home", "card", "user-icon"];
  });

  it("throws when a first screen's module is not in the build", async () => {
    await expect(
      planChunks((f) => files[f] ?? null, closure, ["en"], { gone: { modules: ["src/gone.tsx"], textGroups: [] } }),
    ).rejects.toThrow(/src\/gone\.tsx is not in the build/);
  });
});
