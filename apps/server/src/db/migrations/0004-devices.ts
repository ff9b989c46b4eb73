import type { Kysely } from "kysely";

/** Schema changes for devices (issue 4): models, images, settings bounds, bindings. Placeholder until filled. */
export async function up(_db: Kysely<unknown>): Promise<void> {}

export async function down(_db: Kysely<unknown>): Promise<void> {}
