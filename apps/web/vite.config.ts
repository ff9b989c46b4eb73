import { readFileSync } from "node:fs";
import react from "@vitejs/plugin-react";
import type { Plugin } from "vite";
import { defineConfig } from "vitest/config";

/**
 * The build's version (issue 3 web version check): `define`s `__APP_VERSION__` (package.json version) and
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

/** Vite build, dev server (proxy to the API) and the "web" vitest project (happy-dom). */
export default defineConfig({
  plugins: [react(), versionPlugin()],
  resolve: { dedupe: ["react", "react-dom"] },
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
    // dist/.vite/manifest.json: the chunk graph the size budget reads (apps/web/scripts/size-budget.ts, issue 12).
    manifest: true,
    chunkSizeWarningLimit: 800,
    rolldownOptions: {
      output: {
        // Rolldown's successor of manualChunks: antd-mobile (and its icons) get a chunk of their own; so does zod,
        // together with src/shared/zod-jitless.ts, so zod is jitless before any chunk builds a schema (strict CSP).
        codeSplitting: {
          groups: [
            { name: "antd-mobile", test: /node_modules[\\/]antd-mobile(-icons)?[\\/]/, priority: 10 },
            { name: "zod", test: /node_modules[\\/]zod[\\/]|src[\\/]shared[\\/]zod-jitless\.ts$/, priority: 20 },
          ],
        },
      },
    },
  },
  test: {
    name: "web",
    environment: "happy-dom",
    include: ["src/**/*.test.{ts,tsx}"],
  },
});
