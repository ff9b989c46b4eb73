import { type Kysely, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES, openTestDatabase, type TestDatabase } from "../../../test/databases.ts";
import { down, up } from "./0022-family-message-sources.ts";

/** The kind of each message source, by key, sorted by key. */
async function kinds(db: Kysely<unknown>): Promise<Array<{ source_key: string; kind: string }>> {
  const rows = await sql<{
    source_key: string;
    kind: string;
  }>`SELECT source_key, kind FROM message_sources ORDER BY source_key`.execute(db);
  return rows.rows;
}

/**
 * Migration 0022 on both engines: the sources of household notices stored as kind "household" (a database as
 * migration 0021 left it, reached by reverting 0022) become kind "family"; every other source and every source key
 * stays as it was, and reverting brings "household" back.
 */
describe.each(ENGINES)("migration 0022 (message source kind household → family) on %s", (engine) => {
  let tdb: TestDatabase;
  let db: Kysely<unknown>;
  const at = "2026-05-01T00:00:00.000Z";

  beforeAll(async () => {
    tdb = await openTestDatabase(engine);
    db = tdb.db as unknown as Kysely<unknown>;
    await down(db);
    await db
      .insertInto("message_sources" as never)
      .values([
        { source_key: "household-removed:m1", kind: "household", device_id: null, created_at: at, published_at: at },
        { source_key: "household-deleted:f1", kind: "household", device_id: null, created_at: at, published_at: null },
        { source_key: "offline:d1:1", kind: "offline", device_id: null, created_at: at, published_at: at },
      ] as never)
      .execute();
  });
  afterAll(() => tdb?.close());

  it("renames the household notices' kind to family and leaves the keys and other kinds alone", async () => {
    await up(db);
    expect(await kinds(db)).toEqual([
      { source_key: "household-deleted:f1", kind: "family" },
      { source_key: "household-removed:m1", kind: "family" },
      { source_key: "offline:d1:1", kind: "offline" },
    ]);
  });

  it("reverts to kind household", async () => {
    await down(db);
    expect((await kinds(db)).map((r) => r.kind)).toEqual(["household", "household", "offline"]);
    await up(db);
    expect((await kinds(db)).map((r) => r.kind)).toEqual(["family", "family", "offline"]);
  });
});
