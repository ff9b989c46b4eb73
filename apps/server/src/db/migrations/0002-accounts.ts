import type { Kysely } from "kysely";

/** Schema changes for account flows (issue 3): e.g. users.is_master, revoked tokens. Placeholder until filled. */
export async function up(_db: Kysely<unknown>): Promise<void> {}

export async function down(_db: Kysely<unknown>): Promise<void> {}
