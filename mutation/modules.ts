/**
 * The modules under mutation testing: every entry of every file in mutation/modules/, in file-name order. One entry is
 * one rule module as the scores report it: the code Stryker mutates and the Vitest suites that must kill its mutants.
 * Read by mutation/stryker.config.mjs and mutation/vitest.config.ts (for the entry named by MUTATION_MODULE) and by
 * scripts/mutation.ts (all of them).
 */
import { readdirSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

/** The Vitest suites run against each mutant of a module. */
export interface MutationTests {
  /** Folder the suites run from, relative to the repository (e.g. "apps/server"). */
  root: string;
  /** Test files, globs relative to `root`. */
  include: string[];
  /** Only the tests whose full name matches (a RegExp source), when a file also holds suites that need a database. */
  testNamePattern?: string;
  /** Vitest environment (default "node"). */
  environment?: "node" | "happy-dom";
  /**
   * A Vite config (relative to the repository) whose plugins and aliases the suites need, e.g.
   * "apps/web/vite.config.ts"; its `test` block is replaced by this entry's.
   */
  viteConfig?: string;
}

/** One rule module under mutation testing. */
export interface MutationModule {
  /** Short id, used on the command line and in mutation/scores.json (e.g. "salt-forecast"). */
  name: string;
  /** The rule the module holds and where the spec or the outside source states it. */
  title: string;
  /**
   * Stryker `mutate` patterns: files, or `file:start-end` line ranges, repository-relative. A range does not follow
   * the code when lines move: an edit of the file changes the module's fingerprint, so the next run measures it again,
   * and whoever edits it checks the range still holds the rule (Stryker also mutates a statement that only begins
   * inside the range).
   */
  mutate: string[];
  tests: MutationTests;
  /**
   * Survivors reviewed and kept, each with the reason no test can kill it: the key is
   * `<file name>: <original code> → <replacement>` as scripts/mutation.ts prints it.
   */
  equivalent?: Record<string, string>;
}

const folder = path.join(import.meta.dirname, "modules");

/** Every module, in file-name order of mutation/modules/. */
export const MODULES: MutationModule[] = [];
for (const file of readdirSync(folder)
  .filter((f) => f.endsWith(".ts"))
  .sort()) {
  const loaded = await import(pathToFileURL(path.join(folder, file)).href);
  MODULES.push(...loaded.default);
}

/**
 * The module named `name`.
 * @throws Error naming the known modules when there is no such module.
 */
export function moduleNamed(name: string | undefined): MutationModule {
  const found = MODULES.find((m) => m.name === name);
  if (!found) throw new Error(`no mutation module "${name}"; known: ${MODULES.map((m) => m.name).join(", ")}`);
  return found;
}
