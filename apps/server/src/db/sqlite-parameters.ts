/**
 * SQLite statements whose plan does not depend on the values bound to them.
 *
 * better-sqlite3 builds SQLite with SQLITE_ENABLE_STAT4. With it, SQLite 3.54 marks a statement as depending on the
 * value bound to a `?` when that parameter is compared with a non-unique index in a statement that has a join or an
 * ORDER BY (`… devices d LEFT JOIN device_state s … WHERE d.family_id = ?`), and then re-prepares the statement on
 * every execution after new bindings (its SQLITE_STMTSTATUS_REPREPARE count rises each time), as after a schema change.
 * better-sqlite3 then also builds a new row constructor (`new Function`) for the statement's columns on each run. The
 * family device list (spec §7 family-device/get-list-by-family-id) cost 15 µs instead of 4 µs in SQLite alone, and far
 * more under load (a new compiled function and its garbage per request). The server never runs ANALYZE, so there are no
 * statistics for a bound value to inform, and the plans stay the same without it.
 *
 * A unary plus before a parameter (`= +?`) keeps the index in use (the plus is on the value, not the column) but tells
 * the planner the expression is not a plain parameter, so no plan depends on its value. `+expr` is the identity with no
 * affinity, as a bare parameter has none, so comparisons, inserts and every other use give the same results.
 */

/**
 * Returns `sql` with a unary plus before every positional parameter (`?` or `?NNN`) that is not inside a string
 * literal, a quoted identifier (`"…"`, `` `…` ``, `[…]`) or a comment; a parameter already preceded by `+` is left as
 * it is. Named parameters (`:name`, `@name`, `$name`) are not touched (Kysely's SQLite compiler emits `?` only).
 * Pure; linear in the length of `sql`.
 */
export function withValueFreePlans(sql: string): string {
  let out = "";
  let i = 0;
  const n = sql.length;
  while (i < n) {
    const c = sql[i];
    if (c === "'" || c === '"' || c === "`") {
      // Quoted text or identifier; a doubled quote inside is an escaped quote.
      let j = i + 1;
      while (j < n) {
        if (sql[j] === c) {
          if (sql[j + 1] === c) j += 2;
          else break;
        } else j++;
      }
      out += sql.slice(i, j + 1);
      i = j + 1;
    } else if (c === "[") {
      const j = sql.indexOf("]", i + 1);
      const end = j < 0 ? n : j + 1;
      out += sql.slice(i, end);
      i = end;
    } else if (c === "-" && sql[i + 1] === "-") {
      const j = sql.indexOf("\n", i + 2);
      const end = j < 0 ? n : j + 1;
      out += sql.slice(i, end);
      i = end;
    } else if (c === "/" && sql[i + 1] === "*") {
      const j = sql.indexOf("*/", i + 2);
      const end = j < 0 ? n : j + 2;
      out += sql.slice(i, end);
      i = end;
    } else if (c === "?") {
      let j = i + 1;
      while (j < n && sql.charCodeAt(j) >= 48 && sql.charCodeAt(j) <= 57) j++;
      out += `${out.endsWith("+") ? "" : "+"}${sql.slice(i, j)}`;
      i = j;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}
