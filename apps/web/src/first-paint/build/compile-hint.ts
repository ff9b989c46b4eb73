import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Plugin } from "vite";
import { recompress } from "../../../vite-delivery.ts";

/**
 * V8's explicit compile hint (https://v8.dev/blog/explicit-compile-hints): at the very start of a script, it has
 * Chromium compile every function of the file on the thread that streams the file in, beside its download, instead of
 * on the page's main thread the first time each function is called. Other engines read a comment.
 */
export const COMPILE_HINT = "//# allFunctionsCalledOnLoad";

/**
 * `code` with {@link COMPILE_HINT} as its first line (unchanged when it already starts with it). @param code a chunk's
 * JavaScript
 */
export function withCompileHint(code: string): string {
  return code.startsWith(COMPILE_HINT) ? code : `${COMPILE_HINT}\n${code}`;
}

/**
 * A source map (JSON text) of a file that gained one line at its start: every generated position one line down (the
 * mappings start with an empty line). @throws SyntaxError when `map` is not JSON
 */
export function mapOneLineDown(map: string): string {
  const json = JSON.parse(map) as { mappings?: string };
  return JSON.stringify({ ...json, mappings: `;${json.mappings ?? ""}` });
}

/**
 * Starts the chunks `hinted` picks with {@link COMPILE_HINT} (the first screens' chunks hold only what those screens
 * run, and most of the Device screen's tasks after its code arrived were first-call compiles). It works on the written
 * files, after every other plugin's `generateBundle`: Vite puts the preload helper's dependency map at the top of a
 * chunk there, and V8 reads the hint only as the file's first line. For each picked chunk it rewrites the file, its
 * source map (one line down) and its compressed copies (apps/web/vite-delivery.ts `recompress`), and the chunk's code
 * in the bundle, so the service worker's shell hash (`precachePlugin`, after this) covers the hint.
 * @param hinted which chunks get the hint (first-screen-chunks.ts `isFirstScreenChunk`)
 */
export function compileHintPlugin(
  hinted: (chunk: { name: string; isEntry: boolean; fileName: string }) => boolean,
): Plugin {
  let outDir = "dist";
  return {
    name: "aquapilot-compile-hint",
    apply: "build",
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    writeBundle: {
      order: "pre",
      handler(_options, bundle) {
        for (const chunk of Object.values(bundle)) {
          if (chunk.type !== "chunk" || !hinted(chunk) || chunk.code.startsWith(COMPILE_HINT)) continue;
          chunk.code = withCompileHint(chunk.code);
          const file = path.join(outDir, chunk.fileName);
          writeFileSync(file, chunk.code);
          recompress(file);
          const map = bundle[`${chunk.fileName}.map`];
          if (map?.type === "asset") {
            map.source = mapOneLineDown(readFileSync(`${file}.map`, "utf8"));
            writeFileSync(`${file}.map`, map.source);
          }
        }
      },
    },
  };
}
