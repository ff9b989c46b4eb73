/**
 * The tables of the docs that are facts of the code, generated so they cannot drift: each lives between
 * `<!-- generated:NAME -->` and `<!-- /generated:NAME -->` and is written from the files named below.
 * - docs/architecture.md `screens`: every route of apps/web/src/app/routes.ts (children included) with its path
 *   (apps/web/src/shared/navigation/paths.ts), the file of its screen, whether it is open (no sign-in) and the browser
 *   tests in e2e/tests that open its path (csp.test.ts and deep-links.test.ts open every route and are left out).
 * - docs/configuration.md `environment`: every environment variable of the server's schema
 *   (apps/server/src/config.ts `envDocs`: default, scope, meaning) and of the simulator's CLI
 *   (apps/device-sim/src/env.ts `SIMULATOR_ENV`).
 *
 * `node scripts/architecture-tables.ts` rewrites the documents; `--check` exits 1 when one is stale (npm run lint).
 * Throws when a marker is missing or a route cannot be read (the route table's shape changed: adapt the reader).
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { SIMULATOR_ENV } from "../apps/device-sim/src/env.ts";
import { type EnvScope, envDocs } from "../apps/server/src/config.ts";

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

/** Each document with generated tables (path under the repository) and how to write them afresh. */
const DOCUMENTS: Record<string, (doc: string) => string> = {
  "docs/architecture.md": (doc) => replaceGenerated(doc, "screens", screensTable()),
  "docs/configuration.md": (doc) => replaceGenerated(doc, "environment", environmentTable()),
};

/**
 * The document at `file` (a key of DOCUMENTS) with every generated table written afresh.
 * @throws when a marker is missing, naming the document.
 */
export function generatedDocument(file: string): string {
  const write = DOCUMENTS[file];
  if (!write) throw new Error(`${file}: no generated tables`);
  try {
    return write(readFileSync(path.join(ROOT, file), "utf8"));
  } catch (error) {
    throw new Error(`${file}: ${(error as Error).message}`);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const check = process.argv.includes("--check");
  let stale = false;
  for (const file of Object.keys(DOCUMENTS)) {
    const fresh = generatedDocument(file);
    if (!check) {
      writeFileSync(path.join(ROOT, file), fresh);
      console.log(`${file}: generated tables written`);
    } else if (fresh !== readFileSync(path.join(ROOT, file), "utf8")) {
      console.error(`${file}: generated tables are stale; run \`node scripts/architecture-tables.ts\``);
      stale = true;
    } else {
      console.log(`${file}: generated tables up to date`);
    }
  }
  if (stale) process.exit(1);
}
