import { type Kysely, PostgresAdapter } from "kysely";
import type { Database } from "./schema.ts";

/**
 * True when `db` (a Kysely instance or a transaction on it) runs on PostgreSQL, false on SQLite. One query serves
 * both engines (docs/adr/0005-one-query-layer-over-two-engines.md); the few statements that must differ, such as a
 * row lock that SQLite has no syntax for (`SELECT … FOR UPDATE`), branch on this. Reads the executor's adapter: no
 * query, never throws.
 */
export function isPostgres(db: Kysely<Database>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}
