import SQLite from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { withValueFreePlans } from "./sqlite-parameters.ts";

describe("withValueFreePlans", () => {
  it("puts a unary plus before every positional parameter", () => {
    expect(withValueFreePlans('select "d"."id" from "devices" as "d" where "d"."family_id" = ? limit ? offset ?')).toBe(
      'select "d"."id" from "devices" as "d" where "d"."family_id" = +? limit +? offset +?',
    );
    expect(withValueFreePlans("insert into t (a, b) values (?, ?)")).toBe("insert into t (a, b) values (+?, +?)");
    expect(withValueFreePlans("select * from t where a in (?,?) and b = ?12")).toBe(
      "select * from t where a in (+?,+?) and b = +?12",
    );
  });

  it("leaves question marks in strings, quoted identifiers and comments alone", () => {
    const sql =
      "select '?', 'it''s ?', \"col?\", `x?`, [y?] -- what ?\n, /* a ? */ a from t where b = ? and c like ? escape '\\'";
    expect(withValueFreePlans(sql)).toBe(
      "select '?', 'it''s ?', \"col?\", `x?`, [y?] -- what ?\n, /* a ? */ a from t where b = +? and c like +? escape '\\'",
    );
  });

  it("does not add a second plus, and leaves named parameters and text without parameters as they are", () => {
    expect(withValueFreePlans("select * from t where a = +? and b = :name and c = @n and d = $v")).toBe(
      "select * from t where a = +? and b = :name and c = @n and d = $v",
    );
    expect(withValueFreePlans("begin")).toBe("begin");
    expect(withValueFreePlans("select 'unterminated ?")).toBe("select 'unterminated ?");
  });
});

describe("statements with value-free plans give the same answers", () => {
  let db: SQLite.Database;
  beforeEach(() => {
    db = new SQLite(":memory:");
    db.exec(`
      create table devices (id text primary key, family_id text, sort integer not null, n integer, b blob);
      create index devices_family on devices (family_id);
      create table device_state (device_id text primary key, online integer);
    `);
    const insert = db.prepare(
      withValueFreePlans("insert into devices (id, family_id, sort, n, b) values (?, ?, ?, ?, ?)"),
    );
    insert.run("a", "f1", 2, "5", Buffer.from([1, 2]));
    insert.run("b", "f1", 1, 7, null);
    insert.run("c", "f2", 0, "x", null);
    db.prepare(withValueFreePlans("insert into device_state (device_id, online) values (?, ?)")).run("a", 1);
  });
  afterEach(() => db.close());

  /** Runs `sql` as written and rewritten with the same parameters; both answers. */
  const both = (sql: string, ...params: unknown[]) => [
    db.prepare(sql).all(...params),
    db.prepare(withValueFreePlans(sql)).all(...params),
  ];

  it("keeps column affinity, NULL, blobs, LIMIT/OFFSET and joins as a plain parameter does", () => {
    // An INTEGER column took "5" as the integer 5 through +? (insert above); text "5" still matches it.
    for (const [plain, rewritten] of [
      both("select id, n, typeof(n) t from devices where n = ? order by id", "5"),
      both("select id from devices where n = ? order by id", 5),
      both("select id from devices where b = ?", Buffer.from([1, 2])),
      both("select id from devices where family_id is ? order by id", null),
      both("select id from devices order by sort limit ? offset ?", 2, 1),
      both(
        "select d.id, s.online from devices d left join device_state s on s.device_id = d.id where d.family_id = ? order by d.sort",
        "f1",
      ),
      both("select id from devices where id like ? escape '\\'", "%a%"),
    ]) {
      expect(rewritten).toEqual(plain);
    }
    expect(both("select id, n, typeof(n) t from devices where n = ? order by id", "5")[1]).toEqual([
      { id: "a", n: 5, t: "integer" },
    ]);
    expect(
      both(
        "select d.id, s.online from devices d left join device_state s on s.device_id = d.id where d.family_id = ? order by d.sort",
        "f1",
      )[1],
    ).toEqual([
      { id: "b", online: null },
      { id: "a", online: 1 },
    ]);
  });

  it("keeps the index in use for an equality on a parameter", () => {
    const plan = db
      .prepare(
        `explain query plan ${withValueFreePlans(
          "select d.id from devices d left join device_state s on s.device_id = d.id where d.family_id = ? order by d.sort",
        )}`,
      )
      .all("f1") as Array<{ detail: string }>;
    expect(plan.map((r) => r.detail).join(" | ")).toContain("USING INDEX devices_family (family_id=?)");
  });
});
