import type { Kysely } from "kysely";

/** Schema changes for households (issue 3): e.g. family share codes, location data. Placeholder until filled. */
export async function up(_db: Kysely<unknown>): Promise<void> {}

export async function down(_db: Kysely<unknown>): Promise<void> {}
