import { z } from "zod";
import type { Access } from "./access.ts";

/**
 * One endpoint of spec §7: method, path (verbatim), query, body and result schemas.
 * The server registers routes from these entries; the web client's `api(endpoint, params)` is typed from them.
 * `access` declares who may call it (see {@link Access}); the route registration enforces it.
 */
export interface Endpoint<
  Q extends z.ZodObject = z.ZodObject,
  B extends z.ZodType | undefined = z.ZodType | undefined,
  R extends z.ZodType = z.ZodType,
  P extends z.ZodObject | undefined = z.ZodObject | undefined,
> {
  method: "GET" | "POST" | "PUT" | "DELETE";
  /** Verbatim path; `{id}` marks a path parameter (spec §7 "P"), validated by `params`. */
  path: string;
  query: Q;
  body: B;
  result: R;
  /** Path parameters, for paths with `{…}` segments. */
  params?: P;
  /** Who may call it: the caller (open, signed in, a permission) and the object-level rule, if any. */
  access: Access;
  summary: string;
}

/** Declares an endpoint with its types inferred (identity at run time). */
export function endpoint<
  Q extends z.ZodObject,
  B extends z.ZodType | undefined,
  R extends z.ZodType,
  P extends z.ZodObject | undefined = undefined,
>(e: Endpoint<Q, B, R, P>): Endpoint<Q, B, R, P> {
  return e;
}

// ---------- One input rule at the edge ----------
//
// Every string a client sends is bounded and free of control characters; every number is finite and bounded; every
// array and record is bounded. Input schemas (query, body, path values, the OAuth form bodies, device activation) are
// built from the helpers below only, and contract.test.ts walks every endpoint and fails on a string without a
// maximum length or the text rule, a number without both bounds, or an unbounded array or record. Result schemas
// describe what the server answers and are not bound by this rule.

/** `params.rule` of the refinements below: how the server tells "a forbidden character" from other mistakes. */
export const INPUT_RULES = {
  /** Single-line text: no control characters at all. */
  text: "text",
  /** Multi-line text: control characters other than tab, line feed and carriage return refused. */
  multilineText: "multilineText",
  /** A record (object with free keys) with more keys than allowed. */
  maxKeys: "maxKeys",
} as const;

// Unicode category Cc is exactly C0 (U+0000–U+001F), DEL (U+007F) and C1 (U+0080–U+009F); with the `u` flag a UTF-16
// surrogate half without its partner reads as a code point of category Cs (a proper pair reads as one astral code
// point). Lone surrogates cannot be encoded in UTF-8, so the two databases would disagree about them as well.
const SINGLE_LINE_FORBIDDEN = /[\p{Cc}\p{Cs}]/u;
// The same without tab U+0009, line feed U+000A and carriage return U+000D.
const MULTI_LINE_FORBIDDEN = /(?![\t\n\r])\p{Cc}|\p{Cs}/u;

/**
 * Whether `value` is acceptable single-line text: no C0 control character (U+0000–U+001F, so no NUL, tab
 * or line break), no DEL (U+007F), no C1 control character (U+0080–U+009F) and no lone UTF-16 surrogate.
 */
export function isSingleLineText(value: string): boolean {
  return !SINGLE_LINE_FORBIDDEN.test(value);
}

/** Whether `value` is acceptable multi-line text: as {@link isSingleLineText}, but tab, LF and CR are allowed. */
export function isMultilineText(value: string): boolean {
  return !MULTI_LINE_FORBIDDEN.test(value);
}

/** Length and trimming of a text field: `min` characters (after trimming when `trim`), default no minimum. */
export interface TextOptions {
  min?: number;
  /** Trim white space before the length checks (the parsed value is the trimmed text). */
  trim?: boolean;
}

function bounded(base: z.ZodString, max: number, opts: TextOptions): z.ZodString {
  let s = opts.trim ? base.trim() : base;
  if (opts.min !== undefined) s = s.min(opts.min);
  return s.max(max);
}

/**
 * A single-line text input of at most `max` characters (UTF-16 code units, as JavaScript counts): refused with a
 * custom issue `params.rule: "text"` when it holds a control character or a lone surrogate ({@link isSingleLineText}),
 * the server answering 400 "{field} contains characters that are not allowed" in the caller's language.
 * Chain `.regex()` or `.refine()` for a narrower format.
 */
export function ZText(max: number, opts: TextOptions = {}): z.ZodString {
  return bounded(z.string().refine(isSingleLineText, { params: { rule: INPUT_RULES.text } }), max, opts);
}

/** Like {@link ZText} for a field that may span lines (descriptions, contents): tab, LF and CR are allowed. */
export function ZMultilineText(max: number, opts: TextOptions = {}): z.ZodString {
  return bounded(z.string().refine(isMultilineText, { params: { rule: INPUT_RULES.multilineText } }), max, opts);
}

/** An e-mail address input: zod's e-mail format, at most 254 characters (RFC 5321 path limit). */
export const ZEmail = z
  .email()
  .max(254)
  .refine(isSingleLineText, { params: { rule: INPUT_RULES.text } });

/**
 * An absolute http(s) URL input of at most `max` characters. The text rule applies too: the WHATWG URL parser accepts
 * a NUL or a control character in a path (it percent-encodes it), so the URL format alone does not keep them out.
 */
export function ZUrl(max: number) {
  return z
    .url({ protocol: /^https?$/ })
    .max(max)
    .refine(isSingleLineText, { params: { rule: INPUT_RULES.text } });
}

/** A finite number input from `min` to `max` inclusive (JSON bodies; NaN and ±Infinity are refused by zod). */
export function ZNumber(min: number, max: number): z.ZodNumber {
  return z.number().min(min).max(max);
}

/** A whole-number input from `min` to `max` inclusive. */
export function ZInt(min: number, max: number): z.ZodNumber {
  return z.number().int().min(min).max(max);
}

/**
 * A number sent as query text ("12", "-3.5"), converted with `Number()` and bounded to `min`..`max`: "NaN",
 * "Infinity" and "1e400" are refused as not a number, "1e308" as too big.
 */
export function ZQueryNumber(min: number, max: number) {
  return z.coerce.number().min(min).max(max);
}

/** A whole number sent as query text, bounded to `min`..`max` (see {@link ZQueryNumber}). */
export function ZQueryInt(min: number, max: number) {
  return z.coerce.number().int().min(min).max(max);
}

/**
 * One of a few whole numbers sent as query text (e.g. bindType 1 or 2): bounded to their range, then refused unless
 * it is one of them. The parsed value has the literal type.
 */
export function ZQueryChoice<const T extends readonly [number, ...number[]]>(values: T) {
  return ZQueryInt(Math.min(...values), Math.max(...values)).pipe(z.literal(values));
}

/**
 * A record (an object with free keys) of at most `maxKeys` entries, keys and values by the given schemas. Too many
 * keys → a custom issue `params.rule: "maxKeys"` (400 "{field} has more than {max} entries").
 */
export function ZRecord<K extends z.core.$ZodRecordKey, V extends z.ZodType>(key: K, value: V, maxKeys: number) {
  return z
    .record(key, value)
    .refine((o) => Object.keys(o).length <= maxKeys, { params: { rule: INPUT_RULES.maxKeys, max: maxKeys } });
}

/** An endpoint without query parameters. */
export const noQuery = z.object({});
/** An entity id (text, random v4 UUID on this server): 1–64 characters, single-line. */
export const ZId = ZText(64, { min: 1 });

/** A boolean query parameter: the text "true" or "false" (a real boolean passes as is). */
export const ZBoolQuery = z.preprocess((v) => (v === "true" ? true : v === "false" ? false : v), z.boolean());
/** ISO 8601 UTC time text, as the server answers it (result schemas). */
export const ZIsoTime = z.string();
/** ISO 8601 time text sent by a client (at most 40 characters; parsed by the service that takes it). */
export const ZIsoTimeInput = ZText(40);
