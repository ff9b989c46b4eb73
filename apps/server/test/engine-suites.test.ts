import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { apiSuitesOnDefaultEngine } from "./engine-suites.ts";
import { defaultTestEngine } from "./helpers.ts";

describe("the default engine of test apps (TEST_ENGINE)", () => {
  it("is SQLite unless TEST_ENGINE names PostgreSQL, and refuses any other engine", () => {
    expect(defaultTestEngine({})).toBe("sqlite");
    expect(defaultTestEngine({ TEST_ENGINE: "" })).toBe("sqlite");
    expect(defaultTestEngine({ TEST_ENGINE: "sqlite" })).toBe("sqlite");
    expect(defaultTestEngine({ TEST_ENGINE: "postgres" })).toBe("postgres");
    expect(() => defaultTestEngine({ TEST_ENGINE: "mysql" })).toThrow(/TEST_ENGINE must be "sqlite" or "postgres"/);
  });
});

describe("the API test files run a second time on PostgreSQL (vitest.config.ts server-postgres)", () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
  });

  it("are the test files under src/ that build test apps without looping over ENGINES", () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "aq-engine-suites-"));
    dirs.push(root);
    const files: Record<string, string> = {
      "src/a.test.ts": "const t = await createTestApp();",
      "src/deep/b.test.ts": "t = await createTestApp({ env: {} });",
      "src/loops.test.ts": 'describe.each(ENGINES)("x on %s", (engine) => createTestApp({ engine }));',
      "src/no-app.test.ts": "expect(1).toBe(1);",
      "src/helper.ts": "export const x = () => createTestApp();",
      "test/outside-src.test.ts": "const t = await createTestApp();",
    };
    for (const [file, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      fs.writeFileSync(path.join(root, file), text);
    }
    expect(apiSuitesOnDefaultEngine(root)).toEqual(["src/a.test.ts", "src/deep/b.test.ts"]);
  });

  it("include the server's own API suites on the default engine and leave out those that loop over ENGINES", () => {
    const listed = apiSuitesOnDefaultEngine(path.join(import.meta.dirname, ".."));
    expect(listed).toContain("src/app.test.ts");
    expect(listed).toContain("src/modules/account/account.test.ts");
    expect(listed).not.toContain("src/modules/fault/fault.test.ts");
    expect(listed).not.toContain("src/production.test.ts");
  });
});
