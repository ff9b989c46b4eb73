import { endpoints, type ResultOf, type WireEndpoints } from "@aquapilot/contract/wire";
import { vi } from "vitest";

/**
 * A fake server for screen tests (tests only, nothing in the app imports it): it replaces the global
 * `fetch`, so a screen's calls go through the real client (`shared/api/client.ts`: declared parameters, headers,
 * envelope unwrapping, error mapping) and are answered by endpoint name of the contract's table
 * (`@aquapilot/contract/wire` `endpoints`), in the ABP envelope the client parses (spec §7, §8).
 */

/** The name of a contract endpoint, e.g. "getFamilies". */
export type EndpointName = keyof WireEndpoints;

/** One call the fake server received, decoded. */
export interface FakeCall {
  /** The endpoint it matched (null: no endpoint of the contract has this method and path). */
  endpoint: EndpointName | null;
  method: string;
  /** The path without the query, e.g. "/api/run-lucky/device/app/family/f1". */
  path: string;
  /** The `{name}` segments of the endpoint's path, e.g. `{id: "f1"}`. */
  params: Record<string, string>;
  /** Query values; a repeated key gives the last value (see `url` for all). */
  query: Record<string, string>;
  /** A JSON body parsed, a form body as an object of its fields, a multipart body as its FormData, else undefined. */
  body: unknown;
  headers: Record<string, string>;
  url: string;
}

/** What a handler answers: a result (wrapped in a success envelope) or a promise of one; throw {@link ApiFailure}. */
export type FakeHandler = (call: FakeCall) => unknown | Promise<unknown>;

/**
 * The routes of a fake server: per endpoint name, a handler or a plain result (answered as it is). A handler may
 * throw {@link ApiFailure} (or any error: a 500) and may return {@link never} for a call that never answers.
 */
export type FakeRoutes = { [N in EndpointName]?: FakeHandler | ResultOf<WireEndpoints[N]> | Loose };

/** Test data is often partial: a loose object is accepted where a result type is long. */
type Loose = Record<string, unknown> | readonly unknown[] | string | number | boolean | null;

/** A failure answered in the ABP error envelope with `status` (spec §8): the client turns it into an ApiError. */
export class ApiFailure extends Error {
  readonly status: number;
  readonly code: string | null;
  /** `message` is the server's text the screen shows; `code` the envelope's error code (e.g. "DeviceOffline"). */
  constructor(status: number, message: string, code: string | null = null) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** Shorthand for `throw new ApiFailure(status, message, code)` inside a handler. */
export function fail(status: number, message: string, code: string | null = null): never {
  throw new ApiFailure(status, message, code);
}

/** A promise that never settles: a handler returning it keeps the screen in its loading state. */
export function never(): Promise<never> {
  return new Promise<never>(() => undefined);
}

/** The fake server a test holds: its calls, and ways to change the answers while the screen is shown. */
export interface FakeApi {
  /** Every call received, in order. */
  readonly calls: FakeCall[];
  /** The calls to one endpoint, in order. */
  callsTo(name: EndpointName): FakeCall[];
  /** The last call to one endpoint; throws when there was none (so a test reads as an assertion). */
  lastCall(name: EndpointName): FakeCall;
  /** Replaces (or adds) the answer of one endpoint. */
  on<N extends EndpointName>(name: N, answer: FakeRoutes[N]): void;
  /** Calls no route answered (answered 404): a screen asking for something the test did not expect. */
  readonly unhandled: FakeCall[];
}

interface Matcher {
  name: EndpointName;
  method: string;
  pattern: RegExp;
  names: string[];
  literal: boolean;
}

/** Every endpoint as a matcher; endpoints without path parameters first, so `/x/transfer` beats `/x/{id}`. */
const MATCHERS: Matcher[] = (Object.keys(endpoints) as EndpointName[])
  .map((name) => {
    const e = endpoints[name];
    const names: string[] = [];
    const source = e.path
      .split(/(\{\w+\})/)
      .map((part) => {
        const m = /^\{(\w+)\}$/.exec(part);
        if (m?.[1]) {
          names.push(m[1]);
          return "([^/]+)";
        }
        return part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      })
      .join("");
    return { name, method: e.method, pattern: new RegExp(`^${source}$`, "i"), names, literal: names.length === 0 };
  })
  .sort((a, b) => Number(b.literal) - Number(a.literal));

function match(method: string, path: string): { name: EndpointName; params: Record<string, string> } | null {
  for (const m of MATCHERS) {
    if (m.method !== method) continue;
    const hit = m.pattern.exec(path);
    if (!hit) continue;
    const params: Record<string, string> = {};
    m.names.forEach((n, i) => {
      params[n] = decodeURIComponent(hit[i + 1] ?? "");
    });
    return { name: m.name, params };
  }
  return null;
}

function readBody(body: BodyInit | null | undefined, headers: Record<string, string>): unknown {
  if (body === undefined || body === null) return undefined;
  if (typeof body === "string") {
    const type = headers["Content-Type"] ?? headers["content-type"] ?? "";
    if (type.includes("x-www-form-urlencoded")) return Object.fromEntries(new URLSearchParams(body));
    try {
      return JSON.parse(body);
    } catch {
      return body;
    }
  }
  return body;
}

function envelope(status: number, payload: object): Response {
  return new Response(JSON.stringify({ __abp: true, unAuthorizedRequest: false, ...payload }), {
    status,
    headers: { "Content-Type": "application/json" },
  });
}

/**
 * Calls outside the contract's table by "METHOD /path" (e.g. "POST /connect/token"): the handler's value is answered
 * as plain JSON (no envelope); an {@link ApiFailure} as OAuth's `{error, error_description}` with its status.
 */
export type RawRoutes = Record<string, FakeHandler>;

async function answerRaw(handler: FakeHandler, call: FakeCall): Promise<Response> {
  try {
    return Response.json(await handler(call));
  } catch (err) {
    const failure = err instanceof ApiFailure ? err : new ApiFailure(500, String(err));
    return Response.json(
      { error: failure.code ?? String(failure.status), error_description: failure.message },
      { status: failure.status },
    );
  }
}

/**
 * Installs a fake server for `routes` as the global `fetch` (undo with `vi.unstubAllGlobals()`, which `renderScreen`'s
 * cleanup does). Each call is recorded, matched to a contract endpoint by method and path, and answered: a handler's
 * result (or a plain value) as `{success: true, result}`; an {@link ApiFailure} as `{success: false, error: {code,
 * message}}` with its status; any other thrown error as a 500; an endpoint without a route as a 404 (and recorded in
 * `unhandled`). `raw` answers calls outside the table ({@link RawRoutes}); other requests (e.g. `/version.json`)
 * answer 404 too.
 */
export function fakeApi(routes: FakeRoutes = {}, raw: RawRoutes = {}): FakeApi {
  const table: FakeRoutes = { ...routes };
  const calls: FakeCall[] = [];
  const unhandled: FakeCall[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = new URL(String(input instanceof Request ? input.url : input), "http://app.test");
      const method = (init.method ?? "GET").toUpperCase();
      const headers = { ...(init.headers as Record<string, string> | undefined) };
      const hit = match(method, url.pathname);
      const call: FakeCall = {
        endpoint: hit?.name ?? null,
        method,
        path: url.pathname,
        params: hit?.params ?? {},
        query: Object.fromEntries(url.searchParams),
        body: readBody(init.body, headers),
        headers,
        url: url.pathname + url.search,
      };
      calls.push(call);
      const plain = hit ? undefined : raw[`${method} ${url.pathname}`];
      if (plain) return answerRaw(plain, call);
      const route = hit ? table[hit.name] : undefined;
      if (!hit || route === undefined) {
        unhandled.push(call);
        return envelope(404, { success: false, result: null, error: { code: "404", message: "Not found" } });
      }
      try {
        const result = typeof route === "function" ? await (route as FakeHandler)(call) : route;
        return envelope(200, { success: true, result: result ?? null, error: null });
      } catch (err) {
        if (err instanceof ApiFailure) {
          return envelope(err.status, {
            success: false,
            result: null,
            error: { code: err.code ?? String(err.status), message: err.message },
          });
        }
        return envelope(500, { success: false, result: null, error: { code: "500", message: String(err) } });
      }
    }),
  );
  return {
    calls,
    unhandled,
    callsTo: (name) => calls.filter((c) => c.endpoint === name),
    lastCall(name) {
      const list = calls.filter((c) => c.endpoint === name);
      const last = list[list.length - 1];
      if (!last) throw new Error(`no call to ${name}; calls: ${calls.map((c) => c.endpoint ?? c.url).join(", ")}`);
      return last;
    },
    on(name, answer) {
      table[name] = answer as never;
    },
  };
}
