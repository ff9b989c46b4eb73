import { INPUT_RULES, type Language, type TValidationError } from "@aquapilot/contract";
import type { FastifySchemaCompiler } from "fastify";
import type { ZodType, z } from "zod";
import { translate } from "./messages.ts";

/**
 * A request part (query, body, params) that failed its contract schema. Carries the zod issues and the input so
 * the error handler can write `validationErrors` in the caller's language (spec §7 "validationErrors").
 */
export class RequestValidationError extends Error {
  readonly statusCode = 400;
  readonly code = "FST_ERR_VALIDATION";
  validationContext?: string;
  readonly issues: z.core.$ZodIssue[];
  readonly input: unknown;
  constructor(issues: z.core.$ZodIssue[], input: unknown) {
    super(issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; "));
    this.issues = issues;
    this.input = input;
    this.name = "RequestValidationError";
  }
}

/**
 * Fastify validator compiler for zod schemas (replaces fastify-type-provider-zod's, which drops the input):
 * a valid part is replaced by the parsed value (coercions and defaults applied); an invalid one fails with a
 * {@link RequestValidationError}.
 */
export const zodValidatorCompiler: FastifySchemaCompiler<ZodType> =
  ({ schema }) =>
  (data) => {
    const result = schema.safeParse(data);
    if (result.success) return { value: result.data };
    return { error: new RequestValidationError(result.error.issues, data) };
  };

function valueAt(input: unknown, path: PropertyKey[]): unknown {
  let v = input;
  for (const key of path) {
    if (v === null || typeof v !== "object") return undefined;
    v = (v as Record<PropertyKey, unknown>)[key];
  }
  return v;
}

/**
 * Turns zod issues into ABP `validationErrors` (`{message, members}`; members are the field names) written in
 * `lang`. `input` is the validated value, used to tell a missing field from a wrong one. The contract's input rule
 * (no control characters, bounded sizes) has its own texts: a control character or broken text →
 * "input.forbiddenCharacters", a record with too many keys → "input.tooManyEntries", an array too long →
 * "input.tooManyItems".
 */
export function toValidationErrors(issues: z.core.$ZodIssue[], input: unknown, lang: Language): TValidationError[] {
  return issues.map((issue) => {
    const field = issue.path.map(String).join(".");
    const params = { field: field || "value" };
    let message: string;
    switch (issue.code) {
      case "invalid_type":
        message =
          valueAt(input, issue.path) === undefined
            ? translate(lang, "validation.required", params)
            : translate(lang, "validation.invalid", params);
        break;
      case "too_small":
        message =
          issue.origin === "string" && valueAt(input, issue.path) === ""
            ? translate(lang, "validation.required", params)
            : translate(lang, issue.origin === "string" ? "validation.tooShort" : "validation.tooSmall", {
                ...params,
                min: String(issue.minimum),
              });
        break;
      case "too_big":
        message = translate(
          lang,
          issue.origin === "string"
            ? "validation.tooLong"
            : issue.origin === "array"
              ? "input.tooManyItems"
              : "validation.tooBig",
          { ...params, max: String(issue.maximum) },
        );
        break;
      case "custom": {
        // The contract's one input rule (packages/contract define.ts INPUT_RULES).
        const rule = (issue.params as { rule?: string; max?: number } | undefined)?.rule;
        if (rule === INPUT_RULES.text || rule === INPUT_RULES.multilineText) {
          message = translate(lang, "input.forbiddenCharacters", params);
        } else if (rule === INPUT_RULES.maxKeys) {
          message = translate(lang, "input.tooManyEntries", {
            ...params,
            max: String((issue.params as { max?: number }).max ?? ""),
          });
        } else message = translate(lang, "validation.invalid", params);
        break;
      }
      case "invalid_format":
        message = translate(lang, "validation.invalidFormat", params);
        break;
      default:
        message =
          valueAt(input, issue.path) === undefined && issue.path.length > 0
            ? translate(lang, "validation.required", params)
            : translate(lang, "validation.invalid", params);
    }
    return { message, members: field ? [field] : [] };
  });
}
