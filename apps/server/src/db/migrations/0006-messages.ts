import type { Kysely } from "kysely";

/** Schema changes: Messages, push registrations and the push switch (issue 5). */
export async function up(_db: Kysely<unknown>): Promise<void> {
  // Filled in by its module.
}

/** Reverts {@link up}. */
export async function down(_db: Kysely<unknown>): Promise<void> {}
