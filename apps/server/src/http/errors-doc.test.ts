import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ErrorCode } from "@aquapilot/contract";
import { afterAll, describe, expect, it } from "vitest";
import "../../test/catalogue.ts";
import { AppError, DOMAIN_ERRORS } from "./errors.ts";
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

// The HTTP status of each domain error code, written by hand from what each code means (docs/errors.md, spec §8) and
// the HTTP semantics of its status, not read from DOMAIN_ERRORS: a status changed in the table the server uses, a code
// added without a decided status, or a code dropped, fails here.
// - Validation 400: the input breaks a rule; the client must change the request.
// - InvalidCode 400: a wrong, expired, used or revoked code or ticket is bad input too, not missing credentials.
// - Unauthorized 401: no valid bearer token (spec §8 "HTTP 401: Login expired", the app goes to Login).
// - Forbidden 403: signed in and in the household, but the role or a permission lacks the right.
// - NotFound 404: the object is unknown or the caller has no part in it (the matrix's "looks absent").
// - Conflict 409: the object's current state refuses the change.
// - TooManyRequests 429: a rate limit, with Retry-After.
// - DeviceOffline 409: the device's current state (offline) refuses the command, as in the authorization matrix.
// - Internal 500: a failure of the server, not of the request.
const EXPECTED_STATUS: Readonly<Record<string, number>> = {
  Validation: 400,
  InvalidCode: 400,
  Unauthorized: 401,
  Forbidden: 403,
  NotFound: 404,
  Conflict: 409,
  TooManyRequests: 429,
  DeviceOffline: 409,
  Internal: 500,
};

describe("the HTTP status of each domain error code (hand-written expectation)", () => {
  it("has an expectation for every code of the contract and the server's table, and none for an unknown code", () => {
    const expected = Object.keys(EXPECTED_STATUS).sort();
    expect(Object.values(ErrorCode).sort()).toEqual(expected);
    expect(Object.keys(DOMAIN_ERRORS).sort()).toEqual(expected);
  });

  it("answers each code with the expected status: the server's table, an AppError and docs/errors.md", () => {
    const doc = fs.readFileSync(ERRORS_DOC, "utf8");
    for (const [code, status] of Object.entries(EXPECTED_STATUS)) {
      expect(DOMAIN_ERRORS[code as ErrorCode]?.status, code).toBe(status);
      const error = new AppError(code as ErrorCode, "error.validation");
      expect(error.status, code).toBe(status);
      expect(error.statusCode, code).toBe(status);
      expect(doc, code).toContain(`| ${code} | ${status} |`);
    }
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
