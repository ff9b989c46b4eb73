import { defineConfig } from "vitest/config";

/** Browser tests: the whole system (server, broker, simulated devices) in this process, Chromium driven by playwright-core. */
export default defineConfig({
  test: {
    name: "e2e",
    include: ["tests/**/*.test.ts"],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: "forks",
    // Two files at a time (each its own server, broker, devices and Chromium): most of a file is waiting on the
    // system (timers, a countdown watched for a minute), so CI is minutes shorter on 2 cores. `npm test` runs the
    // network set-up files (Chromium's Bluetooth emulation and device prompts, UDP discovery) after the rest, one at a
    // time: beside another file a prompt's answer once missed its 30 s wait.
    maxWorkers: 2,
  },
});
