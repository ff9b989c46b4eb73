import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { MutationModule } from "../mutation/modules.ts";
import {
  fingerprint,
  type MutationReport,
  mutantKey,
  problemsOf,
  renderTable,
  scoreReport,
  withTable,
} from "./mutation.ts";

const SOURCE = ["export function low(days: number, threshold: number) {", "  return days <= threshold;", "}"].join(
  "\n",
);

/** A mutant of {@link SOURCE} at line 2, columns 10–27 (`days <= threshold`), 1-based as Stryker reports. */
function mutant(status: string, replacement = "days < threshold") {
  return {
    mutatorName: "EqualityOperator",
    replacement,
    status,
    location: { start: { line: 2, column: 10 }, end: { line: 2, column: 27 } },
  };
}

const MODULE: MutationModule = {
  name: "low",
  title: "Low rule",
  mutate: ["src/low.ts"],
  tests: { root: "src", include: ["*.test.ts"] },
  equivalent: { "low.ts: days <= threshold → days < threshold": "reviewed" },
};

describe("mutation scores", () => {
  it("names an undetected mutant by its file name, original code and replacement", () => {
    expect(mutantKey("apps/x/src/low.ts", SOURCE, mutant("Survived"))).toBe(
      "low.ts: days <= threshold → days < threshold",
    );
    const multiLine = {
      ...mutant("Survived", "{}"),
      location: { start: { line: 1, column: 54 }, end: { line: 3, column: 2 } },
    };
    expect(mutantKey("low.ts", SOURCE, multiLine)).toBe("low.ts: { return days <= threshold; } → {}");
  });

  it("counts killed and timed-out mutants as detected, survived and uncovered as not, errors not at all", () => {
    const report: MutationReport = {
      files: {
        "src/low.ts": {
          source: SOURCE,
          mutants: [
            mutant("Killed"),
            mutant("Killed"),
            mutant("Timeout"),
            mutant("Survived"),
            mutant("NoCoverage", "true"),
            mutant("CompileError"),
            mutant("RuntimeError"),
            mutant("Ignored"),
          ],
        },
      },
    };
    expect(scoreReport(report, "f")).toEqual({
      fingerprint: "f",
      mutants: 5,
      detected: 3,
      undetected: ["low.ts: days <= threshold → days < threshold", "low.ts: days <= threshold → true"],
      score: 60,
    });
    expect(scoreReport({ files: {} }, "f").score).toBe(100);
    // Rounded down: 4 of 6 is 66.6 %, never shown as 66.7 % (a floor of 66.7 would pass it).
    const sixMutants = [...Array(4).fill(mutant("Killed")), mutant("Survived"), mutant("Survived")];
    expect(scoreReport({ files: { "low.ts": { source: SOURCE, mutants: sixMutants } } }, "f").score).toBe(66.6);
  });

  it("fails a module below 80 % and one with an undetected mutant nobody reviewed", () => {
    const score = (detected: number, undetected: string[]) => ({
      fingerprint: "f",
      mutants: detected + undetected.length,
      detected,
      undetected,
      score: Math.floor((detected / (detected + undetected.length)) * 1000) / 10,
    });
    expect(problemsOf(MODULE, score(4, ["low.ts: days <= threshold → days < threshold"]))).toEqual([]);
    expect(problemsOf(MODULE, score(3, ["low.ts: days <= threshold → days < threshold"]))).toEqual([
      "score 75 % is below 80 %",
    ]);
    expect(problemsOf(MODULE, score(9, ["low.ts: days <= threshold → true"]))).toEqual([
      "undetected and not reviewed (kill it with a test, or list it with why it is equivalent): low.ts: days <= threshold → true",
    ]);
  });

  it("changes a module's fingerprint when its code, its tests or its entry change, and not otherwise", () => {
    const root = mkdtempSync(path.join(os.tmpdir(), "aq-mutation-"));
    mkdirSync(path.join(root, "src"));
    writeFileSync(path.join(root, "src/low.ts"), SOURCE);
    writeFileSync(path.join(root, "src/low.test.ts"), "test");
    const first = fingerprint(MODULE, root);
    expect(fingerprint({ ...MODULE, title: "renamed", equivalent: {} }, root)).toBe(first);
    writeFileSync(path.join(root, "src/low.test.ts"), "test 2");
    const second = fingerprint(MODULE, root);
    expect(second).not.toBe(first);
    writeFileSync(path.join(root, "src/low.ts"), `${SOURCE}\n`);
    expect(fingerprint(MODULE, root)).not.toBe(second);
    expect(fingerprint({ ...MODULE, mutate: ["src/low.ts:1-2"] }, root)).not.toBe(fingerprint(MODULE, root));
  });

  it("writes the README table from the record, a module without a score shown as not measured", () => {
    const table = renderTable([MODULE, { ...MODULE, name: "other", title: "Other rule" }], {
      low: { fingerprint: "f", mutants: 99, detected: 90, undetected: ["a", "b"], score: 90.9 },
    });
    expect(table.split("\n").slice(1, -1)).toEqual([
      "| Module | Rule | Mutants | Score | Equivalent survivors |",
      "|---|---|---:|---:|---:|",
      "| low | Low rule | 99 | 90.9 % | 2 |",
      "| other | Other rule | – | not measured | – |",
    ]);
    const readme = `before\n${renderTable([], {})}\nafter`;
    expect(withTable(readme, table)).toBe(`before\n${table}\nafter`);
    expect(() => withTable("no block", table)).toThrow(/no .* block/);
  });
});
