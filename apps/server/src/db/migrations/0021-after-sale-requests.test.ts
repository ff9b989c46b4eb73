import { type Kysely, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES, type Engine, openTestDatabase, type TestDatabase } from "../../../test/databases.ts";
import { insertUser } from "../../../test/factories.ts";
import { down, up } from "./0021-after-sale-requests.ts";

/** The names of the indexes the engine keeps on `table`, its own automatic ones included, sorted. */
async function indexNames(db: Kysely<unknown>, engine: Engine, table: string): Promise<string[]> {
  const rows =
    engine === "sqlite"
      ? await sql<{
          name: string;
        }>`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ${table}`.execute(db)
      : await sql<{ name: string }>`SELECT indexname AS name FROM pg_indexes WHERE tablename = ${table}`.execute(db);
  return rows.rows.map((r) => r.name).sort();
}

/** The tables of the database, sorted. */
async function tableNames(db: Kysely<unknown>): Promise<string[]> {
  return (await db.introspection.getTables()).map((t) => t.name).sort();
}

/**
 * Migration 0021 on both engines: a database as migration 0007 left it (reached by reverting 0021) keeps every
 * after-sales request, column for column, once `after_sales` becomes `after_sale_requests`; the indexes and the
 * engine's own names follow the table, and reverting brings the old table back with the same rows.
 */
describe.each(ENGINES)("migration 0021 (after_sales → after_sale_requests) on %s", (engine) => {
  let tdb: TestDatabase;
  let db: Kysely<unknown>;
  const rows: Array<Record<string, string | number | null>> = [];

  beforeAll(async () => {
    tdb = await openTestDatabase(engine);
    db = tdb.db as unknown as Kysely<unknown>;
    const ann = await insertUser(tdb.db, "ann", "2026-05-01T00:00:00.000Z");
    await down(db);
    rows.push(
      {
        id: "r1",
        user_id: ann,
        device_id: "d1",
        device_name: "Cellar",
        family_id: "f1",
        description: "Salt bridge in the tank",
        photos_json: '["/files/a.png"]',
        contact_phone: "+49 30 1234",
        handled: 1,
        handled_time: "2026-05-03T10:00:00.000Z",
        reply: "Break it up with a broom handle.",
        diagnostics_json: '{"online":true}',
        creation_time: "2026-05-02T09:00:00.000Z",
        last_modification_time: "2026-05-03T10:00:00.000Z",
      },
      {
        id: "r2",
        user_id: ann,
        device_id: "d2",
        device_name: "Garage",
        family_id: "f1",
        description: "Leaks at the bypass",
        photos_json: "[]",
        contact_phone: null,
        handled: 0,
        handled_time: null,
        reply: null,
        diagnostics_json: null,
        creation_time: "2026-05-04T09:00:00.000Z",
        last_modification_time: null,
      },
    );
    await db
      .insertInto("after_sales" as never)
      .values(rows as never)
      .execute();
  });
  afterAll(() => tdb?.close());

  it("before it, the requests live in after_sales with the indexes of migration 0007", async () => {
    const tables = await tableNames(db);
    expect(tables).toContain("after_sales");
    expect(tables).not.toContain("after_sale_requests");
    expect(await indexNames(db, engine, "after_sales")).toEqual(
      expect.arrayContaining(["after_sales_handled_time", "after_sales_user_time"]),
    );
  });

  it("keeps every request, column for column, in after_sale_requests; indexes and engine names follow", async () => {
    await up(db);
    const tables = await tableNames(db);
    expect(tables).toContain("after_sale_requests");
    expect(tables).not.toContain("after_sales");
    const copied = await db
      .selectFrom("after_sale_requests" as never)
      .selectAll()
      .orderBy("id" as never)
      .execute();
    expect(copied.map((r) => ({ ...(r as object), handled: Number((r as { handled: unknown }).handled) }))).toEqual(
      rows,
    );
    const indexes = await indexNames(db, engine, "after_sale_requests");
    expect(indexes).toEqual(
      expect.arrayContaining(["after_sale_requests_handled_time", "after_sale_requests_user_time"]),
    );
    expect(indexes.filter((name) => !name.includes("after_sale_requests"))).toEqual([]);
  });

  it("answers the after-sales queries on the new table (the owner's list by its index)", async () => {
    const own = await sql<{ id: string }>`SELECT id FROM after_sale_requests WHERE user_id = ${
      rows[0].user_id
    } ORDER BY creation_time DESC`.execute(db);
    expect(own.rows.map((r) => r.id)).toEqual(["r2", "r1"]);
  });

  it("reverts to after_sales with the same rows", async () => {
    await down(db);
    const back = await db
      .selectFrom("after_sales" as never)
      .select("id" as never)
      .orderBy("id" as never)
      .execute();
    expect(back).toEqual([{ id: "r1" }, { id: "r2" }]);
    await up(db);
    expect(await tableNames(db)).not.toContain("after_sales");
  });
});
