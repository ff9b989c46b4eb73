/**
 * StrykerJS configuration of one mutation module, the one named by the MUTATION_MODULE environment variable
 * (scripts/mutation.ts sets it; mutation/modules/ lists the modules). Stryker mutates the module's code and runs its
 * Vitest suites (mutation/vitest.config.ts) against every mutant. Incremental per module: a rerun tests only the
 * mutants of changed code and changed tests. Reports: .tmp/mutation/<module>/mutation.json and .html.
 */
import os from "node:os";
import { moduleNamed } from "./modules.ts";

const module = moduleNamed(process.env.MUTATION_MODULE);
const out = `.tmp/mutation/${module.name}`;

export default {
  testRunner: "vitest",
  plugins: ["@stryker-mutator/vitest-runner"],
  // related: false: the module names its suites; Vitest's related-files search would add nothing.
  vitest: { configFile: "mutation/vitest.config.ts", related: false },
  mutate: module.mutate,
  coverageAnalysis: "perTest",
  incremental: true,
  incrementalFile: `${out}/incremental.json`,
  // A sandbox folder per module, so runs of two modules at once do not remove each other's; the sandbox copies the
  // repository without the test runs' own output.
  tempDirName: `.tmp/stryker/${module.name}`,
  cleanTempDir: "always",
  ignorePatterns: [
    "/.tmp",
    "/data",
    "/e2e/screenshots",
    "/e2e/visual-references",
    "/apps/web/dist",
    "/apps/mobile/www",
  ],
  reporters: ["clear-text", "progress-append-only", "json", "html"],
  clearTextReporter: { allowColor: false, logTests: false, reportScoreTable: true },
  jsonReporter: { fileName: `${out}/mutation.json` },
  htmlReporter: { fileName: `${out}/mutation.html` },
  // scripts/mutation.ts applies the 80 % floor per module, after setting the reviewed equivalent survivors apart.
  thresholds: { high: 90, low: 80, break: null },
  // A mutant counts as detected when its run takes longer than the unmutated run plus this (an endless loop); generous,
  // so a busy machine does not pass off a slow run as a detected mutant.
  timeoutMS: 20_000,
  // One Vitest per core: a mutant's rerun is a short, CPU-bound burst.
  concurrency: Math.max(1, os.availableParallelism()),
};
