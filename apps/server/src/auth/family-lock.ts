import type { Transaction } from "kysely";
import { isPostgres } from "../db/engine.ts";
import type { Database } from "../db/index.ts";

/**
 * Inside a transaction, locks household `familyId` against concurrent membership changes and answers whether it
 * exists (spec §6 "a household always has exactly one administrator"; docs/adr/0011-accounts-and-households-integrity.md).
 * On PostgreSQL this is `SELECT … FOR UPDATE` on the families row, so transfers, removals, leaves, joins and deletion
 * of one household run one after the other and each re-checks the state the previous one left. On SQLite (which has
 * no FOR UPDATE) a plain read suffices: the embedded driver runs one transaction at a time on its single connection,
 * and the database file's write lock serialises writers across processes.
 * @returns true when the household exists (its row is now locked on PostgreSQL), false when it does not.
 * @throws the driver's error when the query fails (the caller's transaction then rolls back).
 */
export async function lockFamily(trx: Transaction<Database>, familyId: string): Promise<boolean> {
  let query = trx.selectFrom("families").select("id").where("id", "=", familyId);
  if (isPostgres(trx)) query = query.forUpdate();
  return (await query.executeTakeFirst()) !== undefined;
}
