import os from "node:os";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { apiSuitesOnDefaultEngine } from "./apps/server/test/engine-suites.ts";

/**
 * Every test must make at least one assertion (Vitest's `expect.requireAssertions`): a test whose checks all sit in a
 * branch that did not run fails instead of passing empty. Given to each project, which do not inherit the root's.
 */
const asserting = { expect: { requireAssertions: true } } as const;

/**
 * Unit, API and hub tests of every workspace; browser tests live in e2e/ and run apart (npm run test:e2e).
 * Two files at a time at least: most of the server's tests wait on sockets, brokers and timers rather than on a core,
 * and Vitest's default (cores − 1) ran one at a time on the 2-core CI machine (13 min; 8 with two).
 */
export default defineConfig({
  test: {
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    projects: [
      { test: { ...asserting, name: "contract", root: "packages/contract", include: ["src/**/*.test.ts"] } },
      { test: { ...asserting, name: "provisioning", root: "packages/provisioning", include: ["src/**/*.test.ts"] } },
      {
        test: {
          ...asserting,
          name: "server",
          root: "apps/server",
          // test/*.test.ts: the test helpers' own tests (test/call.ts).
          include: ["src/**/*.test.ts", "test/**/*.test.ts"],
          testTimeout: 30000,
          hookTimeout: 60000,
          pool: "forks",
          globalSetup: ["test/global-setup.ts"],
        },
      },
      // The server's API test files that do not loop over ENGINES, a second time with their test apps on PostgreSQL
      // (TEST_ENGINE: apps/server/test/helpers.ts `defaultTestEngine`), so every API test file runs on both engines.
      // Left out with SKIP_POSTGRES=1, a developer's shortcut the server project's globalSetup refuses under CI.
      ...(process.env.SKIP_POSTGRES === "1"
        ? []
        : [
            {
              test: {
                ...asserting,
                name: "server-postgres",
                root: "apps/server",
                include: apiSuitesOnDefaultEngine(fileURLToPath(new URL("apps/server", import.meta.url))),
                env: { TEST_ENGINE: "postgres" },
                testTimeout: 30000,
                hookTimeout: 60000,
                pool: "forks" as const,
                globalSetup: ["test/global-setup.ts"],
              },
            },
          ]),
      // The development launcher's own parts (the development bridge), on the server's test apps.
      {
        test: {
          ...asserting,
          name: "dev",
          root: "apps/dev",
          include: ["src/**/*.test.ts"],
          testTimeout: 30000,
          pool: "forks",
        },
      },
      {
        test: {
          ...asserting,
          name: "device-sim",
          root: "apps/device-sim",
          include: ["src/**/*.test.ts"],
          testTimeout: 30000,
        },
      },
      "apps/web",
      // Node-side scripts of the web app (the build plugins: src/first-paint/build and vite-*.ts; the first-screen size
      // budget), apart from the happy-dom "web" project.
      {
        test: {
          ...asserting,
          name: "web-scripts",
          root: "apps/web",
          include: ["scripts/**/*.test.ts", "src/first-paint/build/**/*.test.ts", "vite-*.test.ts"],
          environment: "node",
        },
      },
      // The native shells' bridge over mocked Capacitor plugins and the native projects' sync check.
      {
        test: {
          ...asserting,
          name: "mobile",
          root: "apps/mobile",
          include: ["src/**/*.test.ts", "scripts/**/*.test.ts"],
          environment: "happy-dom",
          testTimeout: 30000,
        },
      },
      // The repository's own scripts (the generated tables of docs/), with the database they read migrated.
      { test: { ...asserting, name: "scripts", root: "scripts", include: ["*.test.ts"], testTimeout: 30000 } },
      // The benchmarks' own helpers (results table, Lighthouse figures); the benchmarks run with `npm run bench`.
      { test: { ...asserting, name: "bench", root: "bench", include: ["*.test.ts"] } },
    ],
  },
});
