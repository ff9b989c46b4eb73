import type { Kysely } from "kysely";

/** Schema changes for device control (issue 4): statistics rollups, salt, cycles. Placeholder until filled. */
export async function up(_db: Kysely<unknown>): Promise<void> {}

export async function down(_db: Kysely<unknown>): Promise<void> {}
