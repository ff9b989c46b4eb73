import { defineConfig } from "vitest/config";

/**
 * Browser tests: the whole system (server, broker, simulated devices) in each file's process, Chromium driven by
 * playwright-core. Two files at a time (they mostly wait on the browser, the system and their own timers: 16 min one
 * at a time on the 2-core CI machine), then, one at a time, the Bluetooth set-up files (beside another file, a
 * chooser's answer or the set-up's start was missed once each in a fresh-clone run).
 */
/**
 * `expect.poll` waits up to 10 s unless a call says otherwise (Vitest's own default, 1 s, is shorter than one busy
 * moment of the 2-core CI machine with a server, a broker, simulated devices and Chromium in one process tree).
 */
const shared = {
  testTimeout: 120_000,
  hookTimeout: 120_000,
  pool: "forks",
  expect: { poll: { timeout: 10_000 } },
} as const;
const ALONE = ["tests/network-setup-bluetooth.test.ts", "tests/network-setup-screens.test.ts"];

export default defineConfig({
  test: {
    maxWorkers: 2,
    projects: [
      {
        test: { ...shared, name: "e2e", include: ["tests/**/*.test.ts"], exclude: ALONE, sequence: { groupOrder: 0 } },
      },
      {
        test: { ...shared, name: "e2e-alone", include: ALONE, fileParallelism: false, sequence: { groupOrder: 1 } },
      },
    ],
  },
});
