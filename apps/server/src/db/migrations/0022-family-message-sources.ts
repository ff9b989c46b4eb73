import { type Kysely, sql } from "kysely";

/**
 * The message sources of household notices take the code's name for the concept (docs/glossary.md "Names in code"):
 * `message_sources.kind` "household" (written since migration 0006 by `modules/message/family-notices.ts`) becomes
 * "family". Only the kind changes: the source keys keep the spelling of their message events (`household-removed:…`,
 * `household-deleted:…`), which the wire keeps too, so a notice already stored is never stored twice.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`UPDATE message_sources SET kind = 'family' WHERE kind = 'household'`.execute(db);
}

/** Reverts {@link up}: the household notices' sources are of kind "household" again. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`UPDATE message_sources SET kind = 'household' WHERE kind = 'family'`.execute(db);
}
