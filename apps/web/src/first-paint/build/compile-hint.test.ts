import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { COMPILE_HINT, compileHintPlugin, mapOneLineDown, withCompileHint } from "./compile-hint.ts";
import { isFirstScreenChunk } from "./first-screen-chunks.ts";

describe("V8's compile hint on the first screens' chunks (compiled beside the download)", () => {
  let dir = "";
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("is the first line, once", () => {
    expect(withCompileHint("const a=1;")).toBe(`${COMPILE_HINT}\nconst a=1;`);
    expect(withCompileHint(withCompileHint("x"))).toBe(`${COMPILE_HINT}\nx`);
  });

  it("moves a source map's generated lines down by one", () => {
    const map = JSON.stringify({ version: 3, sources: ["a.ts"], names: [], mappings: "AAAA;AACA" });
    expect(JSON.parse(mapOneLineDown(map))).toEqual({
      version: 3,
      sources: ["a.ts"],
      names: [],
      mappings: ";AAAA;AACA",
    });
  });

  it("picks the entry, app and the first screens' own chunks, not a screen opened later", () => {
    const picked = (name: string, isEntry = false) => isFirstScreenChunk({ name, isEntry });
    expect(["app", "login", "home", "device"].map((n) => picked(n))).toEqual([true, true, true, true]);
    expect(picked("index", true)).toBe(true);
    expect(picked("fault-screen")).toBe(false);
    expect(picked("hub-connection")).toBe(false);
    expect(picked("toString")).toBe(false);
  });

  it("rewrites a picked chunk's file, source map and compressed copies, and its code in the bundle; leaves the rest", () => {
    dir = mkdtempSync(path.join(os.tmpdir(), "hint-"));
    // Long enough for both compressed copies to be smaller than the file (a copy that is not is left out).
    const code = `const __vite__mapDeps=(i)=>i;${"export const a=()=>1;".repeat(20)}\n//# sourceMappingURL=app-1.js.map`;
    const map = JSON.stringify({ version: 3, sources: ["a.ts"], names: [], mappings: "AAAA" });
    const other = "export const b=()=>2;";
    writeFileSync(path.join(dir, "app-1.js"), code);
    writeFileSync(path.join(dir, "app-1.js.map"), map);
    writeFileSync(path.join(dir, "later-1.js"), other);
    const bundle = {
      "app-1.js": { type: "chunk", name: "app", isEntry: false, fileName: "app-1.js", code },
      "app-1.js.map": { type: "asset", fileName: "app-1.js.map", source: map },
      "later-1.js": { type: "chunk", name: "later", isEntry: false, fileName: "later-1.js", code: other },
    };
    const plugin = compileHintPlugin((c) => c.name === "app");
    (plugin.configResolved as (c: unknown) => void)({ root: dir, build: { outDir: "." } });
    const hook = plugin.writeBundle as { handler: (o: unknown, b: unknown) => void };
    hook.handler({}, bundle);

    const written = readFileSync(path.join(dir, "app-1.js"), "utf8");
    expect(written).toBe(`${COMPILE_HINT}\n${code}`);
    expect(bundle["app-1.js"].code).toBe(written);
    expect(zlib.brotliDecompressSync(readFileSync(path.join(dir, "app-1.js.br"))).toString()).toBe(written);
    expect(zlib.gunzipSync(readFileSync(path.join(dir, "app-1.js.gz"))).toString()).toBe(written);
    expect(JSON.parse(readFileSync(path.join(dir, "app-1.js.map"), "utf8")).mappings).toBe(";AAAA");
    expect(JSON.parse(bundle["app-1.js.map"].source).mappings).toBe(";AAAA");
    expect(readFileSync(path.join(dir, "later-1.js"), "utf8")).toBe(other);
    expect(bundle["later-1.js"].code).toBe(other);
    // A second pass changes nothing (the hint is there once).
    hook.handler({}, bundle);
    expect(readFileSync(path.join(dir, "app-1.js"), "utf8")).toBe(written);
  });
});
