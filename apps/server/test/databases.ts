import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { inject } from "vitest";
import { type Db, openDatabase } from "../src/db/index.ts";
// The typing of `inject("pgUrl")` (the server project's globalSetup), for suites of other projects that open databases.
import type {} from "./global-setup.ts";
import type { Requirement } from "./required-programs.ts";

/** The two engines the data layer runs on (docs/architecture.md "src/db"). */
export type Engine = "sqlite" | "postgres";

/** Engines the data-layer suites run on: both, or SQLite alone when SKIP_POSTGRES=1. */
export const ENGINES: Engine[] = process.env.SKIP_POSTGRES === "1" ? ["sqlite"] : ["sqlite", "postgres"];

/**
 * PostgreSQL as a suite's requirement (test/required-programs.ts `skipUnlessInstalled`), for the suites that need
 * it whatever SKIP_POSTGRES says (the cluster): found when test/global-setup.ts provided a server, else missing with
 * its reason.
 */
export function postgresRequirement(): Requirement {
  return {
    program: "PostgreSQL",
    found: inject("pgUrl"),
    detail: inject("pgProblem"),
    debianPackage: "postgresql",
    alternative: "or set TEST_DATABASE_URL",
  };
}

/** A migrated, empty database of one engine, private to one test file. */
export interface TestDatabase {
  engine: Engine;
  db: Db;
  /** A temp folder (the SQLite file lives here; also usable as DATA_DIR). */
  dataDir: string;
  /** PostgreSQL connection string of this test's own database (postgres only). */
  databaseUrl?: string;
  /** Destroys the pool and removes the temp folder and, on PostgreSQL, the database. */
  close(): Promise<void>;
}

/**
 * Opens a fresh migrated database: SQLite in a temp folder, or a new database `t_<random>` on the PostgreSQL of
 * test/global-setup.ts (TEST_DATABASE_URL or a throwaway cluster).
 * @throws when PostgreSQL is wanted but none is available and SKIP_POSTGRES is not 1 — loudly, with the reason.
 */
export async function openTestDatabase(engine: Engine): Promise<TestDatabase> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `aquapilot-${engine}-`));
  if (engine === "sqlite") {
    const { db } = await openDatabase({ dataDir });
    return {
      engine,
      db,
      dataDir,
      async close() {
        await db.destroy();
        fs.rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  const base = inject("pgUrl");
  if (!base) {
    throw new Error(
      `PostgreSQL is required for the data-layer tests but unavailable (${inject("pgProblem")}). ` +
        "Install it (apt-get install postgresql), set TEST_DATABASE_URL, or set SKIP_POSTGRES=1 to skip.",
    );
  }
  const name = `t_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  const { db } = await openDatabase({ databaseUrl: url.toString(), dataDir });
  return {
    engine,
    db,
    dataDir,
    databaseUrl: url.toString(),
    async close() {
      await db.destroy();
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
