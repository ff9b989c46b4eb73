import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import react from "@vitejs/plugin-react";
import type { Plugin } from "vite";
import { defineConfig } from "vitest/config";
import { compileHintPlugin } from "./vite-compile-hint.ts";
import { deliveryPlugins } from "./vite-delivery.ts";
import { firstScreenChunks, isFirstScreenChunk } from "./vite-first-screen.ts";
import { iconPlugin } from "./vite-icons.ts";
import { prerenderPlugin } from "./vite-prerender.ts";

/**
 * The build's version, for the web version check: `define`s `__APP_VERSION__` (package.json version) and
 * `__WEB_VERSION__` (package version + build time, or `WEB_VERSION` from the environment), writes
 * `{"version": …}` to `dist/version.json` and serves the same at `/version.json` in development. The app reads
 * that file without cache at start and every 10 minutes (src/features/settings/web-version.ts).
 */
function versionPlugin(): Plugin {
  const pkg = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8")) as { version: string };
  const stamp = new Date()
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");
  const version = process.env.WEB_VERSION || `${pkg.version}+${stamp}`;
  const json = `${JSON.stringify({ version })}\n`;
  return {
    name: "aquapilot-version",
    config: () => ({
      define: { __APP_VERSION__: JSON.stringify(pkg.version), __WEB_VERSION__: JSON.stringify(version) },
    }),
    configureServer(server) {
      server.middlewares.use("/version.json", (_req, res) => {
        res.setHeader("Content-Type", "application/json");
        res.setHeader("Cache-Control", "no-store");
        res.end(json);
      });
    },
    generateBundle() {
      this.emitFile({ type: "asset", fileName: "version.json", source: json });
    },
  };
}

/** Where the API server runs in development; `vite` proxies the server's paths there (spec §7). */
const API_URL = process.env.API_URL ?? "http://127.0.0.1:8080";

/**
 * The production build runs the app's React code on Preact: React's API through
 * `preact/compat` (by way of preact-react.js, which declares the React 19 hook Preact lacks), 11 KB of gzip instead of
 * react-dom's 64 KB on every first screen. The development server and the
 * unit tests keep React 19 (Fast Refresh, Testing Library); the browser tests run the built app, on Preact. The
 * build-time Login copy (vite-prerender.ts) is rendered with React's `renderToString`: these aliases are left out
 * there.
 */
export const PREACT_ALIASES = [
  { find: /^react$/, replacement: fileURLToPath(new URL("./preact-react.js", import.meta.url)) },
  { find: /^react-dom$/, replacement: "preact/compat" },
  { find: /^react-dom\/client$/, replacement: "preact/compat/client" },
  { find: /^react\/jsx-runtime$/, replacement: "preact/jsx-runtime" },
  { find: /^react\/jsx-dev-runtime$/, replacement: "preact/jsx-runtime" },
];

/**
 * React Router's production build for the production bundle: the package's exports name only its development build,
 * which differs in one constant (`ENABLE_DEV_WARNINGS = true`), so its warnings' checks ran on every phone's
 * navigation. The same module otherwise; the development server and the unit tests keep the package's own.
 */
export const REACT_ROUTER_PRODUCTION = {
  find: /^react-router$/,
  replacement: fileURLToPath(
    new URL(
      "dist/production/index.mjs",
      pathToFileURL(createRequire(import.meta.url).resolve("react-router/package.json")),
    ),
  ),
};

/** The first screens' chunks (vite-first-screen.ts): its plugin plans them, its group applies the plan. */
const firstScreen = firstScreenChunks();

/**
 * Chunks the app imports only after the first screen is in (the real-time client, the pull gesture, the background
 * watchers): their own imports are not preloaded with `<link rel="modulepreload">` when they are asked for — the browser
 * finds them in the chunk a moment later, which costs them nothing the owner waits for — because adding a dozen links
 * in one go was one main-thread task of 15-20 ms (60-70 ms at Lighthouse's ×4) inside Home's start-up.
 * Their stylesheets are still added (Vite loads a lazy chunk's CSS only this way).
 */
const AFTER_FIRST_SCREEN_CHUNKS = /(^|\/)(hub-connection|pull-to-refresh-impl|background)-[\w-]+\.js$/;

/**
 * Chunks every start loads once the first screen is in (the real-time client and its checks, the background watchers
 * and the update check, the pull gesture): all their functions run then too, so they get V8's compile hint as the
 * first screens' chunks do (vite-compile-hint.ts: compiled beside the download, off the main thread).
 */
const STARTED_AFTER_FIRST_SCREEN =
  /(^|\/)(hub-connection|hub-checks|background|app-update-watch|pull-to-refresh-impl)-[\w-]+\.js$/;

/** Vite build, dev server (proxy to the API) and the "web" vitest project (happy-dom). */
export default defineConfig(({ command }) => ({
  plugins: [
    react(),
    iconPlugin(),
    firstScreen.plugin,
    versionPlugin(),
    prerenderPlugin(),
    compileHintPlugin((chunk) => isFirstScreenChunk(chunk) || STARTED_AFTER_FIRST_SCREEN.test(chunk.fileName)),
    ...deliveryPlugins(),
  ],
  resolve: {
    dedupe: ["react", "react-dom"],
    // Every `import … from "zod"` in the web build (the contract's too) goes through shared/zod-jitless.ts, which turns
    // zod's JIT off before any schema is built (the strict CSP allows no 'unsafe-eval') — whichever lazy chunk loads
    // zod first.
    alias: [
      ...(command === "build" ? [...PREACT_ALIASES, REACT_ROUTER_PRODUCTION] : []),
      { find: /^zod$/, replacement: fileURLToPath(new URL("./src/shared/zod-jitless.ts", import.meta.url)) },
      // antd-mobile's default overlay render (rc-util's, CommonJS with Babel's regenerator runtime) is replaced by the
      // React 19 render main.tsx sets anyway (shared/ui/antd-render.ts), so the first screen carries one implementation.
      {
        find: /^rc-util\/lib\/React\/render$/,
        replacement: fileURLToPath(new URL("./src/shared/ui/antd-render.ts", import.meta.url)),
      },
    ],
  },
  server: {
    proxy: {
      "/api": { target: API_URL, changeOrigin: true },
      "/connect": { target: API_URL, changeOrigin: true },
      "/signalr-hubs": { target: API_URL, changeOrigin: true, ws: true },
      "/dev": { target: API_URL, changeOrigin: true },
    },
  },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    // dist/.vite/manifest.json: the chunk graph the size budget reads (apps/web/scripts/size-budget.ts).
    manifest: true,
    modulePreload: {
      resolveDependencies: (filename, deps, { hostType }) =>
        hostType === "js" && AFTER_FIRST_SCREEN_CHUNKS.test(filename) ? deps.filter((d) => d.endsWith(".css")) : deps,
    },
    chunkSizeWarningLimit: 800,
    // Few files for the first screens, the rest split finely (fewer round trips before the first paint): the
    // first-screen group (vite-first-screen.ts) puts what the entry, Login and Home run, and their texts per language,
    // in a handful of chunks; every other module is split per screen and per shared module, so a screen opened later
    // loads only the antd-mobile components, icons and contract parts it uses. What is left of TanStack Query's core is
    // one chunk.
    rolldownOptions: {
      // Any warning of the bundler fails the build: each one seen here was a defect of the bundle (an import that
      // would always be undefined, a module evaluated twice), and a warning in a log that always has some goes unread.
      // The one exception is about the machine, not the bundle: how long plugins ran (longer on a loaded machine).
      checks: { bundlerTimings: false },
      onwarn(warning) {
        throw new Error(`the build warned (${warning.code ?? "warning"}): ${warning.message}`);
      },
      output: {
        codeSplitting: {
          groups: [
            ...firstScreen.groups,
            { name: "query-core", test: /node_modules[\\/]@tanstack[\\/](query-core|react-query)[\\/]/ },
          ],
        },
      },
    },
  },
  test: {
    name: "web",
    environment: "happy-dom",
    include: ["src/**/*.test.{ts,tsx}"],
    setupFiles: ["./src/test-setup.ts"],
  },
}));
