/**
 * The last step of `npm run test:unit` and of the browser tests (`npm test -w e2e`): reads the JSON report Vitest just
 * wrote (`--reporter=json --outputFile.json=<report>`) and, when `CI` is set, fails listing every test that did not
 * run (skipped, todo, pending): a green CI run means every test ran, the suites that need Mosquitto, Redis, nginx and
 * PostgreSQL included. Without CI it lists them and passes. Prints the number of such tests at the end either way.
 *
 * Usage: `node scripts/no-skipped-tests.ts <report.json>` (exit 1: tests did not run under CI, or no readable report).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
// One reading of CI for the whole suite: the guard of the suites that need programs of the machine reads it too.
import { isCi } from "../apps/server/test/required-programs.ts";

/** The part of one test in Vitest's JSON report that this check reads. */
interface ReportedTest {
  ancestorTitles: string[];
  title: string;
  status: string;
}

/** The part of Vitest's JSON report (the Jest-compatible shape) that this check reads. */
interface VitestJsonReport {
  testResults: { name: string; assertionResults: ReportedTest[] }[];
}

/** A test of the report that did not run: its file (relative to `root`), suite titles and title, and its status. */
export interface NotRun {
  file: string;
  name: string;
  status: string;
}

/** Statuses of a test that ran; every other (skipped, todo, pending, disabled) is a test that did not. */
const RAN = new Set(["passed", "failed"]);

/**
 * The tests of `report` that did not run, in report order, files named relative to `root`.
 * @throws when `report` is not the shape Vitest's JSON reporter writes (no `testResults` list).
 */
export function testsNotRun(report: unknown, root: string): NotRun[] {
  const results = (report as Partial<VitestJsonReport> | null)?.testResults;
  if (!Array.isArray(results)) throw new Error("not a Vitest JSON report: no testResults");
  const found: NotRun[] = [];
  for (const file of results) {
    for (const test of file.assertionResults ?? []) {
      if (RAN.has(test.status)) continue;
      found.push({
        file: path.relative(root, file.name),
        name: [...test.ancestorTitles, test.title].join(" > "),
        status: test.status,
      });
    }
  }
  return found;
}

/**
 * The check on the report file `reportFile`: the lines to print (to stdout when `code` is 0, else to stderr) and the
 * exit code — 1 when tests did not run and `env` is a CI run, or when the report cannot be read; else 0. The last line
 * always gives the count of tests that did not run.
 */
export function checkReport(
  reportFile: string,
  env: NodeJS.ProcessEnv,
  root = process.cwd(),
): { code: 0 | 1; lines: string[] } {
  let notRun: NotRun[];
  try {
    notRun = testsNotRun(JSON.parse(readFileSync(reportFile, "utf8")), root);
  } catch (err) {
    return { code: 1, lines: [`no-skipped-tests: cannot read ${reportFile}: ${(err as Error).message}`] };
  }
  const ci = isCi(env);
  const lines = notRun.map((t) => `  ${t.status}: ${t.file} > ${t.name}`);
  if (notRun.length > 0) {
    lines.unshift(
      ci
        ? `${notRun.length} test(s) did not run, and CI refuses a skipped test (install what they need, or remove the skip):`
        : `${notRun.length} test(s) did not run (with CI set this fails the run):`,
    );
  }
  lines.push(`skipped tests: ${notRun.length}`);
  return { code: ci && notRun.length > 0 ? 1 : 0, lines };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  if (args.length !== 1) {
    console.error(
      "usage: node scripts/no-skipped-tests.ts <vitest-report.json> (extra arguments of `npm run test:unit -- …` land " +
        "here, not at Vitest: run `npx vitest run …` for a part of the tests)",
    );
    process.exit(1);
  }
  const { code, lines } = checkReport(args[0], process.env);
  for (const line of lines) (code === 0 ? console.log : console.error)(line);
  process.exit(code);
}
