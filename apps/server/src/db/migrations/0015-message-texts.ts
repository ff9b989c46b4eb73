import type { Kysely } from "kysely";

/**
 * Messages render in the reader's current language: a message keeps the
 * catalogue keys of its title and content and their parameters (`title_key`, `content_key`, `params_json`), so each
 * read translates it into the language the reader uses now; `title`/`content` keep the text in the recipient's
 * language at writing time (pushes, older clients, rows written before). An announcement keeps the languages its
 * operator wrote it in (`texts_json`: {language: {title, content}}), read in the reader's one when written, else as
 * `title`/`content`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const name of ["title_key", "content_key", "params_json", "texts_json"]) {
    await db.schema.alterTable("messages").addColumn(name, "text").execute();
  }
}

/** Reverts {@link up}. */
export async function down(db: Kysely<unknown>): Promise<void> {
  for (const name of ["texts_json", "params_json", "content_key", "title_key"]) {
    await db.schema.alterTable("messages").dropColumn(name).execute();
  }
}
