/**
 * Mutation testing of the modules that hold the product's rules (`npm run test:mutation`, docs/architecture.md
 * "Tests"): StrykerJS mutates the code in `mutate` and runs the Vitest suites of vitest.mutation.config.ts against
 * every mutant; the run fails below an 80 % mutation score. Incremental: .tmp/stryker-incremental.json keeps the
 * results of the last run, so a rerun tests only the mutants of changed code and changed tests. Reports:
 * .tmp/mutation/mutation.html and .json.
 */
export default {
  testRunner: "vitest",
  plugins: ["@stryker-mutator/vitest-runner"],
  // related: false: the config already names the suites to run; Vitest's related-files search would add nothing.
  vitest: { configFile: "vitest.mutation.config.ts", related: false },
  // The salt forecast and its "salt is low" rule (forecastSalt and LOW_SALT_DAYS); the rest of salt.ts is database
  // access, tested by the "server" project's data-layer suites.
  mutate: ["apps/server/src/modules/statistics/salt.ts:19-85"],
  coverageAnalysis: "perTest",
  incremental: true,
  incrementalFile: ".tmp/stryker-incremental.json",
  tempDirName: ".tmp/stryker",
  reporters: ["clear-text", "progress", "json", "html"],
  jsonReporter: { fileName: ".tmp/mutation/mutation.json" },
  htmlReporter: { fileName: ".tmp/mutation/mutation.html" },
  thresholds: { high: 90, low: 80, break: 80 },
  // One mutant at a time: the 2-core machines share their cores with other test runs.
  concurrency: 1,
};
