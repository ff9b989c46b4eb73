import type { Kysely } from "kysely";

/** Schema changes: After-sales requests and help articles (issue 5). */
export async function up(_db: Kysely<unknown>): Promise<void> {
  // Filled in by its module.
}

/** Reverts {@link up}. */
export async function down(_db: Kysely<unknown>): Promise<void> {}
