import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import {
  firstScreenFiles,
  LANGUAGES,
  type Manifest,
  measureRoutes,
  ROUTES,
  type RouteBudget,
  SizeBudgetError,
  sizeBudgetCli,
  staticClosure,
  withModules,
} from "./size-budget.ts";

// A small fake build: entry → runtime, vendor → shared; the login screen → shared, form → deep; the login screen's
// lazy dialog is a dynamic import only; home → vendor; locales per language of different sizes.
const manifest: Manifest = {
  "index.html": {
    file: "assets/index.js",
    isEntry: true,
    imports: ["_runtime.js", "_vendor.js"],
    dynamicImports: ["src/login.tsx", "src/home.tsx"],
    css: ["assets/index.css"],
  },
  "_runtime.js": { file: "assets/runtime.js" },
  "_vendor.js": { file: "assets/vendor.js", imports: ["_shared.js"] },
  "_shared.js": { file: "assets/shared.js" },
  "src/login.tsx": {
    file: "assets/login.js",
    isDynamicEntry: true,
    imports: ["index.html", "_shared.js", "_form.js"],
    dynamicImports: ["src/dialog.tsx"],
  },
  "_form.js": { file: "assets/form.js", imports: ["_deep.js"] },
  "_deep.js": { file: "assets/deep.js" },
  "src/dialog.tsx": { file: "assets/dialog.js", isDynamicEntry: true },
  "src/home.tsx": { file: "assets/home.js", isDynamicEntry: true, imports: ["_vendor.js", "index.html"] },
  "src/locales/en.json": { file: "assets/en.js", isDynamicEntry: true },
  "src/locales/fr.json": { file: "assets/fr.js", isDynamicEntry: true, imports: ["_plural.js"] },
  "_plural.js": { file: "assets/plural.js" },
};

/** Deterministic, poorly compressible content of `n` bytes (so gzip sizes differ by file). */
function content(seed: number, n: number): Buffer {
  const out = Buffer.alloc(n);
  let x = seed * 2654435761;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
}

const fileBytes: Record<string, Buffer> = Object.fromEntries(
  Object.values(manifest).map((c, i) => [c.file, content(i + 1, 500 + 300 * i)]),
);
const readFile = (file: string) => {
  const b = fileBytes[file];
  if (!b) throw new Error(`unexpected read of ${file}`);
  return b;
};
const gz = (files: string[]) => files.reduce((s, f) => s + gzipSync(fileBytes[f], { level: 9 }).length, 0);
const raw = (files: string[]) => files.reduce((s, f) => s + fileBytes[f].length, 0);

const login: RouteBudget = { name: "login", path: "#/login", modules: ["src/login.tsx"], perLanguage: [] };
const home: RouteBudget = { name: "home", path: "#/index/home", modules: ["src/home.tsx"], perLanguage: [] };

describe("first-screen JavaScript of a route (the 130 KB gzip size budget)", () => {
  it("follows static imports recursively, never dynamic ones, and counts each file once", () => {
    const files = firstScreenFiles(manifest, login, "en");
    expect(files.sort()).toEqual(
      ["assets/index.js", "assets/runtime.js", "assets/vendor.js", "assets/shared.js", "assets/login.js"]
        .concat(["assets/form.js", "assets/deep.js"])
        .sort(),
    );
    expect(files).not.toContain("assets/dialog.js");
    expect(new Set(files).size).toBe(files.length);
  });

  it("sums raw and gzip -9 bytes over the de-duplicated files", () => {
    const [l, h] = measureRoutes({ manifest, readFile, routes: [login, home], budgetBytes: 1e9 });
    const loginFiles = staticClosure(manifest, ["index.html", "src/login.tsx"], "test");
    expect(l.files.sort()).toEqual(loginFiles.sort());
    expect(l.rawBytes).toBe(raw(loginFiles));
    expect(l.gzipBytes).toBe(gz(loginFiles));
    // home imports the vendor chunk the entry already imports: counted once.
    expect(h.files.filter((f) => f === "assets/vendor.js")).toHaveLength(1);
    expect(h.gzipBytes).toBe(
      gz(["assets/index.js", "assets/runtime.js", "assets/vendor.js", "assets/shared.js", "assets/home.js"]),
    );
    expect(l.overBudget || h.overBudget).toBe(false);
  });

  it("reports the largest language of the per-language modules", () => {
    const withLocales = { ...login, perLanguage: ["src/locales/{lang}.json"] };
    const [r] = measureRoutes({ manifest, readFile, routes: [withLocales], languages: ["en", "fr"] });
    const base = staticClosure(manifest, ["index.html", "src/login.tsx"], "test");
    const en = gz([...base, "assets/en.js"]);
    const fr = gz([...base, "assets/fr.js", "assets/plural.js"]);
    expect(r.language).toBe(fr > en ? "fr" : "en");
    expect(r.gzipBytes).toBe(Math.max(en, fr));
  });

  it("fails with a clear message when a configured module is missing from the manifest", () => {
    const renamed = { ...login, modules: ["src/features/account/screens/old-login.tsx"] };
    expect(() => measureRoutes({ manifest, readFile, routes: [renamed] })).toThrow(SizeBudgetError);
    expect(() => measureRoutes({ manifest, readFile, routes: [renamed] })).toThrow(
      /"src\/features\/account\/screens\/old-login\.tsx" of route "login" is not in the Vite manifest/,
    );
    const noLocale = { ...login, perLanguage: ["src/locales/{lang}.json"] };
    expect(() => measureRoutes({ manifest, readFile, routes: [noLocale], languages: ["en", "ru"] })).toThrow(
      /"src\/locales\/ru\.json" of route "login" \(ru\)/,
    );
  });

  it("finds a module put in a first-screen chunk through the build's module map, keeping the manifest's own keys", () => {
    // The build put the login screen and the form it uses in one chunk built from neither
    // (src/first-paint/build/first-screen-chunks.ts).
    const grouped: Manifest = {
      "index.html": { file: "assets/index.js", isEntry: true, imports: ["_runtime.js"] },
      "_runtime.js": { file: "assets/runtime.js" },
      "_login.js": { file: "assets/login.js", imports: ["_runtime.js"] },
    };
    const modules = {
      "src/login.tsx": "assets/login.js",
      "src/form.tsx": "assets/login.js",
      "index.html": "assets/elsewhere.js",
      "src/gone.tsx": "assets/gone.js",
    };
    const full = withModules(grouped, modules);
    expect(staticClosure(full, ["index.html", "src/login.tsx"], "test")).toEqual([
      "assets/index.js",
      "assets/runtime.js",
      "assets/login.js",
    ]);
    expect(full["index.html"]).toBe(grouped["index.html"]);
    expect(full["src/gone.tsx"]).toBeUndefined();
    expect(() => staticClosure(grouped, ["src/login.tsx"], "test")).toThrow(SizeBudgetError);
  });

  it("marks a route over budget when its gzip bytes exceed it", () => {
    const exact = gz(staticClosure(manifest, ["index.html", "src/login.tsx"], "test"));
    expect(measureRoutes({ manifest, readFile, routes: [login], budgetBytes: exact })[0].overBudget).toBe(false);
    expect(measureRoutes({ manifest, readFile, routes: [login], budgetBytes: exact - 1 })[0].overBudget).toBe(true);
  });
});

describe("size budget command", () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
  });

  /** Writes a fake dist with the app's configured route modules mapped onto the small manifest above. */
  function fakeDist(withManifest = true): string {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "size-budget-"));
    dirs.push(dir);
    fs.mkdirSync(path.join(dir, "assets"));
    for (const [file, bytes] of Object.entries(fileBytes)) fs.writeFileSync(path.join(dir, file), bytes);
    if (withManifest) {
      const real: Manifest = {
        ...manifest,
        "src/features/account/screens/login-screen.tsx": manifest["src/login.tsx"],
        "src/app/index-layout.tsx": { file: "assets/runtime.js" },
        "src/features/home/screens/home-screen.tsx": manifest["src/home.tsx"],
        "src/features/home/prefetch.ts": { file: "assets/runtime.js" },
        "src/features/device/screens/device-screen.tsx": manifest["src/home.tsx"],
        "src/features/device/prefetch.ts": { file: "assets/runtime.js" },
      };
      // The routes' per-language modules (locale files, antd-mobile's locale): one small file for all of them.
      for (const route of ROUTES) {
        for (const m of route.perLanguage) {
          for (const lang of LANGUAGES) {
            for (const antd of ["en-US", "es-ES", "ru-RU", "fr-FR"]) {
              real[m.replaceAll("{lang}", lang).replaceAll("{antd}", antd)] = { file: "assets/runtime.js" };
            }
          }
        }
      }
      fs.mkdirSync(path.join(dir, ".vite"));
      fs.writeFileSync(path.join(dir, ".vite", "manifest.json"), JSON.stringify(real));
    }
    return dir;
  }

  it("exits 0 within budget and 1 over it, naming the route", () => {
    const distDir = fakeDist();
    const out: string[] = [];
    const err: string[] = [];
    const io = { log: (l: string) => out.push(l), error: (l: string) => err.push(l) };
    expect(sizeBudgetCli({ distDir, budgetBytes: 1e9, ...io })).toBe(0);
    expect(out.join("\n")).toMatch(/\| #\/login \| .* \| ok \|/);
    expect(err).toEqual([]);
    expect(sizeBudgetCli({ distDir, budgetBytes: 100, ...io })).toBe(1);
    expect(err.join("\n")).toMatch(/#\/login .* KB, #\/index\/home .* KB, #\/Device .* KB over 0\.1 KB gzip/);
  });

  it("exits 1 with a message when the manifest is missing", () => {
    const err: string[] = [];
    expect(sizeBudgetCli({ distDir: fakeDist(false), log: () => {}, error: (l) => err.push(l) })).toBe(1);
    expect(err.join("\n")).toMatch(/manifest\.json is missing: build the app first/);
  });
});
