import type { z } from "zod";
import { INPUT_RULES } from "./endpoints/define.ts";

/**
 * Built-in zod string formats whose pattern admits no control character (so the format itself keeps the text rule).
 * `url` is not one of them: the URL parser percent-encodes a NUL in a path.
 */
const SAFE_FORMATS = new Set(["email", "datetime", "date", "time", "uuid", "guid", "ipv4", "ipv6", "cidrv4", "cidrv6"]);

/** Wrappers whose input is their inner schema's input (or nothing). */
const WRAPPERS = new Set(["optional", "nullable", "default", "prefault", "nonoptional", "readonly", "catch"]);

/** Types that admit only a bounded set of values. */
const CLOSED = new Set(["enum", "literal", "boolean", "null", "undefined", "transform", "never"]);

interface CheckDef {
  check: string;
  params?: { rule?: string };
}

function checksOf(schema: z.ZodType): CheckDef[] {
  const checks = (schema._zod.def as { checks?: Array<{ _zod: { def: CheckDef } }> }).checks ?? [];
  return checks.map((c) => c._zod.def);
}

const has = (schema: z.ZodType, kind: string) => checksOf(schema).some((c) => c.check === kind);
const hasRule = (schema: z.ZodType, ...rules: string[]) =>
  checksOf(schema).some((c) => c.check === "custom" && rules.includes(c.params?.rule ?? ""));

/**
 * Walks an input schema (a query, body, path-values or form-body schema) and answers every place that breaks the
 * one input rule (bounded input, no control characters), as "path: problem" texts (empty when the schema keeps it):
 * a string without a maximum length, or without the text rule (ZText / ZMultilineText, or a built-in format that
 * admits no control character); a number without both a minimum and a maximum; an array without a maximum length; a
 * record without a key limit (ZRecord); any type that accepts unbounded input (unknown, any, bigint, …).
 */
export function auditInputSchema(schema: z.ZodType, path = "(root)"): string[] {
  const def = schema._zod.def as unknown as Record<string, unknown> & { type: string };
  const type = def.type;
  const problems: string[] = [];
  const walk = (child: unknown, at: string) => problems.push(...auditInputSchema(child as z.ZodType, at));
  if (WRAPPERS.has(type)) walk(def.innerType, path);
  else if (CLOSED.has(type)) {
    // bounded by construction
  } else if (type === "object") {
    for (const [key, child] of Object.entries(def.shape as Record<string, z.ZodType>)) walk(child, `${path}.${key}`);
  } else if (type === "pipe") {
    walk(def.in, path);
    walk(def.out, path);
  } else if (type === "union") {
    for (const option of def.options as z.ZodType[]) walk(option, path);
  } else if (type === "intersection") {
    walk(def.left, path);
    walk(def.right, path);
  } else if (type === "array") {
    if (!has(schema, "max_length") && !has(schema, "length_equals")) problems.push(`${path}: array without max`);
    walk(def.element, `${path}[]`);
  } else if (type === "record") {
    if (!hasRule(schema, INPUT_RULES.maxKeys)) problems.push(`${path}: record without a key limit (ZRecord)`);
    walk(def.keyType, `${path}{key}`);
    walk(def.valueType, `${path}{}`);
  } else if (type === "string") {
    if (!has(schema, "max_length") && !has(schema, "length_equals")) problems.push(`${path}: string without max`);
    const format = typeof def.format === "string" ? def.format : null;
    if (!hasRule(schema, INPUT_RULES.text, INPUT_RULES.multilineText) && !(format && SAFE_FORMATS.has(format)))
      problems.push(`${path}: string without the text rule (ZText / ZMultilineText)`);
  } else if (type === "number") {
    if (!has(schema, "greater_than")) problems.push(`${path}: number without min`);
    if (!has(schema, "less_than")) problems.push(`${path}: number without max`);
  } else problems.push(`${path}: unbounded ${type}`);
  return problems;
}
