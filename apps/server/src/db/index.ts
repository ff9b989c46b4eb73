import path from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, PostgresDialect, type SqliteDatabase, SqliteDialect } from "kysely";
import { type Migration, type MigrationProvider, Migrator } from "kysely/migration";
import pg from "pg";
import { ensurePrivateFile } from "../data-dir.ts";
import * as m0001 from "./migrations/0001-init.ts";
import * as m0002 from "./migrations/0002-accounts.ts";
import * as m0003 from "./migrations/0003-households.ts";
import * as m0004 from "./migrations/0004-devices.ts";
import * as m0005 from "./migrations/0005-device-control.ts";
import * as m0006 from "./migrations/0006-messages.ts";
import * as m0007 from "./migrations/0007-post-sale-articles.ts";
import * as m0008 from "./migrations/0008-files.ts";
import * as m0009 from "./migrations/0009-device-activations.ts";
import * as m0010 from "./migrations/0010-idempotency-keys.ts";
import * as m0012 from "./migrations/0012-salt-reminder.ts";
import * as m0013 from "./migrations/0013-one-clock.ts";
import * as m0014 from "./migrations/0014-user-preferences.ts";
import * as m0015 from "./migrations/0015-message-texts.ts";
import * as m0016 from "./migrations/0016-session-families.ts";
import * as m0017 from "./migrations/0017-push-installations.ts";
import * as m0018 from "./migrations/0018-hourly-water-sum.ts";
import * as m0019 from "./migrations/0019-device-link-honesty.ts";
import * as m0020 from "./migrations/0020-telemetry-total.ts";
import * as m0021 from "./migrations/0021-after-sale-requests.ts";
import * as m0022 from "./migrations/0022-family-message-sources.ts";
import * as m0023 from "./migrations/0023-telemetry-report-id.ts";
import * as m0024 from "./migrations/0024-setup-tickets.ts";
import * as m0025 from "./migrations/0025-firmware-images.ts";
import * as m0026 from "./migrations/0026-device-model-names.ts";
import type { Database } from "./schema.ts";
import { withValueFreePlans } from "./sqlite-parameters.ts";

export type { Database } from "./schema.ts";
export type Db = Kysely<Database>;

/** Migrations in order; add new ones here with the next number. Both engines run the same list. */
const MIGRATIONS: Record<string, Migration> = {
  "0001-init": m0001,
  "0002-accounts": m0002,
  "0003-households": m0003,
  "0004-devices": m0004,
  "0005-device-control": m0005,
  "0006-messages": m0006,
  "0007-post-sale-articles": m0007,
  "0008-files": m0008,
  "0009-device-activations": m0009,
  "0010-idempotency-keys": m0010,
  "0012-salt-reminder": m0012,
  "0013-one-clock": m0013,
  "0014-user-preferences": m0014,
  "0015-message-texts": m0015,
  "0016-session-families": m0016,
  "0017-push-installations": m0017,
  "0018-hourly-water-sum": m0018,
  "0019-device-link-honesty": m0019,
  "0020-telemetry-total": m0020,
  "0021-after-sale-requests": m0021,
  "0022-family-message-sources": m0022,
  "0023-telemetry-report-id": m0023,
  "0024-setup-tickets": m0024,
  "0025-firmware-images": m0025,
  "0026-device-model-names": m0026,
};

const provider: MigrationProvider = { getMigrations: async () => MIGRATIONS };

export interface DbOptions {
  /** PostgreSQL connection string; when absent the embedded SQLite file is used. */
  databaseUrl?: string;
  /** Folder for the SQLite file `aquapilot.sqlite` (created when missing). */
  dataDir: string;
}

/**
 * Opens the database — PostgreSQL through `pg` when `databaseUrl` is set, else SQLite through
 * better-sqlite3 in WAL mode with foreign keys on — and applies pending migrations.
 * @throws when the database cannot be opened or a migration fails (the error names the migration).
 */
export async function openDatabase(opts: DbOptions): Promise<{ db: Db; engine: "sqlite" | "postgres" }> {
  let db: Db;
  let engine: "sqlite" | "postgres";
  if (opts.databaseUrl) {
    engine = "postgres";
    // Keep int8 / numeric as numbers: counts and aggregates are well inside 2^53.
    pg.types.setTypeParser(20, (v) => Number(v));
    pg.types.setTypeParser(1700, (v) => Number(v));
    db = new Kysely<Database>({
      dialect: new PostgresDialect({ pool: postgresPool(opts.databaseUrl) }),
    });
  } else {
    engine = "sqlite";
    // Created owner-only before SQLite opens it: SQLite would use the umask (0644), and its -wal and -shm files take
    // the database file's mode.
    const databaseFile = path.join(opts.dataDir, "aquapilot.sqlite");
    ensurePrivateFile(databaseFile);
    const file = new SQLite(databaseFile);
    file.pragma("journal_mode = WAL");
    file.pragma("foreign_keys = ON");
    file.pragma("busy_timeout = 5000");
    file.pragma("synchronous = NORMAL");
    db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(file) }) });
  }
  // Unordered: migrations written in parallel branches may land in any order; each runs once, by name.
  const migrator = new Migrator({ db, provider, allowUnorderedMigrations: true });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === "Error")?.migrationName ?? "unknown";
    await db.destroy();
    throw new Error(`Database migration ${failed} failed: ${(error as Error).message ?? error}`);
  }
  return { db, engine };
}

/** Most prepared statements {@link withStatementCache} keeps (the server's distinct query texts are fewer). */
const STATEMENT_CACHE_SIZE = 500;

/**
 * better-sqlite3 for Kysely with its prepared statements kept per SQL text: Kysely prepares every query
 * anew, and preparing was the largest single cost of the telemetry path in the profile. A statement that is still
 * being iterated (a streamed query) is not handed out twice: another is prepared for that call. SQLite re-prepares a
 * kept statement by itself after a schema change (migrations). The cache is emptied when full. Each text is prepared
 * with its parameters written `+?` ({@link withValueFreePlans}): SQLite re-prepared a statement comparing
 * a parameter with a non-unique index in a join or with an ORDER BY on every run.
 */
function withStatementCache(file: SQLite.Database): SqliteDatabase {
  const cache = new Map<string, SQLite.Statement>();
  return {
    close: () => file.close(),
    prepare(sql: string) {
      const hit = cache.get(sql);
      if (hit && !hit.busy) return hit;
      const statement = file.prepare(withValueFreePlans(sql));
      if (!hit) {
        if (cache.size >= STATEMENT_CACHE_SIZE) cache.clear();
        cache.set(sql, statement);
      }
      return statement;
    },
  };
}

/**
 * The PostgreSQL pool (10 connections). An idle connection the server ends (a restart, an administrator's terminate,
 * a failover) emits "error" on the pool; without a listener Node would crash the process. The pool drops that client
 * by itself and the next query opens a new connection, so the error is only logged.
 */
function postgresPool(connectionString: string): pg.Pool {
  const pool = new pg.Pool({ connectionString, max: 10 });
  pool.on("error", (err: Error & { code?: string }) => {
    console.warn(`[db] idle PostgreSQL connection lost (${err.code ?? "no code"}): ${err.message}`);
  });
  return pool;
}
