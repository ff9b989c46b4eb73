/**
 * The generated tables of docs/architecture.md and docs/configuration.md: the documents as committed match what the
 * code generates, and the check names a table whose text no longer matches (edited by hand, or the code moved on).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { endpoints } from "../packages/contract/src/endpoints.ts";
import { generatedSection, generatedTables, staleTables, withTables } from "./architecture-tables.ts";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const read = (file: string) => readFileSync(path.join(ROOT, file), "utf8");

describe("generated tables", () => {
  it("docs/architecture.md holds every table as the code generates it", async () => {
    const fresh = await generatedTables("docs/architecture.md");
    expect(Object.keys(fresh)).toEqual(["calls", "screens", "device-topics", "database-tables"]);
    expect(staleTables(read("docs/architecture.md"), fresh)).toEqual([]);
  });

  it("the calls table lists every endpoint of the contract once, and the tables table every migrated table", async () => {
    const fresh = await generatedTables("docs/architecture.md");
    const callRows = fresh.calls.split("\n").filter((line) => /^\| (GET|POST|PUT|DELETE) /.test(line));
    expect(callRows.some((row) => row.includes("`createFamily`"))).toBe(true);
    expect(new Set(callRows).size).toBe(callRows.length);
    expect(callRows.length).toBe(Object.keys(endpoints).length);
    expect(fresh["database-tables"]).toContain("`after_sale_requests`");
    expect(fresh["database-tables"]).not.toContain("kysely_migration");
  });

  it("names a table edited by hand, and one whose markers are gone, as stale; rewriting makes it fresh", async () => {
    const fresh = await generatedTables("docs/configuration.md");
    const doc = read("docs/configuration.md");
    const edited = doc.replace(/\| `PORT` \|[^\n]*/, "| `PORT` | edited by hand |");
    expect(edited).not.toBe(doc);
    expect(staleTables(edited, fresh)).toEqual(["environment"]);
    const unmarked = doc.replace("<!-- generated:environment -->", "");
    expect(staleTables(unmarked, fresh)).toEqual(["environment"]);
    expect(generatedSection(unmarked, "environment")).toBeNull();
    expect(staleTables(withTables(edited, fresh), fresh)).toEqual([]);
  });
});
