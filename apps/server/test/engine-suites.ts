import fs from "node:fs";
import path from "node:path";

/**
 * The server's API test files that build their apps on the default engine of test apps (test/helpers.ts
 * `createTestApp` without `engine`): every `src/**\/*.test.ts` under `serverRoot` that calls `createTestApp` and does
 * not name `ENGINES` (test/databases.ts) — the files that loop over the engines already run on both. The root
 * vitest.config.ts runs these files a second time, with TEST_ENGINE=postgres, in its "server-postgres" project, so
 * every API test file runs on SQLite and on PostgreSQL. Answers paths relative to `serverRoot`, sorted, with "/".
 */
export function apiSuitesOnDefaultEngine(serverRoot: string): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith(".test.ts")) {
        const text = fs.readFileSync(full, "utf8");
        if (text.includes("createTestApp(") && !text.includes("ENGINES")) found.push(full);
      }
    }
  };
  walk(path.join(serverRoot, "src"));
  return found.map((f) => path.relative(serverRoot, f).split(path.sep).join("/")).sort();
}
