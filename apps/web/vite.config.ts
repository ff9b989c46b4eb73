import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import type { Plugin } from "vite";
import { configDefaults, defineConfig } from "vitest/config";
import { firstScreenChunks } from "./src/first-paint/build/first-screen-chunks.ts";
import { PREACT_ALIASES, REACT_ROUTER_PRODUCTION } from "./src/first-paint/build/preact.ts";
import { prerenderPlugin } from "./src/first-paint/build/prerender-plugin.ts";
import { deliveryPlugins } from "./vite-delivery.ts";
import { iconPlugin } from "./vite-icons.ts";

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
 * The first screens' chunks (first-paint/build/first-screen-chunks.ts): its plugin plans them, its group applies the
 * plan.
 */
const firstScreen = firstScreenChunks();

/**
 * Chunks the app imports only after the first screen is in (the real-time client, the pull gesture, the background
 * watchers): their own imports are not preloaded with `<link rel="modulepreload">` when they are asked for — the browser
 * finds them in the chunk a moment later, which costs them nothing the owner waits for — because adding a dozen links
 * in one go was one main-thread task of 15-20 ms (60-70 ms at Lighthouse's ×4) inside Home's start-up.
 * Their stylesheets are still added (Vite loads a lazy chunk's CSS only this way).
 */
const AFTER_FIRST_SCREEN_CHUNKS = /(^|\/)(hub-connection|pull-to-refresh-impl|background)-[\w-]+\.js$/;

/** Vite build, dev server (proxy to the API) and the "web" vitest project (happy-dom). */
export default defineConfig(({ command }) => ({
  plugins: [react(), iconPlugin(), firstScreen.plugin, versionPlugin(), prerenderPlugin(), ...deliveryPlugins()],
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
    // first-screen group (first-paint/build/first-screen-chunks.ts) puts what the entry, Login and Home run, and their
    // texts per language, in a handful of chunks; every other module is split per screen and per shared module, so a
    // screen opened later loads only the antd-mobile components, icons and contract parts it uses. What is left of
    // TanStack Query's core is one chunk.
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
    // Every test asserts something (as in the root vitest.config.ts's projects).
    expect: { requireAssertions: true },
    environment: "happy-dom",
    include: ["src/**/*.test.{ts,tsx}"],
    // The build's plugins run in Node: their tests are the root vitest.config.ts "web-scripts" project's.
    exclude: [...configDefaults.exclude, "src/first-paint/build/**"],
    setupFiles: ["./src/test-setup.ts"],
  },
}));
