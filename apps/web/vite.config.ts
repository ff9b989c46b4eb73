import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";

/** Where the API server runs in development; `vite` proxies the server's paths there (spec §7). */
const API_URL = process.env.API_URL ?? "http://127.0.0.1:8080";

/** Vite build, dev server (proxy to the API) and the "web" vitest project (happy-dom). */
export default defineConfig({
  plugins: [react()],
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
  },
});
