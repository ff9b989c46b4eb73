import { z } from "zod";

/**
 * One endpoint of spec §7: method, path (verbatim), query, body and result schemas.
 * The server registers routes from these entries; the web client's `api(endpoint, params)` is typed from them.
 * `open` marks calls that need no bearer token.
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
  open?: boolean;
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

/** An endpoint without query parameters. */
export const noQuery = z.object({});
/** An entity id (text, random v4 UUID on this server). */
export const ZId = z.string().min(1).max(64);

/** A boolean query parameter: the text "true" or "false" (a real boolean passes as is). */
export const ZBoolQuery = z.preprocess((v) => (v === "true" ? true : v === "false" ? false : v), z.boolean());
/** ISO 8601 UTC time text. */
export const ZIsoTime = z.string();
