import { defineConfig } from "vitest/config";

/** Browser tests: the whole system (server, broker, simulated devices) in this process, Chromium driven by playwright-core. */
export default defineConfig({
  test: {
    name: "e2e",
    include: ["tests/**/*.test.ts"],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: "forks",
    fileParallelism: false,
  },
});
