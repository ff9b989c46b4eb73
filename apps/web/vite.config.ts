import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";

/** Where the API server runs in development; `vite` proxies the server's paths there (spec §7). */
const API_URL = process.env.API_URL ?? "http://127.0.0.1:8080";

/**
 * React 19 lives in apps/web/node_modules while an older React peer copy is hoisted to the repository root;
 * every import of react / react-dom (ours and antd-mobile's) must resolve to this workspace's copy.
 */
const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));
const reactAliases = [
  { find: /^react$/, replacement: here("./node_modules/react/index.js") },
  { find: /^react\/(.*)$/, replacement: here("./node_modules/react/$1") },
  { find: /^react-dom$/, replacement: here("./node_modules/react-dom/index.js") },
  { find: /^react-dom\/(.*)$/, replacement: here("./node_modules/react-dom/$1") },
];

/** Vite build, dev server (proxy to the API) and the "web" vitest project (happy-dom). */
export default defineConfig({
  plugins: [react()],
  resolve: { alias: reactAliases, dedupe: ["react", "react-dom"] },
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
    chunkSizeWarningLimit: 800,
    rolldownOptions: {
      output: {
        // Rolldown's successor of manualChunks: antd-mobile (and its icons) get a chunk of their own.
        codeSplitting: {
          groups: [{ name: "antd-mobile", test: /node_modules[\\/]antd-mobile(-icons)?[\\/]/, priority: 10 }],
        },
      },
    },
  },
  test: {
    name: "web",
    environment: "happy-dom",
    include: ["src/**/*.test.{ts,tsx}"],
    // Inline (transform) every dependency so the React aliases above apply inside antd-mobile and its helpers
    // (ahooks, rc-*, react-spring) too; the ESM build of @testing-library/react, because its CommonJS build would
    // require the hoisted React 18.
    alias: { "@testing-library/react": here("../../node_modules/@testing-library/react/dist/@testing-library/react.esm.js") },
    server: { deps: { inline: true } },
  },
});
