/**
 * The last step of the test commands (no-skipped-tests.ts): a Vitest JSON report with a skipped or todo test fails
 * under CI and lists it; one where every test ran passes; without CI a skipped test is listed but passes; the count is
 * printed last either way.
 */
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { checkReport, testsNotRun } from "./no-skipped-tests.ts";

const SCRIPT = fileURLToPath(new URL("./no-skipped-tests.ts", import.meta.url));
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "aquapilot-no-skipped-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A test as Vitest's JSON reporter writes it (the fields the check reads, and a few it does not). */
const test = (ancestorTitles: string[], title: string, status: string) => ({
  ancestorTitles,
  fullName: [...ancestorTitles, title].join(" "),
  status,
  title,
  duration: 3,
  failureMessages: [],
});

/** Writes a report of the shape Vitest's JSON reporter writes to `name` in the temp folder; returns its path. */
function report(name: string, tests: { file: string; tests: ReturnType<typeof test>[] }[]): string {
  const file = path.join(dir, name);
  const all = tests.flatMap((t) => t.tests);
  fs.writeFileSync(
    file,
    JSON.stringify({
      numTotalTests: all.length,
      numPendingTests: all.filter((t) => t.status === "skipped").length,
      numTodoTests: all.filter((t) => t.status === "todo").length,
      success: true,
      testResults: tests.map((t) => ({
        assertionResults: t.tests,
        status: "passed",
        message: "",
        name: path.join("/repo", t.file),
      })),
    }),
  );
  return file;
}

const allRan = report("all-ran.json", [
  { file: "apps/server/src/redis-bus.test.ts", tests: [test(["RedisBus"], "delivers", "passed")] },
  { file: "apps/web/src/a.test.ts", tests: [test([], "renders", "passed"), test(["x"], "breaks", "failed")] },
]);
const someSkipped = report("some-skipped.json", [
  {
    file: "apps/server/src/redis-bus.test.ts",
    tests: [test(["RedisBus"], "delivers", "skipped"), test(["RedisBus"], "reconnects", "skipped")],
  },
  { file: "apps/web/src/a.test.ts", tests: [test([], "renders", "passed"), test(["later"], "draws", "todo")] },
]);

describe("no-skipped-tests", () => {
  it("lists every test that did not run, with its file, suites and status", () => {
    const parsed = JSON.parse(fs.readFileSync(someSkipped, "utf8"));
    expect(testsNotRun(parsed, "/repo")).toEqual([
      { file: "apps/server/src/redis-bus.test.ts", name: "RedisBus > delivers", status: "skipped" },
      { file: "apps/server/src/redis-bus.test.ts", name: "RedisBus > reconnects", status: "skipped" },
      { file: "apps/web/src/a.test.ts", name: "later > draws", status: "todo" },
    ]);
    expect(testsNotRun(JSON.parse(fs.readFileSync(allRan, "utf8")), "/repo")).toEqual([]);
  });

  it("fails under CI when a test was skipped or todo, listing them, and prints the count last", () => {
    const { code, lines } = checkReport(someSkipped, { CI: "true" }, "/repo");
    expect(code).toBe(1);
    expect(lines).toEqual([
      "3 test(s) did not run, and CI refuses a skipped test (install what they need, or remove the skip):",
      "  skipped: apps/server/src/redis-bus.test.ts > RedisBus > delivers",
      "  skipped: apps/server/src/redis-bus.test.ts > RedisBus > reconnects",
      "  todo: apps/web/src/a.test.ts > later > draws",
      "skipped tests: 3",
    ]);
  });

  it("passes when every test ran, CI or not, printing 0", () => {
    for (const env of [{ CI: "true" }, {}]) {
      expect(checkReport(allRan, env, "/repo")).toEqual({ code: 0, lines: ["skipped tests: 0"] });
    }
  });

  it("without CI lists the skipped tests but passes", () => {
    const { code, lines } = checkReport(someSkipped, { CI: "false" }, "/repo");
    expect(code).toBe(0);
    expect(lines[0]).toBe("3 test(s) did not run (with CI set this fails the run):");
    expect(lines.at(-1)).toBe("skipped tests: 3");
  });

  it("fails when the report is missing or is not Vitest's", () => {
    const other = path.join(dir, "other.json");
    fs.writeFileSync(other, JSON.stringify({ results: [] }));
    expect(checkReport(other, {}).code).toBe(1);
    expect(checkReport(other, {}).lines[0]).toMatch(/not a Vitest JSON report/);
    expect(checkReport(path.join(dir, "absent.json"), {}).code).toBe(1);
  });

  it("as a command: exit 1 and the list on stderr under CI, exit 0 and the count without skips", () => {
    const env = { ...process.env, CI: "true" };
    const failed = spawnSync(process.execPath, [SCRIPT, someSkipped], { env, encoding: "utf8" });
    expect(failed.status).toBe(1);
    expect(failed.stderr).toContain("RedisBus > reconnects");
    expect(failed.stderr.trim().split("\n").at(-1)).toBe("skipped tests: 3");
    const passed = execFileSync(process.execPath, [SCRIPT, allRan], { env, encoding: "utf8" });
    expect(passed.trim()).toBe("skipped tests: 0");
    const misused = spawnSync(process.execPath, [SCRIPT, allRan, "--project", "server"], { env, encoding: "utf8" });
    expect(misused.status).toBe(1);
    expect(misused.stderr).toContain("npx vitest run");
  });
});
