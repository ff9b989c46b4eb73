import path from "node:path";
import type { ErrorCode } from "@aquapilot/contract";
import ts from "typescript";
import {
  type ErrorAnswer,
  FRAMEWORK_ERRORS,
  INTERNAL_ERROR,
  OTHER_CLIENT_ERROR,
  TRANSPORT_ERRORS,
  VALIDATION_ERROR,
} from "./error-handler.ts";
import { DOMAIN_ERRORS } from "./errors.ts";

// docs/errors.md, the one table of the domain error codes, generated: the codes and their statuses
// from DOMAIN_ERRORS, the error handler's own answers from its status table, and every message key the server throws
// with each code found by the TypeScript checker in the server's sources. Run `npm run generate:errors -w
// apps/server` after adding or changing a thrown error; errors-doc.test.ts fails while docs/errors.md is stale.
// Only the generator script and its test import this file (it loads the TypeScript compiler).

/** The server's sources, its tsconfig.json and the generated document (docs/errors.md at the repository root). */
export const SERVER_SRC = path.join(import.meta.dirname, "..");
export const SERVER_TSCONFIG = path.join(import.meta.dirname, "../../tsconfig.json");
export const ERRORS_DOC = path.join(import.meta.dirname, "../../../../docs/errors.md");

/**
 * The text of docs/errors.md as the generator writes it now: {@link renderErrorsDoc} of the errors
 * {@link findRaisedErrors} finds in the server's sources. `english`: the catalogue's `en` part with every module's
 * part loaded (the caller imports test/catalogue.ts, since this HTTP-layer file may not import a module).
 */
export function errorsDoc(english: Readonly<Record<string, string>>): string {
  return renderErrorsDoc(findRaisedErrors(SERVER_SRC, SERVER_TSCONFIG), english);
}

/** One error the server's code answers: where it is raised, with which code, status and catalogue key. */
export interface RaisedError {
  code: ErrorCode;
  /** HTTP status of the answer. */
  status: number;
  /** Message key of the server catalogue (the English text is looked up when the document is written). */
  key: string;
  /** How it is raised: `new AppError`, `new EdgeRefusal` or `sendError`. */
  via: "AppError" | "EdgeRefusal" | "sendError";
  /** Source file, relative to the scanned folder, with `/` separators. */
  file: string;
}

/** The constructs that raise an error answer, with the positions of their code, key and status arguments. */
const RAISERS = {
  AppError: { code: 0, key: 1, status: null },
  EdgeRefusal: { code: null, key: 1, status: 0 },
  sendError: { code: 2, key: 4, status: 1 },
} as const;

/** The string or number literals a type stands for (each member of a union), or null when it is not only literals. */
function literalsOf(type: ts.Type): Array<string | number> | null {
  const members = type.isUnion() ? type.types : [type];
  const out: Array<string | number> = [];
  for (const m of members) {
    if (m.isStringLiteral() || m.isNumberLiteral()) out.push(m.value);
    else return null;
  }
  return out;
}

/**
 * Finds every error the server's sources under `srcDir` raise (tests excluded): each `new AppError(code, key…)`,
 * `new EdgeRefusal(status, key…)` and `sendError(reply, status, code, lang, key…)`, with the code, key and status the
 * TypeScript checker infers for the arguments — a literal, a conditional between literals or a lookup in an
 * `as const` table all give their literals. A re-throw of another error's `code` and `messageKey` is skipped.
 * @param tsconfig the server's tsconfig.json (its compiler options; the files are those of `srcDir`).
 * @returns the raised errors, one per call site and key, sorted by code, key and file.
 * @throws Error naming the call site when a code, key or status is not known at compile time (write it as literals).
 */
export function findRaisedErrors(srcDir: string, tsconfig: string): RaisedError[] {
  const config = ts.getParsedCommandLineOfConfigFile(
    tsconfig,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, "\n"));
      },
    },
  );
  if (!config) throw new Error(`cannot read ${tsconfig}`);
  const inSrc = (f: string) => path.resolve(f).startsWith(path.resolve(srcDir) + path.sep) && !/\.test\.ts$/.test(f);
  const files = config.fileNames.filter(inSrc);
  const program = ts.createProgram(files, config.options);
  const checker = program.getTypeChecker();
  const found: RaisedError[] = [];

  for (const source of program.getSourceFiles()) {
    if (!inSrc(source.fileName)) continue;
    const file = path.relative(srcDir, source.fileName).split(path.sep).join("/");
    const visit = (node: ts.Node): void => {
      if ((ts.isNewExpression(node) || ts.isCallExpression(node)) && ts.isIdentifier(node.expression)) {
        const name = node.expression.text;
        const isRaiser =
          (name === "sendError" && ts.isCallExpression(node)) ||
          ((name === "AppError" || name === "EdgeRefusal") && ts.isNewExpression(node));
        if (isRaiser) found.push(...raisedAt(node, name as keyof typeof RAISERS, file, source));
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }

  function raisedAt(
    node: ts.NewExpression | ts.CallExpression,
    via: keyof typeof RAISERS,
    file: string,
    source: ts.SourceFile,
  ): RaisedError[] {
    const args = node.arguments ?? ts.factory.createNodeArray();
    const at = `${file}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`;
    const positions = RAISERS[via];
    const keyArg = args[positions.key];
    if (!keyArg) throw new Error(`${at}: ${via} without a message key`);
    // A re-throw (`new AppError(err.code, err.messageKey, …)`) repeats an error raised, and found, elsewhere.
    if (ts.isPropertyAccessExpression(keyArg) && keyArg.name.text === "messageKey") return [];
    const keys = literalsOf(checker.getTypeAtLocation(keyArg));
    const codes =
      positions.code === null ? ["Validation"] : literalsOf(checker.getTypeAtLocation(args[positions.code]));
    const statuses = positions.status === null ? null : literalsOf(checker.getTypeAtLocation(args[positions.status]));
    if (
      !keys ||
      !codes ||
      (positions.status !== null && !statuses) ||
      codes.length !== 1 ||
      (statuses?.length ?? 1) !== 1
    )
      throw new Error(`${at}: the code, key and status of ${via} must be known at compile time (literals)`);
    const code = codes[0] as ErrorCode;
    const status = statuses ? Number(statuses[0]) : DOMAIN_ERRORS[code].status;
    return keys.map((key) => ({ code, status, key: String(key), via, file }));
  }

  const order = (e: RaisedError) => `${e.code}\u0000${e.key}\u0000${e.file}`;
  return found.sort((a, b) => (order(a) < order(b) ? -1 : order(a) > order(b) ? 1 : 0));
}

/** A table cell: pipes escaped, line breaks flattened. */
function cell(text: string): string {
  return text.replaceAll("|", "\\|").replaceAll("\n", " ");
}

/**
 * Writes docs/errors.md (Markdown) from {@link DOMAIN_ERRORS}, the error handler's tables and `raised`
 * ({@link findRaisedErrors}), with the English text of each key from `english` (the catalogue's `en` part with every
 * module's part registered).
 * @throws Error when a key has no English text (a key outside the catalogue).
 */
export function renderErrorsDoc(raised: readonly RaisedError[], english: Readonly<Record<string, string>>): string {
  const text = (key: string) => {
    const t = english[key];
    if (t === undefined) throw new Error(`message key ${key} has no English text`);
    return cell(t);
  };
  const codes = Object.keys(DOMAIN_ERRORS) as ErrorCode[];
  const lines: string[] = [
    "# Error codes and messages",
    "",
    "<!-- Generated by `npm run generate:errors -w apps/server` (apps/server/src/http/errors-doc.ts); do not edit.",
    "     apps/server/src/http/errors-doc.test.ts fails while this file differs from what the generator writes. -->",
    "",
    "Every refused call answers the ABP error envelope (spec §8): `error.code` is one of the codes below, and",
    "`error.message` the text of a message key of the server catalogue in the caller's language (English shown here;",
    "`{name}` placeholders are filled from the error's parameters). Services throw `AppError(code, key, params)`;",
    "the one error handler (apps/server/src/http/error-handler.ts) answers it with the code's status.",
    "",
    "## Codes",
    "",
    "| Code | HTTP status | Meaning |",
    "| --- | --- | --- |",
    ...codes.map((c) => `| ${c} | ${DOMAIN_ERRORS[c].status} | ${cell(DOMAIN_ERRORS[c].meaning)} |`),
    "",
    "## Messages by code",
    "",
    "Every message key the server's code raises with each code (`new AppError`, and the edge's `EdgeRefusal` and",
    "`sendError`), found in the sources by the TypeScript checker. A status differs from the code's own only at the",
    "edge (URL too long: 414).",
  ];
  for (const code of codes) {
    const rows = new Map<string, { status: number; files: Set<string> }>();
    for (const e of raised.filter((r) => r.code === code)) {
      const id = `${e.key}\u0000${e.status}`;
      const row = rows.get(id) ?? { status: e.status, files: new Set<string>() };
      row.files.add(e.file);
      rows.set(id, row);
    }
    lines.push("", `### ${code}`, "");
    if (rows.size === 0) {
      lines.push("No message key raises it in the code; the error handler's table below may.");
      continue;
    }
    lines.push("| Key | Status | English text | Raised in (apps/server/src/) |", "| --- | --- | --- | --- |");
    for (const [id, row] of rows) {
      const key = id.split("\u0000")[0];
      const files = [...row.files].sort().map((f) => `\`${f}\``);
      lines.push(`| \`${key}\` | ${row.status} | ${text(key)} | ${files.join(", ")} |`);
    }
  }
  const answer = (when: string, status: string, a: ErrorAnswer) =>
    `| ${when} | ${status} | ${a.code} | \`${a.key}\` | ${text(a.key)} |`;
  lines.push(
    "",
    "## Answered by the error handler",
    "",
    "Errors that are not an AppError: the error handler's status table (`FRAMEWORK_ERRORS`, `TRANSPORT_ERRORS`).",
    "",
    "| When | Status | Code | Key | English text |",
    "| --- | --- | --- | --- | --- |",
    answer("The request fails its contract schema (validationErrors name the fields)", "400", VALIDATION_ERROR),
    ...Object.entries(FRAMEWORK_ERRORS).map(([status, a]) =>
      answer(
        status === "404" ? "Unknown route, or Fastify / a plugin answers 404" : "Fastify or a plugin answers it",
        status,
        a as ErrorAnswer,
      ),
    ),
    ...TRANSPORT_ERRORS.map((t) =>
      answer(
        t.fastifyCodes
          ? `Fastify error ${t.fastifyCodes.map((c) => `\`${c}\``).join(", ")}`
          : "Any framework error of this status",
        String(t.status),
        { code: (FRAMEWORK_ERRORS[t.status] ?? OTHER_CLIENT_ERROR).code, key: t.key },
      ),
    ),
    answer("Any other framework 4xx", "its own", OTHER_CLIENT_ERROR),
    answer("Anything unexpected (details carry the request id)", "500", INTERNAL_ERROR),
    "",
  );
  return lines.join("\n");
}
