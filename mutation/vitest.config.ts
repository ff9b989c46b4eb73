import path from "node:path";
import { defineConfig, mergeConfig, type UserConfig } from "vitest/config";
import { moduleNamed } from "./modules.ts";

/**
 * The Vitest suites StrykerJS runs against each mutant of the module named by MUTATION_MODULE (mutation/modules/):
 * only the module's pure-rule suites, without the "server" project's globalSetup (a PostgreSQL server), so one mutant
 * takes a fraction of a second rather than a database's start-up. A module may borrow a Vite config for the plugins and
 * aliases its suites need (the web app's).
 */
const module = moduleNamed(process.env.MUTATION_MODULE);
const repository = path.resolve(import.meta.dirname, "..");
const { tests } = module;

let base: UserConfig = {};
if (tests.viteConfig) {
  const loaded = (await import(path.join(repository, tests.viteConfig))).default;
  base = typeof loaded === "function" ? await loaded({ command: "serve", mode: "test" }) : loaded;
  base = { ...base, test: undefined };
}

export default mergeConfig(
  base,
  defineConfig({
    root: path.join(repository, tests.root),
    test: {
      include: tests.include,
      testNamePattern: tests.testNamePattern,
      environment: tests.environment ?? "node",
    },
  }),
);
