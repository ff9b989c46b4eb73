/**
 * Fails when a tracked file cites an issue or decision number (the word, singular or plural, then a number):
 * comments and documents state the rule and its reason, which a successor who never saw the tracker can read; history
 * lives in git and in bench/history.md. Prints each citation as `file:line: text` and exits 1; exits 0 when none.
 * Skipped: the specification as received (docs/spec.md), the measurement history (bench/history.md), the lockfile and
 * files that are not UTF-8 text. Run by `npm run lint`.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";

/** A citation of a tracker entry: the word issue or decision, then a space, "#" or "-" and digits, in any case. */
const CITATION = /\b(issues?|decisions?)[ -]#?\d+/i;

const SKIPPED = new Set(["docs/spec.md", "bench/history.md", "package-lock.json"]);

const files = execFileSync("git", ["ls-files", "-z"], { encoding: "utf8" }).split("\0").filter(Boolean);
const found: string[] = [];
for (const file of files) {
  if (SKIPPED.has(file)) continue;
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    continue; // listed but absent (a large file not checked out)
  }
  if (text.includes("\0")) continue; // binary
  text.split("\n").forEach((line, i) => {
    if (CITATION.test(line)) found.push(`${file}:${i + 1}: ${line.trim().slice(0, 140)}`);
  });
}
if (found.length > 0) {
  console.error(`${found.length} citation(s) of an issue or decision number; state the rule and its reason instead:`);
  for (const line of found) console.error(`  ${line}`);
  process.exit(1);
}
console.log(`no issue or decision numbers cited in ${files.length} tracked files`);
