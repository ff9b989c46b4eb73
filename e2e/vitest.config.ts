import { defineConfig } from "vitest/config";

/**
 * Browser tests: the whole system (server, broker, simulated devices) in each file's process, Chromium driven by
 * playwright-core. Two files at a time (they mostly wait on the browser, the system and their own timers: 16 min one
 * at a time on the 2-core CI machine), then, one at a time, the files a busy neighbour breaks: the CSV export (its
 * progress steps hold an 8 s throttled download that a second browser's load stretches past what the steps expect,
 * and DevTools cannot change a download's throttling once it runs) and the Bluetooth set-up files (beside another
 * file, a chooser's answer or the set-up's start was missed once each in a fresh-clone run: decisions 59 and 63).
 */
const shared = { testTimeout: 120_000, hookTimeout: 120_000, pool: "forks" } as const;
const ALONE = [
  "tests/csv-export.test.ts",
  "tests/network-setup-bluetooth.test.ts",
  "tests/network-setup-screens.test.ts",
];

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
