import type { Endpoint, QueryOf, ResultOf, TValidationError } from "@aquapilot/contract";
import type { FastifyInstance } from "fastify";
import { describe } from "vitest";

/**
 * The one way an API test calls the server : `call(app, endpoints.createFamily, { as: owner, body })`.
 * Method and path come from the contract's endpoint object (packages/contract/src/endpoints/*), never from strings,
 * so a test follows the contract when a path changes, and `nameOf(endpoint)` is the wire name a describe block carries.
 */

/**
 * Where a call goes: a Fastify app (in-process `inject`), anything holding one (`TestApp`), or a running server by
 * its base URL (`{ url }`, e.g. a started `System` or a spawned server process: real HTTP through `fetch`). An object
 * with a `url` is always called over HTTP, even when it also holds an `app`.
 */
export type CallTarget = FastifyInstance | { app: FastifyInstance } | { url: string };

/**
 * Who calls: an access token with or without its "Bearer " prefix (what `bearer()` and the token grant answer), or
 * anything holding one in `token` (what {@link signUpUser} answers). Absent, null or "" → no authorization header.
 */
export type Caller = string | { token: string } | null | undefined;

/**
 * The `query` a test may give {@link call} for `E`: its declared keys, each optional with any value. An endpoint that
 * declares none (its query type is `Record<string, never>`) takes no key at all; a union of endpoints takes the query
 * of any one of them. An undeclared key is a compile error (`npm run typecheck`), not a run-time one.
 */
export type QueryOptions<E extends Endpoint> = E extends Endpoint
  ? string extends keyof QueryOf<E>
    ? Record<string, never>
    : { [K in keyof QueryOf<E>]?: unknown }
  : never;

/** The options of {@link call}. */
export interface CallOptions<E extends Endpoint> {
  /** The caller (see {@link Caller}); none by default. */
  as?: Caller;
  /**
   * Query parameters. Keys are the endpoint's declared ones (see {@link QueryOptions}); values stay loose (a number, a
   * boolean or text) so a test can send a wrong one on purpose; each is sent as text (`String(value)`), arrays as
   * repeated parameters, undefined ones are left out. A test that sends an undeclared parameter on purpose casts.
   */
  query?: QueryOptions<E>;
  /**
   * The body: a string or a Buffer is sent as is (set its content-type in `headers`, e.g. a multipart upload); any
   * other value as JSON (any value, so a test can send a wrong one); none when undefined.
   */
  body?: unknown;
  /** Values of the path's `{name}` segments, each URL-encoded into the path. */
  params?: Record<string, string>;
  /**
   * Accept-Language; "en" by default. null sends none, so the server's default language applies (over HTTP, `fetch`
   * then sends its own "*", any language, which the server reads the same way).
   */
  lang?: string | null;
  /** More request headers; they override the ones above. */
  headers?: Record<string, string>;
  /** Over HTTP only: aborts the request (e.g. `AbortSignal.timeout(20_000)`). */
  signal?: AbortSignal;
  /**
   * In process only: the client's address the server sees (inject's `remoteAddress`; 127.0.0.1 when absent), so a
   * test of per-address limits can call from many clients. Over HTTP the address is the socket's: {@link call} throws.
   */
  remoteAddress?: string;
}

/**
 * The `error` of an answer's envelope (spec §8). Typed as present so that tests of failing calls read it directly:
 * it is null on success, and `validationErrors` is null unless the input was refused.
 */
export interface AnswerError {
  code: string | null;
  message: string;
  details: string | null;
  validationErrors: TValidationError[];
}

/** The ABP envelope of an answer (spec §7 "Success response shape", §8), `result` typed from the endpoint. */
export interface AnswerEnvelope<R> {
  success: boolean;
  result: R | null;
  error: AnswerError;
  unAuthorizedRequest: boolean;
  __abp: true;
}

/** What {@link call} answers. */
export interface Answer<R> {
  /** HTTP status. */
  status: number;
  /** The parsed JSON body (the ABP envelope); undefined when the answer is not JSON. */
  body: AnswerEnvelope<R>;
  /**
   * `body.result`, typed from the endpoint's result schema: read it on success only (null or undefined on an error).
   */
  result: R;
  /** The raw body text. */
  text: string;
  /** Answer headers, names in lower case. */
  headers: Record<string, string | string[] | undefined>;
}

/** The wire name of an endpoint, "METHOD /verbatim/path" (e.g. "POST /api/run-lucky/device/app/family/"). */
export function nameOf(endpoint: Pick<Endpoint, "method" | "path">): string {
  return `${endpoint.method} ${endpoint.path}`;
}

/**
 * A describe block named after the endpoint's wire path ({@link nameOf}), so searching a spec path finds its tests;
 * `note` (optional) follows the name in parentheses: "POST /api/basic-data/app/profile/ (user name, name, avatar)".
 */
export function describeEndpoint(endpoint: Pick<Endpoint, "method" | "path">, body: () => void): void;
export function describeEndpoint(endpoint: Pick<Endpoint, "method" | "path">, note: string, body: () => void): void;
export function describeEndpoint(
  endpoint: Pick<Endpoint, "method" | "path">,
  noteOrBody: string | (() => void),
  body?: () => void,
): void {
  if (typeof noteOrBody === "string") describe(`${nameOf(endpoint)} (${noteOrBody})`, body ?? (() => {}));
  else describe(nameOf(endpoint), noteOrBody);
}

/**
 * The endpoint's path with every `{name}` segment replaced by `params[name]`, URL-encoded.
 * @throws Error when a segment has no value.
 */
export function pathOf(endpoint: Pick<Endpoint, "path">, params: Record<string, string> = {}): string {
  return endpoint.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`no value for {${name}} of ${endpoint.path}`);
    return encodeURIComponent(value);
  });
}

/** The authorization header value of `as`, or undefined for none. */
export function authorizationOf(as: Caller): string | undefined {
  const token = typeof as === "string" ? as : as?.token;
  if (!token) return undefined;
  return token.startsWith("Bearer ") ? token : `Bearer ${token}`;
}

function queryText(query: Record<string, unknown> | undefined): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined) continue;
    out[key] = Array.isArray(value) ? value.map(String) : String(value);
  }
  return out;
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * Calls `endpoint` on `target` (see {@link CallTarget}) as `opts.as`, with the query, path values, JSON body, language
 * and headers of `opts` (see {@link CallOptions}). Never throws for an error status: the answer carries it.
 * @returns status, envelope, typed result, raw text and headers ({@link Answer}).
 * @throws Error when a path value is missing ({@link pathOf}); over HTTP, when the request fails or is aborted, or
 * when `opts.remoteAddress` is given (only an in-process call can choose it).
 */
export async function call<E extends Endpoint>(
  target: CallTarget,
  endpoint: E,
  opts: CallOptions<E> = {},
): Promise<Answer<ResultOf<E>>> {
  const url = pathOf(endpoint, opts.params);
  const authorization = authorizationOf(opts.as);
  const lang = opts.lang === undefined ? "en" : opts.lang;
  const headers: Record<string, string> = {
    ...(lang === null ? {} : { "accept-language": lang }),
    ...(authorization ? { authorization } : {}),
    ...opts.headers,
  };
  const query = queryText(opts.query as Record<string, unknown> | undefined);
  const raw = typeof opts.body === "string" || Buffer.isBuffer(opts.body);
  let status: number;
  let text: string;
  let answerHeaders: Answer<unknown>["headers"];
  if ("url" in target && typeof target.url === "string") {
    if (opts.remoteAddress !== undefined) throw new Error("remoteAddress can be chosen in process only, not over HTTP");
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) {
      for (const one of Array.isArray(value) ? value : [value]) search.append(key, one);
    }
    const qs = search.toString();
    const res = await fetch(`${target.url}${url}${qs ? `?${qs}` : ""}`, {
      method: endpoint.method,
      headers: { ...(opts.body !== undefined && !raw ? { "content-type": "application/json" } : {}), ...headers },
      body: opts.body === undefined ? undefined : raw ? (opts.body as string | Buffer) : JSON.stringify(opts.body),
      signal: opts.signal,
    });
    status = res.status;
    text = await res.text();
    answerHeaders = Object.fromEntries(res.headers.entries());
  } else {
    const app = "inject" in target ? target : (target as { app: FastifyInstance }).app;
    const res = await app.inject({
      method: endpoint.method,
      url,
      query,
      headers,
      ...(opts.remoteAddress !== undefined ? { remoteAddress: opts.remoteAddress } : {}),
      ...(opts.body !== undefined ? { payload: opts.body as object } : {}),
    });
    status = res.statusCode;
    text = res.body;
    answerHeaders = res.headers as Answer<unknown>["headers"];
  }
  const body = parsed(text) as AnswerEnvelope<ResultOf<E>>;
  return { status, body, result: body?.result as ResultOf<E>, text, headers: answerHeaders };
}

/**
 * The typed result of a call that must succeed, for set-up steps whose failure should stop the test at once:
 * `const { items } = await okResult(call(app, endpoints.getFamilies, { as: owner }))`.
 * @param answer what {@link call} answered, or its promise.
 * @returns `answer.result`.
 * @throws Error with the status and the raw body unless the status is 2xx.
 */
export async function okResult<R>(answer: Answer<R> | Promise<Answer<R>>): Promise<R> {
  const res = await answer;
  if (res.status < 200 || res.status > 299) throw new Error(`call failed: ${res.status} ${res.text}`);
  return res.result;
}
