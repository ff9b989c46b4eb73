import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import type { Plugin } from "vite";
import { compression, defineAlgorithm } from "vite-plugin-compression2";

/**
 * How the built app is delivered, so a phone opens it fast: every text file of the build compressed once, at the
 * highest settings, beside the original (the server sends the copy the browser accepts,
 * apps/server/src/http/compression.ts), and the service worker's list of the app shell to keep offline (public/sw.js).
 */

/** Files the build compresses: HTML, JS, CSS, JSON, SVG and the web manifest. */
export const PRECOMPRESS = /\.(html|js|mjs|css|json|svg|webmanifest)$/;

/** The brotli settings of the compressed copies: quality 11, the maximum. */
const BROTLI_OPTIONS: zlib.BrotliOptions = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } };

/** The gzip settings of the compressed copies: -9. */
const GZIP_OPTIONS: zlib.ZlibOptions = { level: 9 };

/**
 * Precompresses the build (vite-plugin-compression2): `<file>.br` (brotli, quality 11, the maximum) and `<file>.gz`
 * (gzip -9) beside each file matching {@link PRECOMPRESS}, bundle and public folder alike (public files after the
 * bundle is written, so the worker's precache list of {@link precachePlugin} is in its compressed copies). A copy
 * that would not be smaller is left out; the server then sends the original.
 */
export function precompressPlugin(): Plugin {
  return compression({
    include: PRECOMPRESS,
    threshold: 0,
    algorithms: [defineAlgorithm("brotliCompress", BROTLI_OPTIONS), defineAlgorithm("gzip", GZIP_OPTIONS)],
    skipIfLargerOrEqual: true,
    logLevel: "silent",
  });
}

/** What the service worker learns from the build: a hash of the shell's contents and the shell's files. */
export interface ShellManifest {
  /** 16 hex digits of a SHA-256 over every file's name and content: changes whenever a shell file does. */
  build: string;
  /** The shell's files relative to the worker's scope (`./index.html`, `./assets/…`), sorted. */
  urls: string[];
}

/** Files of the public folder that belong to the shell (the page's icon and manifest; the boot script is inline). */
export const SHELL_PUBLIC_FILES = ["favicon.svg", "manifest.webmanifest"];

/** The marked spot in public/sw.js that {@link injectShellManifest} fills. */
export const SHELL_MARKER = /\/\* shell-manifest \*\/[\s\S]*?\/\* end-shell-manifest \*\//;

/**
 * Whether a file of the build (path relative to dist, `/` separators) belongs to the app shell the worker keeps:
 * index.html and everything under `assets/` (hashed JS, CSS, fonts, icons), without source maps or the `.br` / `.gz`
 * copies (the browser stores what it decoded).
 */
export function isShellFile(fileName: string): boolean {
  if (/\.(map|br|gz)$/.test(fileName)) return false;
  return fileName === "index.html" || fileName.startsWith("assets/") || SHELL_PUBLIC_FILES.includes(fileName);
}

/**
 * The {@link ShellManifest} of `files` (path relative to dist → content); files that are not {@link isShellFile}
 * are left out. Pure: the same contents give the same build hash, so a rebuild of unchanged sources keeps the
 * cache of the phones that have it.
 */
export function shellManifest(files: ReadonlyMap<string, string | Uint8Array>): ShellManifest {
  const names = [...files.keys()].filter(isShellFile).sort();
  const hash = createHash("sha256");
  for (const name of names) {
    hash
      .update(name)
      .update("\0")
      .update(createHash("sha256").update(files.get(name)!).digest())
      .update("\0");
  }
  return { build: hash.digest("hex").slice(0, 16), urls: names.map((n) => `./${n}`) };
}

/**
 * The worker's source with its marked spot ({@link SHELL_MARKER}) replaced by `manifest` as a JS object literal.
 * @throws Error when the source has no marked spot (the worker would precache nothing).
 */
export function injectShellManifest(source: string, manifest: ShellManifest): string {
  if (!SHELL_MARKER.test(source)) throw new Error("sw.js: no /* shell-manifest */ … /* end-shell-manifest */ spot");
  return source.replace(
    SHELL_MARKER,
    () => `/* shell-manifest */ ${JSON.stringify(manifest)} /* end-shell-manifest */`,
  );
}

/**
 * Writes the app shell's {@link ShellManifest} into the built service worker (dist/sw.js, copied from public/sw.js)
 * once the bundle is written: the bundle's shell files (index.html, assets/…) and the public {@link SHELL_PUBLIC_FILES}.
 * Runs before the public files are precompressed ({@link precompressPlugin} does that when the build closes).
 * Fails the build when the worker has no marked spot.
 */
export function precachePlugin(): Plugin {
  let outDir = "dist";
  let publicDir = "public";
  return {
    name: "aquapilot-precache",
    apply: "build",
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
      publicDir = config.publicDir;
    },
    writeBundle: {
      order: "post",
      handler(_options, bundle) {
        const files = new Map<string, string | Uint8Array>();
        for (const [fileName, output] of Object.entries(bundle)) {
          files.set(fileName, output.type === "chunk" ? output.code : output.source);
        }
        for (const name of SHELL_PUBLIC_FILES) {
          const file = path.join(publicDir, name);
          if (existsSync(file)) files.set(name, readFileSync(file));
        }
        const worker = path.join(outDir, "sw.js");
        if (!existsSync(worker)) this.error("dist/sw.js missing: public/sw.js is the app's service worker");
        const manifest = shellManifest(files);
        try {
          writeFileSync(worker, injectShellManifest(readFileSync(worker, "utf8"), manifest));
        } catch (err) {
          this.error(err as Error);
        }
        this.info(`service worker: ${manifest.urls.length} shell files, build ${manifest.build}`);
      },
    },
  };
}

/** The delivery plugins of the build, in order: the worker's shell list first, then the compressed copies. */
export function deliveryPlugins(): Plugin[] {
  return [precachePlugin(), precompressPlugin()];
}
