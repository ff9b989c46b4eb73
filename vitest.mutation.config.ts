import { defineConfig } from "vitest/config";

/**
 * The tests StrykerJS runs against each mutant (stryker.config.mjs, `npm run test:mutation`): only the pure-rule suites
 * of the mutated modules, without the "server" project's globalSetup (a PostgreSQL server) and without the data-layer
 * suites that share their files, so one mutant takes milliseconds rather than a database's start-up.
 */
export default defineConfig({
  test: {
    root: "apps/server",
    include: ["src/modules/statistics/statistics.test.ts"],
    // The salt forecast's cases live in this describe block of statistics.test.ts, next to suites that need a database.
    testNamePattern: "^statistics pure parts",
  },
});
