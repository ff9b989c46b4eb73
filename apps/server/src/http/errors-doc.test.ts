import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import "../../test/catalogue.ts";
import { DOMAIN_ERRORS } from "./errors.ts";
import { ERRORS_DOC, errorsDoc, findRaisedErrors, type RaisedError, renderErrorsDoc } from "./errors-doc.ts";
import { MESSAGES } from "./messages.ts";

describe("docs/errors.md: the domain error codes in one table", () => {
  it("is what the generator writes from the sources now (run `npm run generate:errors -w apps/server`)", () => {
    expect(fs.readFileSync(ERRORS_DOC, "utf8")).toBe(errorsDoc(MESSAGES.en));
  });

  it("lists every error code with its status, and the keys the checker infers through tables and conditionals", () => {
    const doc = fs.readFileSync(ERRORS_DOC, "utf8");
    for (const [code, { status }] of Object.entries(DOMAIN_ERRORS)) {
      expect(doc, code).toContain(`| ${code} | ${status} |`);
      expect(doc, code).toContain(`### ${code}`);
    }
    // auth/access.ts looks its NotFound key up in an `as const` table; security/limits.ts picks one of two keys.
    expect(doc).toMatch(/\| `afterSale\.notFound` \| 404 \| After-sales request not found\. \| `auth\/access\.ts`/);
    expect(doc).toMatch(/\| `limits\.retryMinutes` \| 429 \|/);
    expect(doc).toMatch(/\| `limits\.retrySeconds` \| 429 \|/);
  });
});

describe("findRaisedErrors and renderErrorsDoc", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "errors-doc-"));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const project = (name: string, source: string) => {
    const root = path.join(dir, name);
    fs.mkdirSync(path.join(root, "src"), { recursive: true });
    fs.writeFileSync(
      path.join(root, "tsconfig.json"),
      JSON.stringify({ compilerOptions: { strict: true, noEmit: true, types: [], lib: ["ES2023"] }, include: ["src"] }),
    );
    const header = [
      'type Code = "NotFound" | "Conflict" | "Validation";',
      "declare class AppError { code: Code; messageKey: string; constructor(code: Code, key: string, ...rest: unknown[]); }",
      "declare class EdgeRefusal { constructor(status: number, key: string); }",
    ].join("\n");
    fs.writeFileSync(path.join(root, "src/raise.ts"), `${header}\n${source}\n`);
    fs.writeFileSync(
      path.join(root, "src/raise.test.ts"),
      `${header}\nexport const t = new AppError("NotFound", "in.test");\n`,
    );
    return root;
  };

  it("reads literals, conditionals and `as const` lookups, skips re-throws and tests, and sorts", () => {
    const root = project(
      "good",
      [
        'const T = { a: "x.a", b: "x.b" } as const;',
        "export const f = (k: keyof typeof T, c: boolean, err: AppError) => [",
        '  new AppError("NotFound", T[k]),',
        '  new AppError("Conflict", c ? "x.d" : "x.c", {}),',
        "  new AppError(err.code, err.messageKey),",
        '  new EdgeRefusal(414, "x.long"),',
        "];",
      ].join("\n"),
    );
    const found = findRaisedErrors(path.join(root, "src"), path.join(root, "tsconfig.json"));
    const row = (code: string, status: number, key: string, via = "AppError") => ({
      code,
      status,
      key,
      via,
      file: "raise.ts",
    });
    expect(found).toEqual([
      row("Conflict", 409, "x.c"),
      row("Conflict", 409, "x.d"),
      row("NotFound", 404, "x.a"),
      row("NotFound", 404, "x.b"),
      row("Validation", 414, "x.long", "EdgeRefusal"),
    ]);
  });

  it("refuses a key that is not known at compile time", () => {
    const root = project("bad", 'export const f = (key: string) => new AppError("NotFound", key);');
    expect(() => findRaisedErrors(path.join(root, "src"), path.join(root, "tsconfig.json"))).toThrow(
      /raise\.ts:4: the code, key and status of AppError must be known at compile time/,
    );
  });

  it("refuses a key without English text, and escapes pipes in the text", () => {
    const raised: RaisedError[] = [{ code: "Conflict", status: 409, key: "x.y", via: "AppError", file: "a.ts" }];
    expect(() => renderErrorsDoc(raised, MESSAGES.en)).toThrow(/x\.y has no English text/);
    expect(renderErrorsDoc(raised, { ...MESSAGES.en, "x.y": "a | b" })).toContain("| `x.y` | 409 | a \\| b | `a.ts` |");
  });
});
