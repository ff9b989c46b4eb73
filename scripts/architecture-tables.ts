/**
 * The tables of the docs that are facts of the code, generated so they cannot drift: each lives between
 * `<!-- generated:NAME -->` and `<!-- /generated:NAME -->` and is written from the files named below.
 * - docs/architecture.md `screens`: every route of apps/web/src/app/routes.ts (children included) with its path
 *   (apps/web/src/shared/navigation/paths.ts), the file of its screen, whether it is open (no sign-in) and the browser
 *   tests in e2e/tests that open its path (csp.test.ts and deep-links.test.ts open every route and are left out).
 * - docs/architecture.md `calls`: every endpoint of the contract's registry (packages/contract/src/endpoints.ts
 *   `endpoints`) with its method, path, name, declared access (caller and object rule), the contract file that declares
 *   it and its summary, sorted by path then method.
 * - docs/architecture.md `device-topics`: every channel of a device's MQTT tree (packages/contract/src/mqtt.ts
 *   `MQTT_CHANNELS`, payload schemas by their contract names) with the publisher, QoS, retain flag and summary that the
 *   served AsyncAPI document declares (apps/server/src/http/asyncapi.ts `MQTT_CHANNEL_SPECS`), so the two agree.
 * - docs/architecture.md `database-tables`: every table the migrations create, read from a fresh SQLite database that
 *   apps/server/src/db `openDatabase` migrates in a temporary folder (the migrations are the truth, not the Kysely
 *   types), with columns, primary key and foreign keys; Kysely's own bookkeeping tables are left out.
 * - docs/configuration.md `environment`: every environment variable of the server's schema
 *   (apps/server/src/config.ts `envDocs`: default, scope, meaning) and of the simulator's CLI
 *   (apps/device-sim/src/env.ts `SIMULATOR_ENV`).
 *
 * `node scripts/architecture-tables.ts` rewrites the documents; `--check` exits 1 when a table is stale or has lost its
 * markers, naming it (npm run lint). Throws when a source cannot be read (its shape changed: adapt the reader), and
 * the rewrite throws when a marker is missing.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { sql } from "kysely";
import { DEFAULT_MIGRATION_LOCK_TABLE, DEFAULT_MIGRATION_TABLE } from "kysely/migration";
import { SIMULATOR_ENV } from "../apps/device-sim/src/env.ts";
import { type EnvScope, envDocs } from "../apps/server/src/config.ts";
import { openDatabase } from "../apps/server/src/db/index.ts";
import { MQTT_CHANNEL_SPECS } from "../apps/server/src/http/asyncapi.ts";
import {
  type Access,
  type AccessObject,
  type AccessRole,
  type Endpoint,
  endpoints,
} from "../packages/contract/src/endpoints.ts";
import * as mqtt from "../packages/contract/src/mqtt.ts";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** One route as the table shows it. */
interface ScreenRow {
  name: string;
  path: string;
  screen: string;
  open: boolean;
  tests: string[];
}

/** Reads `PATHS` (route name → path) from paths.ts. */
function readPaths(): Map<string, string> {
  const text = readFileSync(path.join(ROOT, "apps/web/src/shared/navigation/paths.ts"), "utf8");
  const body = text.slice(text.indexOf("export const PATHS = {"), text.indexOf("} as const"));
  const paths = new Map<string, string>();
  for (const m of body.matchAll(/^\s*(\w+): "([^"]+)",?$/gm)) paths.set(m[1], m[2]);
  if (paths.size === 0) throw new Error("paths.ts: no PATHS entries read");
  return paths;
}

/** The browser tests that name `routePath` as a route (a hash, a quoted path or a `target`), by file name. */
function testsOpening(routePath: string, tests: Map<string, string>): string[] {
  const escaped = routePath.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const pattern = new RegExp(`[#"'\`=]${escaped}(?=[?"'\`&#)]|$)`, "m");
  return [...tests].filter(([, text]) => pattern.test(text)).map(([file]) => file);
}

/** Every route of routes.ts in table order, read from its object literals. */
export function screenRows(): ScreenRow[] {
  const paths = readPaths();
  const text = readFileSync(path.join(ROOT, "apps/web/src/app/routes.ts"), "utf8");
  const table = text.slice(text.indexOf("export const ROUTES"));
  const testsDir = path.join(ROOT, "e2e/tests");
  const tests = new Map(
    readdirSync(testsDir)
      .filter((f) => f.endsWith(".test.ts") && f !== "csp.test.ts" && f !== "deep-links.test.ts")
      .sort()
      .map((f) => [f, readFileSync(path.join(testsDir, f), "utf8")] as const),
  );
  // A route is an object literal `{ name: "X", … }` or a call `pending("X", { … })`.
  const starts = [...table.matchAll(/\bname: "(\w+)"|\bpending\("(\w+)"/g)];
  const rows = starts.map((m, i) => {
    const name = m[1] ?? m[2];
    const block = table.slice(m.index, starts[i + 1]?.index ?? table.length);
    const routePath = paths.get(name);
    if (!routePath) throw new Error(`routes.ts: route ${name} has no path in PATHS`);
    const imported = /import\("([^"]+)"\)(?:\s*,\s*"(\w+)")?/.exec(block);
    const file = imported ? path.posix.normalize(path.posix.join("app", imported[1])) : null;
    const screen = file ? `\`${file}\`${imported?.[2] ? ` (\`${imported[2]}\`)` : ""}` : "—";
    return { name, path: routePath, screen, open: /\bopen: true\b/.test(block), tests: testsOpening(routePath, tests) };
  });
  const missing = [...paths.keys()].filter((name) => !rows.some((r) => r.name === name));
  if (missing.length > 0) throw new Error(`routes.ts: routes not read (${missing.join(", ")}); adapt the reader`);
  return rows;
}

/** The `screens` table as Markdown. */
export function screensTable(): string {
  const lines = ["| Route | Path | Screen (under apps/web/src) | Open | Browser tests |", "|---|---|---|---|---|"];
  for (const r of screenRows()) {
    const tests = r.tests.length > 0 ? r.tests.map((t) => `\`${t}\``).join(", ") : "—";
    lines.push(`| ${r.name} | \`${r.path}\` | ${r.screen} | ${r.open ? "yes" : ""} | ${tests} |`);
  }
  return lines.join("\n");
}

/** How the Scope column names each scope of the server's variables. */
const SCOPE_TEXT: Record<EnvScope, string> = {
  production: "production",
  launcher: "development launcher only",
  tests: "tests only",
};

/** Text fit for one Markdown table cell: pipes escaped, line breaks joined. */
function cell(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/\s*\n\s*/g, " ");
}

/** The `environment` table as Markdown: the server's variables in schema order, then the simulator's. */
export function environmentTable(): string {
  const lines = ["| Variable | Default | Scope | Meaning |", "|---|---|---|---|"];
  for (const v of envDocs()) {
    lines.push(`| \`${v.name}\` | ${cell(v.default)} | ${SCOPE_TEXT[v.scope]} | ${cell(v.meaning)} |`);
  }
  for (const [name, v] of Object.entries(SIMULATOR_ENV)) {
    lines.push(`| \`${name}\` | ${cell(v.default)} | simulator (\`npm run sim\`) | ${cell(v.meaning)} |`);
  }
  return lines.join("\n");
}

/** How the Caller column names a caller that is not a permission. */
const CALLER_TEXT: Record<string, string> = { open: "open", signedIn: "signed in" };

/** How the Object rule column names the caller's role. */
const ROLE_TEXT: Record<AccessRole, string> = { member: "member", admin: "administrator", owner: "owner" };

/** How the Object rule column names what the role is held on, per kind of object. */
const OBJECT_TEXT: Record<AccessObject, string> = {
  family: "the household",
  device: "the device's household",
  deviceMac: "the household of the device (by MAC)",
  familyMember: "the membership's household",
  command: "the household of the command's device",
  shareCode: "the share code",
  message: "the message",
  afterSale: "the after-sales request",
  setupTicket: "the setup ticket",
};

/**
 * The Caller and Object rule cells of an endpoint's declared access: the caller (open, signed in or a permission of
 * spec §6, which implies signed in) and the object rule, e.g. "member of the household at `query.familyId`".
 * @throws when the contract declares a role or object kind the table does not know (add its text above).
 */
export function accessCells(access: Access): { caller: string; object: string } {
  const caller = CALLER_TEXT[access.caller] ?? `\`${access.caller}\``;
  const rule = access.object;
  if (!rule) return { caller, object: "—" };
  const role = ROLE_TEXT[rule.role];
  const object = OBJECT_TEXT[rule.object];
  if (!role || !object) throw new Error(`access: unknown role "${rule.role}" or object "${rule.object}"`);
  return { caller, object: `${role} of ${object} at \`${rule.in}\`${rule.optional ? ", when given" : ""}` };
}

/** Whether `value` has the shape of a contract endpoint (method, path, access), to find where it is declared. */
function isEndpoint(value: unknown): value is Endpoint {
  return typeof value === "object" && value !== null && "method" in value && "path" in value && "access" in value;
}

/**
 * The contract file that declares each endpoint object (`endpoints/<area>.ts`), found by identity among the exported
 * objects of packages/contract/src/endpoints/: the registry spreads the areas' objects, so each entry is the very
 * object an area file exports. Files are read in name order, so an entry two files export maps to the first.
 */
async function endpointFiles(): Promise<Map<Endpoint, string>> {
  const dir = path.join(ROOT, "packages/contract/src/endpoints");
  const files = new Map<Endpoint, string>();
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"))
    .sort()) {
    const exports: Record<string, unknown> = await import(pathToFileURL(path.join(dir, file)).href);
    for (const value of Object.values(exports)) {
      if (typeof value !== "object" || value === null) continue;
      for (const entry of Object.values(value)) {
        if (isEndpoint(entry) && !files.has(entry)) files.set(entry, `endpoints/${file}`);
      }
    }
  }
  return files;
}

/** Order of methods within one path: reading before writing. */
const METHOD_ORDER = ["GET", "POST", "PUT", "DELETE"];

/** Ordinal comparison (code units), the same on every machine whatever its locale. */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Paths in reading order: case aside (`/api/RunLuckyIot/…` among the other `/api/r…`), then ordinal. */
function comparePaths(a: string, b: string): number {
  return compareText(a.toLowerCase(), b.toLowerCase()) || compareText(a, b);
}

/**
 * The `calls` table as Markdown: one row per endpoint of the contract's registry, sorted by path then method.
 * @throws when an endpoint's declaring file cannot be found under packages/contract/src/endpoints/.
 */
export async function callsTable(): Promise<string> {
  const files = await endpointFiles();
  const rows = Object.entries(endpoints as Record<string, Endpoint>).map(([name, e]) => {
    const file = files.get(e);
    if (!file) throw new Error(`endpoint ${name}: not exported by any file of packages/contract/src/endpoints/`);
    return { name, e, file };
  });
  rows.sort(
    (a, b) =>
      comparePaths(a.e.path, b.e.path) ||
      METHOD_ORDER.indexOf(a.e.method) - METHOD_ORDER.indexOf(b.e.method) ||
      compareText(a.name, b.name),
  );
  const lines = [
    "| Method | Path | Name | Caller | Object rule | Contract | Summary |",
    "|---|---|---|---|---|---|---|",
  ];
  for (const { name, e, file } of rows) {
    const access = accessCells(e.access);
    lines.push(
      `| ${e.method} | \`${e.path}\` | \`${name}\` | ${access.caller} | ${access.object} | \`${file}\` | ${cell(e.summary)} |`,
    );
  }
  return lines.join("\n");
}

/**
 * The `device-topics` table as Markdown: one row per channel of `MQTT_CHANNELS`, in its order, with the publisher,
 * QoS, retain flag and summary of the served AsyncAPI document and the payload schema's name in the contract.
 * @throws when a channel's schema is not exported by packages/contract/src/mqtt.ts.
 */
export function deviceTopicsTable(): string {
  const lines = ["| Topic | Direction | QoS | Retained | Payload (`mqtt.ts`) | Purpose |", "|---|---|---|---|---|---|"];
  for (const [channel, leaf] of Object.entries(mqtt.MQTT_CHANNELS)) {
    const spec = MQTT_CHANNEL_SPECS[channel as keyof typeof mqtt.MQTT_CHANNELS];
    const schema = Object.entries(mqtt).find(([, value]) => value === spec.schema)?.[0];
    if (!schema) throw new Error(`MQTT channel ${channel}: its schema is not exported by mqtt.ts`);
    const direction = spec.direction.replace("→", " → ");
    const topic = `${mqtt.MQTT_TOPIC_ROOT}/{mac}/${leaf}`;
    lines.push(
      `| \`${topic}\` | ${direction} | ${spec.qos} | ${spec.retained ? "yes" : "no"} | \`${schema}\` | ${cell(spec.summary)} |`,
    );
  }
  return lines.join("\n");
}

/** One column as SQLite's `pragma_table_info` describes it. */
interface ColumnInfo {
  cid: number;
  name: string;
  type: string;
  notnull: number;
  pk: number;
}

/** One foreign key as SQLite's `pragma_foreign_key_list` describes it. */
interface ForeignKeyInfo {
  table: string;
  from: string;
  to: string | null;
}

/** One table as the `database-tables` table shows it. */
export interface DatabaseTable {
  name: string;
  columns: ColumnInfo[];
  foreignKeys: ForeignKeyInfo[];
}

/**
 * Every table the server's migrations create, by name, with its columns in declaration order and its foreign keys:
 * `openDatabase` migrates a fresh SQLite database in a temporary folder (removed afterwards) and SQLite describes it.
 * Kysely's migration bookkeeping and SQLite's internal tables are left out.
 */
export async function databaseTables(): Promise<DatabaseTable[]> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "aquapilot-tables-"));
  try {
    const { db } = await openDatabase({ dataDir: dir });
    try {
      const names = await sql<{ name: string }>`
        select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name`.execute(db);
      const tables: DatabaseTable[] = [];
      for (const { name } of names.rows) {
        if (name === DEFAULT_MIGRATION_TABLE || name === DEFAULT_MIGRATION_LOCK_TABLE) continue;
        const columns = await sql<ColumnInfo>`select * from pragma_table_info(${name}) order by cid`.execute(db);
        const keys = await sql<ForeignKeyInfo>`select * from pragma_foreign_key_list(${name})`.execute(db);
        const position = new Map(columns.rows.map((c) => [c.name, c.cid]));
        const foreignKeys = [...keys.rows].sort(
          (a, b) => (position.get(a.from) ?? 0) - (position.get(b.from) ?? 0) || compareText(a.table, b.table),
        );
        tables.push({ name, columns: columns.rows, foreignKeys });
      }
      return tables;
    } finally {
      await db.destroy();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The `database-tables` table as Markdown: one row per table, with its columns (name, declared type in lower case,
 * `null` when it takes NULL), primary key and foreign keys. A primary-key column counts as not null whatever SQLite
 * says: PostgreSQL makes it NOT NULL, and SQLite's acceptance of NULL in a non-integer primary key is a legacy quirk
 * the code never relies on.
 */
export function databaseTablesTable(tables: DatabaseTable[]): string {
  const lines = ["| Table | Columns | Primary key | References |", "|---|---|---|---|"];
  for (const t of tables) {
    const columns = t.columns.map((c) => {
      const nullable = c.notnull === 0 && c.pk === 0 ? " null" : "";
      return `\`${c.name}\` ${c.type.toLowerCase()}${nullable}`;
    });
    const key = t.columns
      .filter((c) => c.pk > 0)
      .sort((a, b) => a.pk - b.pk)
      .map((c) => `\`${c.name}\``);
    const references = t.foreignKeys.map((k) => `\`${k.from}\` → \`${k.to ? `${k.table}.${k.to}` : k.table}\``);
    lines.push(
      `| \`${t.name}\` | ${columns.join(", ")} | ${key.join(", ") || "—"} | ${references.join(", ") || "—"} |`,
    );
  }
  return lines.join("\n");
}

/**
 * Replaces the text between the markers of `name` in `doc` by `body`.
 * @throws when a marker is missing.
 */
export function replaceGenerated(doc: string, name: string, body: string): string {
  const open = `<!-- generated:${name} -->`;
  const close = `<!-- /generated:${name} -->`;
  const from = doc.indexOf(open);
  const to = doc.indexOf(close);
  if (from < 0 || to < from) throw new Error(`markers of "${name}" missing`);
  return `${doc.slice(0, from + open.length)}\n${body}\n${doc.slice(to)}`;
}

/**
 * The text between the markers of `name` in `doc` as {@link replaceGenerated} writes it (the body between two line
 * breaks), or null when a marker is missing.
 */
export function generatedSection(doc: string, name: string): string | null {
  const open = `<!-- generated:${name} -->`;
  const from = doc.indexOf(open);
  const to = doc.indexOf(`<!-- /generated:${name} -->`);
  return from < 0 || to < from ? null : doc.slice(from + open.length, to);
}

/**
 * The names of the generated tables of `doc` whose text differs from `fresh` (table name → body as generated), in
 * the order of `fresh`; a table whose markers are missing counts as stale.
 */
export function staleTables(doc: string, fresh: Record<string, string>): string[] {
  return Object.entries(fresh)
    .filter(([name, body]) => generatedSection(doc, name) !== `\n${body}\n`)
    .map(([name]) => name);
}

/**
 * `doc` with every table of `fresh` (table name → body) written between its markers.
 * @throws when a marker is missing, naming the table.
 */
export function withTables(doc: string, fresh: Record<string, string>): string {
  return Object.entries(fresh).reduce((text, [name, body]) => replaceGenerated(text, name, body), doc);
}

/** One generated table: what it is read from (named by --check when stale) and how to write it. */
interface TableSource {
  from: string;
  write: () => string | Promise<string>;
}

/** Each document with generated tables (path under the repository) and its tables by marker name, in page order. */
const DOCUMENTS: Record<string, Record<string, TableSource>> = {
  "docs/architecture.md": {
    calls: { from: "packages/contract/src/endpoints.ts (endpoints)", write: callsTable },
    screens: { from: "apps/web/src/app/routes.ts, paths.ts and e2e/tests", write: screensTable },
    "device-topics": {
      from: "packages/contract/src/mqtt.ts and apps/server/src/http/asyncapi.ts (MQTT_CHANNEL_SPECS)",
      write: deviceTopicsTable,
    },
    "database-tables": {
      from: "the migrations of apps/server/src/db",
      write: async () => databaseTablesTable(await databaseTables()),
    },
  },
  "docs/configuration.md": {
    environment: { from: "apps/server/src/config.ts and apps/device-sim/src/env.ts", write: environmentTable },
  },
};

/**
 * Every generated table of the document at `file` (a key of DOCUMENTS), freshly written: table name → body.
 * @throws when a source cannot be read, naming the document.
 */
export async function generatedTables(file: string): Promise<Record<string, string>> {
  const tables = DOCUMENTS[file];
  if (!tables) throw new Error(`${file}: no generated tables`);
  const fresh: Record<string, string> = {};
  for (const [name, source] of Object.entries(tables)) {
    try {
      fresh[name] = await source.write();
    } catch (error) {
      throw new Error(`${file}: table "${name}" (from ${source.from}): ${(error as Error).message}`);
    }
  }
  return fresh;
}

/**
 * The document at `file` (a key of DOCUMENTS) with every generated table written afresh.
 * @throws when a marker is missing or a source cannot be read, naming the document.
 */
export async function generatedDocument(file: string): Promise<string> {
  const fresh = await generatedTables(file);
  try {
    return withTables(readFileSync(path.join(ROOT, file), "utf8"), fresh);
  } catch (error) {
    throw new Error(`${file}: ${(error as Error).message}`);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const check = process.argv.includes("--check");
  let stale = false;
  for (const file of Object.keys(DOCUMENTS)) {
    if (!check) {
      const written = await generatedDocument(file);
      const changed = written !== readFileSync(path.join(ROOT, file), "utf8");
      if (changed) writeFileSync(path.join(ROOT, file), written);
      console.log(`${file}: generated tables ${changed ? "written" : "up to date"}`);
      continue;
    }
    const doc = readFileSync(path.join(ROOT, file), "utf8");
    const fresh = await generatedTables(file);
    const names = staleTables(doc, fresh);
    for (const name of names) {
      const from = DOCUMENTS[file][name].from;
      console.error(
        generatedSection(doc, name) === null
          ? `${file}: table "${name}" has no markers: put <!-- generated:${name} --> and <!-- /generated:${name} --> ` +
              "where it belongs, then run `node scripts/architecture-tables.ts`"
          : `${file}: table "${name}" is stale (generated from ${from}): run \`node scripts/architecture-tables.ts\``,
      );
    }
    if (names.length > 0) stale = true;
    else console.log(`${file}: generated tables up to date`);
  }
  if (stale) process.exit(1);
}
