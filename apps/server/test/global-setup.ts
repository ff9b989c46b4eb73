import type { TestProject } from "vitest/node";
import { findPgBin, startThrowawayPostgres } from "./postgres-server.ts";
import { isCi } from "./required-programs.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** Connection string of a PostgreSQL server for the data-layer tests (a maintenance database), or null. */
    pgUrl: string | null;
    /** Why there is no PostgreSQL, when pgUrl is null. */
    pgProblem: string | null;
  }
}

/**
 * Vitest globalSetup of the server project: provides `pgUrl` for the data-layer tests on PostgreSQL.
 * Uses TEST_DATABASE_URL when set; otherwise starts a throwaway cluster (initdb + pg_ctl, as the `postgres` OS user
 * when running as root, since PostgreSQL refuses root) on 127.0.0.1 and a free port, with fsync off, and stops and
 * deletes it after the run. Without binaries it provides null and the reason; test/databases.ts then fails loudly
 * unless SKIP_POSTGRES=1, which CI refuses.
 */
export default async function setup(project: TestProject) {
  project.provide("pgProblem", null);
  if (process.env.TEST_DATABASE_URL) {
    project.provide("pgUrl", process.env.TEST_DATABASE_URL);
    return;
  }
  project.provide("pgUrl", null);
  if (process.env.SKIP_POSTGRES === "1") {
    // Half the data-layer suites would go unrun without counting as skipped: a developer's shortcut, never CI's.
    if (isCi())
      throw new Error("SKIP_POSTGRES=1 is refused under CI: the data-layer suites run on both engines there.");
    project.provide("pgProblem", "SKIP_POSTGRES=1");
    return;
  }
  const bin = findPgBin();
  if (!bin) {
    project.provide("pgProblem", "no PostgreSQL binaries under /usr/lib/postgresql/*/bin (apt-get install postgresql)");
    return;
  }
  const pg = await startThrowawayPostgres(bin);
  project.provide("pgUrl", pg.url);
  return () => pg.stop();
}
