/**
 * Mutation testing of the modules that hold the product's rules (mutation/modules/), one StrykerJS run per module,
 * and the record of their scores (mutation/scores.json, the table in the README's test section).
 *
 * Usage:
 * - `node scripts/mutation.ts` (`npm run test:mutation`): every module; records the scores and rewrites the README
 *   table.
 * - `node scripts/mutation.ts <name> …`: those modules only; records their scores.
 * - `node scripts/mutation.ts --changed` (`npm run test:mutation:changed`, part of `npm test` and so of CI): only the
 *   modules whose code, tests or entry changed since their recorded score (a fingerprint of those files' contents, so
 *   it works on a fresh clone without history); records nothing; also fails when the README table is not the record's.
 *
 * A module passes when at least 80 % of its mutants are detected (killed or timed out) and every undetected one
 * (survived or not covered) is listed in its entry's `equivalent` with the reason no test can kill it. Exit code 1
 * when a module run fails either rule, when Stryker fails, or when the record is out of date.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, globSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { MODULES, type MutationModule } from "../mutation/modules.ts";

const REPOSITORY = path.resolve(import.meta.dirname, "..");
const SCORES_FILE = path.join(REPOSITORY, "mutation/scores.json");
const README = path.join(REPOSITORY, "README.md");
/** The lowest mutation score a module may have, in percent. */
export const SCORE_FLOOR = 80;
const TABLE_START = "<!-- mutation-scores: written by scripts/mutation.ts -->";
const TABLE_END = "<!-- /mutation-scores -->";

/** One mutant of Stryker's JSON report (mutation-testing-report-schema), the fields read here. */
interface ReportedMutant {
  mutatorName: string;
  replacement?: string;
  status: string;
  location: { start: { line: number; column: number }; end: { line: number; column: number } };
}

/** Stryker's JSON report, the part read here: per mutated file, its source and its mutants. */
export interface MutationReport {
  files: Record<string, { source: string; mutants: ReportedMutant[] }>;
}

/** What one module's run measured, as recorded in mutation/scores.json. */
export interface ModuleScore {
  /** {@link fingerprint} of the module when it was measured. */
  fingerprint: string;
  /** Mutants that count (killed, timed out, survived, not covered): compile and runtime errors and ignored ones do not. */
  mutants: number;
  /** Killed or timed out. */
  detected: number;
  /** Survived or not covered, each listed as `<file name>: <original> → <replacement>`. */
  undetected: string[];
  /** detected / mutants, in percent with one decimal (100 when there are no mutants). */
  score: number;
}

/**
 * The key of an undetected mutant: `<file name>: <original code> → <replacement>`, whitespace collapsed and each side
 * cut at 70 characters — stable when lines move, readable in a review.
 * @param file the mutated file's path; `source` its text; `mutant` from Stryker's report (1-based lines and columns).
 */
export function mutantKey(file: string, source: string, mutant: ReportedMutant): string {
  const lines = source.split("\n");
  const { start, end } = mutant.location;
  let original: string;
  if (start.line === end.line) original = lines[start.line - 1].slice(start.column - 1, end.column - 1);
  else
    original = [
      lines[start.line - 1].slice(start.column - 1),
      ...lines.slice(start.line, end.line - 1),
      lines[end.line - 1].slice(0, end.column - 1),
    ].join(" ");
  const tidy = (text: string) => {
    const flat = text.replace(/\s+/g, " ").trim();
    return flat.length > 70 ? `${flat.slice(0, 69)}…` : flat;
  };
  return `${path.basename(file)}: ${tidy(original)} → ${tidy(mutant.replacement ?? mutant.mutatorName)}`;
}

/**
 * The score of one module from its Stryker report: detected = Killed + Timeout; undetected = Survived + NoCoverage
 * (keys sorted, duplicates kept once); CompileError, RuntimeError and Ignored mutants do not count.
 */
export function scoreReport(report: MutationReport, fingerprintOfModule: string): ModuleScore {
  let detected = 0;
  const undetected = new Set<string>();
  let counted = 0;
  for (const [file, { source, mutants }] of Object.entries(report.files)) {
    for (const mutant of mutants) {
      if (mutant.status === "Killed" || mutant.status === "Timeout") {
        detected++;
        counted++;
      } else if (mutant.status === "Survived" || mutant.status === "NoCoverage") {
        undetected.add(mutantKey(file, source, mutant));
        counted++;
      }
    }
  }
  const score = counted === 0 ? 100 : Math.floor((detected / counted) * 1000) / 10;
  return { fingerprint: fingerprintOfModule, mutants: counted, detected, undetected: [...undetected].sort(), score };
}

/**
 * What is wrong with a module's score: below {@link SCORE_FLOOR}, or undetected mutants not listed in its entry's
 * `equivalent`. Empty when it passes.
 */
export function problemsOf(module: MutationModule, score: ModuleScore): string[] {
  const problems: string[] = [];
  if (score.score < SCORE_FLOOR) problems.push(`score ${score.score} % is below ${SCORE_FLOOR} %`);
  const reviewed = new Set(Object.keys(module.equivalent ?? {}));
  for (const key of score.undetected)
    if (!reviewed.has(key))
      problems.push(`undetected and not reviewed (kill it with a test, or list it with why it is equivalent): ${key}`);
  return problems;
}

/**
 * The fingerprint of a module: SHA-256 over its entry (without its title and reviewed survivors) and the contents of
 * its mutated files and test files. It changes when the code, the tests or the entry change, and is the same on any
 * clone of the same commit.
 */
export function fingerprint(module: MutationModule, root = REPOSITORY): string {
  const hash = createHash("sha256");
  hash.update(JSON.stringify({ mutate: module.mutate, tests: module.tests }));
  const files = new Set(module.mutate.map((m) => m.replace(/:\d+-\d+$/, "")));
  for (const pattern of module.tests.include)
    for (const f of globSync(pattern, { cwd: path.join(root, module.tests.root) }))
      files.add(path.join(module.tests.root, f));
  for (const file of [...files].sort()) {
    hash.update(`\0${file}\0`);
    hash.update(readFileSync(path.join(root, file)));
  }
  return hash.digest("hex").slice(0, 16);
}

/** The README table of the recorded scores: one row per module, in {@link MODULES} order. */
export function renderTable(modules: MutationModule[], scores: Record<string, ModuleScore>): string {
  const rows = modules.map((m) => {
    const s = scores[m.name];
    return s
      ? `| ${m.name} | ${m.title} | ${s.mutants} | ${s.score} % | ${s.undetected.length} |`
      : `| ${m.name} | ${m.title} | – | not measured | – |`;
  });
  return [
    TABLE_START,
    "| Module | Rule | Mutants | Score | Equivalent survivors |",
    "|---|---|---:|---:|---:|",
    ...rows,
    TABLE_END,
  ].join("\n");
}

/** `readme` with its table block replaced by `table`. @throws when the README has no table block. */
export function withTable(readme: string, table: string): string {
  const start = readme.indexOf(TABLE_START);
  const end = readme.indexOf(TABLE_END);
  if (start < 0 || end < start) throw new Error(`README.md has no "${TABLE_START}" … "${TABLE_END}" block`);
  return readme.slice(0, start) + table + readme.slice(end + TABLE_END.length);
}

/** `scores` with its keys in the order of `modules` (a stable file, whatever order runs recorded them in). */
function orderedAs(modules: MutationModule[], scores: Record<string, ModuleScore>): Record<string, ModuleScore> {
  return Object.fromEntries(modules.filter((m) => scores[m.name]).map((m) => [m.name, scores[m.name]]));
}

function readScores(): Record<string, ModuleScore> {
  return existsSync(SCORES_FILE) ? JSON.parse(readFileSync(SCORES_FILE, "utf8")) : {};
}

/** Runs Stryker on one module; returns its score, or null when Stryker itself failed. */
function runModule(module: MutationModule): ModuleScore | null {
  console.log(`\n== mutation: ${module.name} (${module.mutate.join(", ")})`);
  const stryker = path.join(REPOSITORY, "node_modules/.bin/stryker");
  const run = spawnSync(stryker, ["run", "mutation/stryker.config.mjs"], {
    cwd: REPOSITORY,
    stdio: "inherit",
    env: { ...process.env, MUTATION_MODULE: module.name },
  });
  if (run.status !== 0) return null;
  const report = JSON.parse(
    readFileSync(path.join(REPOSITORY, `.tmp/mutation/${module.name}/mutation.json`), "utf8"),
  ) as MutationReport;
  return scoreReport(report, fingerprint(module));
}

function main(args: string[]): number {
  const changedOnly = args.includes("--changed");
  const named = args.filter((a) => !a.startsWith("--"));
  for (const name of named) if (!MODULES.some((m) => m.name === name)) throw new Error(`no mutation module "${name}"`);
  const scores = readScores();
  const selected = MODULES.filter((m) =>
    changedOnly ? scores[m.name]?.fingerprint !== fingerprint(m) : named.length === 0 || named.includes(m.name),
  );
  let failed = false;
  const lines: string[] = [];
  for (const module of MODULES) {
    if (!selected.includes(module)) {
      const s = scores[module.name];
      lines.push(
        s
          ? `${module.name}: ${s.score} % of ${s.mutants} (recorded${changedOnly ? "; unchanged since" : ""})`
          : `${module.name}: not measured`,
      );
      continue;
    }
    const score = runModule(module);
    if (!score) {
      failed = true;
      lines.push(`${module.name}: Stryker failed`);
      continue;
    }
    const problems = problemsOf(module, score);
    if (problems.length > 0) failed = true;
    lines.push(`${module.name}: ${score.score} % of ${score.mutants} (measured now)`);
    for (const p of problems) lines.push(`  ✗ ${p}`);
    if (!changedOnly) scores[module.name] = score;
  }
  if (!changedOnly) {
    // Read again before writing: another run may have recorded other modules meanwhile; only this run's modules change.
    const recorded = { ...readScores() };
    for (const module of selected) if (scores[module.name]) recorded[module.name] = scores[module.name];
    for (const name of Object.keys(recorded)) if (!MODULES.some((m) => m.name === name)) delete recorded[name];
    Object.assign(scores, recorded);
    writeFileSync(SCORES_FILE, `${JSON.stringify(orderedAs(MODULES, recorded), null, 2)}\n`);
    writeFileSync(README, withTable(readFileSync(README, "utf8"), renderTable(MODULES, scores)));
  } else if (!readFileSync(README, "utf8").includes(renderTable(MODULES, scores))) {
    failed = true;
    lines.push("README.md's mutation table is not the record of mutation/scores.json: run `npm run test:mutation`");
  }
  console.log(`\nmutation scores (floor ${SCORE_FLOOR} %, per module):`);
  for (const line of lines) console.log(`  ${line}`);
  return failed ? 1 : 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exit(main(process.argv.slice(2)));
}
