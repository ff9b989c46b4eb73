import type { BodyOf, QueryOf, ResultOf, SchemasOf, TPaged, WireEndpoint } from "@aquapilot/contract/wire";
import type { z } from "zod";
import { i18n } from "../i18n/index.ts";
import { ApiError, ClientErrorCode } from "./errors.ts";
import { emitUnauthorized } from "./events.ts";
import { beginLoading, endLoading } from "./loading.ts";
import { ensureFreshToken, renewAfterUnauthorized, setTokenBaseUrl } from "./token.ts";
import {
  abortError,
  commonHeaders,
  encodeFields,
  jsonBody,
  networkError,
  RequestBody,
  type TransferProgress,
  transmit,
  type WireRequest,
} from "./transport.ts";

export {
  binaryBody,
  dropNulls,
  formBody,
  getProjectId,
  getTenant,
  jsonBody,
  multipartBody,
  RequestBody,
  setProjectId,
  setTenant,
  type TransferProgress,
} from "./transport.ts";

/**
 * The typed API client of spec §7/§8: `api(endpoint, {query, body, params})` for any entry of the contract's `endpoints`,
 * with a body of any kind of spec §7 (JSON by default; {@link formBody}, {@link multipartBody}, {@link binaryBody}),
 * and `apiStream()` for an answer read as it arrives. Sends the bearer token, `Accept-Language`, `project-id` and the
 * tenant; accepts only declared parameters; unwraps the ABP envelope; maps failures to {@link ApiError} per spec §8.
 */

/** The `params` schema an endpoint declares (spec §7 "P"), `never` when it declares none. */
type DeclaredParams<E extends WireEndpoint> = Exclude<SchemasOf<E>["params"], undefined>;

/** Whether an endpoint declares path parameters. */
type HasParams<E extends WireEndpoint> = [DeclaredParams<E>] extends [never] ? false : true;

/** Path values of an endpoint (spec §7 "P"): the input of its `params` schema, `never` when it declares none. */
export type ParamsOf<E extends WireEndpoint> =
  DeclaredParams<E> extends z.ZodObject ? z.input<DeclaredParams<E>> : never;

/** Options of one call: query values, body, the counted loading toast, an abort signal, upload progress. */
interface BaseOptions<E extends WireEndpoint> {
  query?: QueryOf<E>;
  /**
   * The body: a value of the endpoint's declared JSON body (sent as JSON, nulls dropped), or a body of another kind
   * made by {@link formBody}, {@link multipartBody} or {@link binaryBody} (spec §7 "Body kinds supported").
   */
  body?: BodyOf<E> | RequestBody;
  /** Count this call in the loading indicator (spec §5); off by default for background queries. */
  loading?: boolean;
  signal?: AbortSignal;
  /**
   * The `Idempotency-Key` of a creating or commanding call (POST, PUT, PATCH, DELETE); by default a fresh random key
   * per call. The server runs a key once per caller within 24 h and replays its first answer to a repeat.
   */
  idempotencyKey?: string;
  /**
   * Reports the request body going out (bytes sent, total when known). Given with a body, the call goes through
   * XMLHttpRequest, the only browser API with upload progress; a resend starts again from 0.
   */
  onUploadProgress?: (progress: TransferProgress) => void;
}

/**
 * Options of one call. `params` fills the `{name}` segments of the endpoint's path (spec §7 "P"); it is required,
 * and typed from the contract's `params` schema, exactly when the endpoint declares one.
 */
export type ApiOptions<E extends WireEndpoint> = BaseOptions<E> &
  (HasParams<E> extends true ? { params: ParamsOf<E> } : { params?: undefined });

/** The options argument of {@link api}: mandatory for endpoints with path parameters, optional otherwise. */
export type ApiArgs<E extends WireEndpoint> =
  HasParams<E> extends true ? [options: ApiOptions<E>] : [options?: ApiOptions<E>];

let baseUrl = "";

/**
 * Sets the API host (spec §7) of every call, of the token endpoint (`/connect/token`, revocation), of
 * images and file URLs ({@link imageUrl}) and of the hubs (shared/realtime reads {@link apiBaseUrl} when it builds a
 * connection): "" = the page's own origin, the default in the browser and behind the dev proxy; inside a native shell
 * the cloud's address from its config (`NativeConfig.apiBaseUrl`, set once at start-up by main.tsx before any call).
 * Trailing slashes are dropped.
 */
export function setApiBaseUrl(url: string): void {
  baseUrl = url.replace(/\/+$/, "");
  setTokenBaseUrl(baseUrl);
}

/** The API host prefix ("" = same origin). */
export function apiBaseUrl(): string {
  return baseUrl;
}

/**
 * Throws when a parameter is not declared by the endpoint (spec §5 "Request parameters must all be declared,
 * otherwise an error"), before anything is sent. A JSON body needs a declared body schema and only its keys; a form
 * or multipart body may only name the declared keys when the endpoint declares an object body (an endpoint without a
 * JSON schema, such as an upload, takes form, multipart and binary bodies as they are); a GET takes no body at all.
 */
export function assertDeclared(endpoint: WireEndpoint, query: object | undefined, body: unknown): void {
  const where = `${endpoint.method} ${endpoint.path}`;
  const queryKeys = endpoint.query;
  for (const key of Object.keys(query ?? {})) {
    if (!queryKeys.includes(key)) throw new Error(`Undeclared query parameter "${key}" for ${where}`);
  }
  if (body === undefined) return;
  const encoded = body instanceof RequestBody ? body : null;
  if (endpoint.method === "GET" || ((!encoded || encoded.kind === "json") && endpoint.body === null)) {
    throw new Error(`${where} takes no body`);
  }
  const bodyKeys = endpoint.body;
  if (bodyKeys === null || bodyKeys === "any") return;
  const names = encoded
    ? (encoded.fieldNames ?? [])
    : body && typeof body === "object" && !Array.isArray(body)
      ? Object.keys(body)
      : [];
  for (const key of names) {
    if (!bodyKeys.includes(key)) throw new Error(`Undeclared body parameter "${key}" for ${where}`);
  }
}

/**
 * Serialises query values (spec §7): arrays repeat the key without indices (`ids=1&ids=2`), dates become ISO text,
 * null and undefined are dropped.
 */
export function serializeQuery(query: object | undefined): string {
  const text = encodeFields(query);
  return text ? `?${text}` : "";
}

/**
 * Fills the `{name}` segments of an endpoint's path from `params` (spec §7 "P"), each value URI-encoded.
 * Throws before anything is sent when a segment has no value (null, undefined or "") or when `params` carries a
 * name the path does not have (spec §5 "Request parameters must all be declared").
 */
export function fillPath(path: string, params: object | undefined): string {
  const values = (params ?? {}) as Record<string, unknown>;
  const names = new Set<string>();
  const filled = path.replace(/\{(\w+)\}/g, (_, name: string) => {
    names.add(name);
    const v = values[name];
    if (v === undefined || v === null || v === "") throw new Error(`Missing path value "${name}" for ${path}`);
    return encodeURIComponent(v instanceof Date ? v.toISOString() : String(v));
  });
  for (const key of Object.keys(values)) {
    if (!names.has(key)) throw new Error(`Undeclared path parameter "${key}" for ${path}`);
  }
  return filled;
}

/**
 * The request headers of spec §7: bearer token (refreshed first when about to expire), Accept-Language, project-id;
 * plus the phone's time zone (the server cuts days at the owner's local midnight) and the
 * native shell's tenant (see transport.ts {@link commonHeaders}).
 */
export async function requestHeaders(withToken: boolean): Promise<Record<string, string>> {
  const headers = commonHeaders();
  if (withToken) {
    const token = await ensureFreshToken();
    if (token) headers.Authorization = `Bearer ${token}`;
  }
  return headers;
}

interface EnvelopeLike {
  success?: unknown;
  result?: unknown;
  error?: { code?: unknown; message?: unknown; validationErrors?: unknown } | null;
  error_description?: unknown;
}

function validationMessages(error: EnvelopeLike["error"]): string[] {
  const list = error?.validationErrors;
  if (!Array.isArray(list)) return [];
  return list
    .map((v) => (typeof v === "string" ? v : String((v as { message?: unknown })?.message ?? "")))
    .filter(Boolean);
}

/**
 * Maps an HTTP answer to the result or an {@link ApiError} (spec §8). Exported for the token module and tests.
 * 401 also emits the global unauthorised event.
 */
export function unwrapResponse(status: number, statusText: string, body: unknown): unknown {
  const data = (body && typeof body === "object" ? body : {}) as EnvelopeLike;
  if (status === 401) {
    emitUnauthorized();
    throw new ApiError(i18n.t("errors.loginExpired"), 401, 401);
  }
  if (status < 200 || status >= 300) {
    const message =
      (typeof data.error?.message === "string" && data.error.message) ||
      (typeof data.error_description === "string" && data.error_description) ||
      statusText ||
      i18n.t("errors.serverError");
    const code = typeof data.error?.code === "string" && data.error.code ? data.error.code : status;
    throw new ApiError(message, code, status, validationMessages(data.error));
  }
  if (data.success === undefined && (data.error === undefined || data.error === null)) {
    throw new ApiError("", ClientErrorCode.NoEnvelope, status);
  }
  if (data.success !== true) {
    const message = (typeof data.error?.message === "string" && data.error.message) || i18n.t("errors.requestFailed");
    const code = typeof data.error?.code === "string" && data.error.code ? data.error.code : status;
    throw new ApiError(message, code, status, validationMessages(data.error));
  }
  return data.result ?? null;
}

/** Methods that create or command: they carry an `Idempotency-Key`, so a resend is never done twice. */
export const KEYED_METHODS: ReadonlySet<string> = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** A fresh idempotency key: a random v4 UUID. */
export function newIdempotencyKey(): string {
  return crypto.randomUUID();
}

/** Creating or commanding calls under way, by method, URL and body: an identical one joins the first. */
const inFlight = new Map<string, Promise<unknown>>();

/** The options of any call as the shared steps read them. */
type LooseOptions = Omit<BaseOptions<WireEndpoint>, "query" | "body"> & {
  query?: object;
  body?: unknown;
  params?: object;
};

/**
 * The URL a call to `endpoint` goes to (spec §7): the API host, the path with its `{name}` segments filled from
 * `params`, and the query serialised. Throws as {@link fillPath} and {@link assertDeclared} do (nothing is sent).
 */
export function callUrl(endpoint: WireEndpoint, options: { params?: object; query?: object } = {}): string {
  assertDeclared(endpoint, options.query, undefined);
  return baseUrl + fillPath(endpoint.path, options.params) + serializeQuery(options.query);
}

/** The URL and wire body of a call, after the declared-parameter check (nothing is sent when it throws). */
function prepare(endpoint: WireEndpoint, options: LooseOptions) {
  assertDeclared(endpoint, options.query as object | undefined, options.body);
  const url = callUrl(endpoint, {
    params: options.params as object | undefined,
    query: options.query as object | undefined,
  });
  const raw = options.body;
  const body = raw === undefined ? undefined : raw instanceof RequestBody ? raw : jsonBody(raw);
  return { url, body };
}

/**
 * Calls one contract endpoint and resolves with its unwrapped result (spec §7, §8).
 * The body is JSON unless it is a {@link RequestBody} of another kind (form-urlencoded, multipart, binary);
 * `onUploadProgress` reports a body going out. Creating and commanding calls (POST, PUT, PATCH, DELETE) carry an
 * `Idempotency-Key` (`options.idempotencyKey` or a fresh one): a call whose answer was lost to the network is sent
 * once more with the same key (the server runs it once), and an identical call made while one is under way (a double
 * tap) joins it instead of being sent again (JSON and form bodies compare by their text; multipart and binary bodies,
 * and calls with an abort `signal`, are never joined).
 * Errors: `Error` for an undeclared parameter (nothing sent); {@link ApiError} with code -2 for a network failure,
 * 401 for an expired login (after emitting the unauthorised event), the server's code otherwise; an `AbortError`
 * when `signal` aborts.
 */
export async function api<E extends WireEndpoint>(endpoint: E, ...args: ApiArgs<E>): Promise<ResultOf<E>> {
  const options = (args[0] ?? {}) as LooseOptions;
  const { url, body } = prepare(endpoint, options);
  const read = async (key: string | null): Promise<ResultOf<E>> => {
    if (options.loading) beginLoading();
    try {
      const response = await exchange(endpoint.method, url, body, options, key);
      return unwrapResponse(response.status, response.statusText, await readJson(response)) as ResultOf<E>;
    } finally {
      if (options.loading) endLoading();
    }
  };
  if (!KEYED_METHODS.has(endpoint.method)) return read(null);
  const key = options.idempotencyKey ?? newIdempotencyKey();
  // A call its owner may cancel (a query's read sent as POST) is never joined: the one joined would share the first
  // caller's cancellation, and a refetch that replaces a cancelled read would get its abort instead of an answer.
  if ((body && body.signature === null) || options.signal) return read(key);
  const sameCall = `${endpoint.method} ${url} ${body?.kind ?? ""} ${body?.signature ?? ""}`;
  const running = inFlight.get(sameCall);
  if (running) return running as Promise<ResultOf<E>>;
  const call = read(key);
  inFlight.set(sameCall, call);
  try {
    return await call;
  } finally {
    inFlight.delete(sameCall);
  }
}

/** An answer's body as JSON, or null when it is empty, unreadable or not JSON. */
async function readJson(response: Response): Promise<unknown> {
  const text = await response.text().catch(() => "");
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/**
 * One exchange on the wire, up to the server's `Response`: headers (token, language, time zone, project, tenant,
 * idempotency key), a resend of a keyed call whose answer was lost, and the 401 refresh. The caller reads the body.
 */
async function exchange(
  method: string,
  url: string,
  body: RequestBody | undefined,
  options: LooseOptions,
  idempotencyKey: string | null,
): Promise<Response> {
  // The token goes along even to open calls: application-configuration answers the caller's grantedPolicies with it.
  const headers = await requestHeaders(true);
  if (idempotencyKey) headers["Idempotency-Key"] = idempotencyKey;
  const request: WireRequest = {
    method,
    headers,
    body,
    signal: options.signal,
    onUploadProgress: options.onUploadProgress,
  };
  // A keyed call whose answer was lost is safe to send again: the server runs the key once.
  const send = async (req: WireRequest): Promise<Response> => {
    try {
      return await transmit(url, req);
    } catch (err) {
      if (!idempotencyKey || !(err instanceof ApiError)) throw err;
      return transmit(url, req);
    }
  };
  const response = await send(request);
  // A 401 on a call that carried a token: refresh once and retry before giving up.
  const sent = headers.Authorization?.slice("Bearer ".length);
  if (response.status === 401 && sent) {
    const renewed = await renewAfterUnauthorized(sent);
    if (renewed) {
      await response.body?.cancel().catch(() => undefined);
      return send({ ...request, headers: { ...headers, Authorization: `Bearer ${renewed}` } });
    }
  }
  return response;
}

/** Options of {@link apiStream}: those of {@link api}, plus what to do with the answer as it arrives. */
export interface StreamOptions<E extends WireEndpoint> extends BaseOptions<E> {
  /** Called once with the answer's headers, before its first byte is read (e.g. a total announced by the server). */
  onResponse?: (headers: Headers) => void;
  /** Called with every piece of the body as it arrives and the progress so far (bytes; total when announced). */
  onChunk?: (chunk: Uint8Array, progress: TransferProgress) => void;
  /** Keep the pieces and answer them as one Blob (default true); false when `onChunk` consumes them. */
  collect?: boolean;
}

/** Options of {@link apiStream} with `params` typed like {@link ApiOptions}. */
export type ApiStreamOptions<E extends WireEndpoint> = StreamOptions<E> &
  (HasParams<E> extends true ? { params: ParamsOf<E> } : { params?: undefined });

/** What a streamed call answers once its body has been read to the end. */
export interface StreamResult {
  /** The whole body (empty when `collect` was false), typed with the answer's content type. */
  blob: Blob;
  headers: Headers;
  status: number;
  /** Bytes received (after any content decoding). */
  bytes: number;
  /** The file name of `Content-Disposition`, or null. */
  fileName: string | null;
}

/**
 * The total size a streamed answer announces: `Content-Length`, unless a content encoding makes it count other
 * bytes than the ones read (compressed size). Null when unknown.
 */
export function announcedLength(headers: Headers): number | null {
  const encoding = headers.get("content-encoding");
  if (encoding && encoding !== "identity") return null;
  const text = headers.get("content-length");
  if (text === null || !/^\d+$/.test(text.trim())) return null;
  return Number(text);
}

/**
 * The file name a `Content-Disposition` header gives (`filename*=UTF-8''…` preferred over `filename="…"`), without
 * any folder part; null when there is none.
 */
export function fileNameOf(disposition: string | null): string | null {
  if (!disposition) return null;
  const extended = /filename\*\s*=\s*([^']*)'[^']*'([^;]+)/i.exec(disposition);
  let name: string | null = null;
  if (extended) {
    try {
      name = decodeURIComponent(extended[2].trim().replace(/^"|"$/g, ""));
    } catch {
      name = null;
    }
  }
  if (!name) {
    const plain = /filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]+))/i.exec(disposition);
    name = plain ? (plain[1] ?? plain[2] ?? "").replace(/\\(.)/g, "$1").trim() : null;
  }
  const base = name?.split(/[\\/]/).pop()?.trim();
  return base || null;
}

/**
 * Calls one endpoint whose answer is not an envelope but a stream (spec §7 "streaming response"), e.g. the CSV
 * export, and reads the body piece by piece as it arrives: `onResponse(headers)` first, then `onChunk(piece,
 * {loaded, total})` per piece (total from `Content-Length` when announced, else null); resolves when the body has
 * ended. Same headers, declared-parameter check, 401 refresh, idempotency, resend and loading count as {@link api}
 * (a resend happens only before the answer began; identical calls are not joined).
 * Errors: an error answer (non-2xx) is read as an envelope and mapped like {@link api} (server message in the
 * user's language, 401 Login expired); {@link ApiError} code -2 when the connection fails before or during the body;
 * an `AbortError` when `signal` aborts, also mid-body; a throwing `onChunk` aborts the read with its error.
 */
export async function apiStream<E extends WireEndpoint>(
  endpoint: E,
  options: ApiStreamOptions<E>,
): Promise<StreamResult> {
  const opts = options as LooseOptions & Omit<StreamOptions<E>, "query" | "body">;
  const { url, body } = prepare(endpoint, opts);
  const key = KEYED_METHODS.has(endpoint.method) ? (opts.idempotencyKey ?? newIdempotencyKey()) : null;
  if (opts.loading) beginLoading();
  try {
    const response = await exchange(endpoint.method, url, body, opts, key);
    if (response.status < 200 || response.status >= 300) {
      unwrapResponse(response.status, response.statusText, await readJson(response));
    }
    opts.onResponse?.(response.headers);
    const total = announcedLength(response.headers);
    const keep = opts.collect !== false;
    const pieces: Uint8Array[] = [];
    let loaded = 0;
    const reader = response.body?.getReader();
    if (reader) {
      const signal = opts.signal;
      // An abort ends a pending read at once, whatever the platform does with the connection.
      const onAbort = () => void reader.cancel().catch(() => undefined);
      signal?.addEventListener("abort", onAbort, { once: true });
      try {
        for (;;) {
          if (signal?.aborted) throw abortError();
          let next: ReadableStreamReadResult<Uint8Array>;
          try {
            next = await reader.read();
          } catch {
            throw signal?.aborted ? abortError() : networkError();
          }
          if (signal?.aborted) throw abortError();
          if (next.done) break;
          loaded += next.value.byteLength;
          if (keep) pieces.push(next.value);
          opts.onChunk?.(next.value, { loaded, total });
        }
      } catch (err) {
        await reader.cancel().catch(() => undefined);
        throw err;
      } finally {
        signal?.removeEventListener("abort", onAbort);
      }
    }
    const type = response.headers.get("content-type") ?? "";
    return {
      blob: new Blob(pieces as BlobPart[], { type }),
      headers: response.headers,
      status: response.status,
      bytes: loaded,
      fileName: fileNameOf(response.headers.get("content-disposition")),
    };
  } finally {
    if (opts.loading) endLoading();
  }
}

/** A list answer of spec §3/§7: `{items, totalCount}` or a bare array (then totalCount = its length). */
export function asPage<T>(result: TPaged<T> | T[] | null | undefined): TPaged<T> {
  if (Array.isArray(result)) return { items: result, totalCount: result.length };
  if (result && Array.isArray(result.items)) return { items: result.items, totalCount: result.totalCount };
  return { items: [], totalCount: 0 };
}

/**
 * Absolute URL of an image (spec §7 "Images"): a relative path or an object with fileUrl gets the API host
 * prefixed; absolute and data URLs pass unchanged; empty → null.
 */
export function imageUrl(image: string | { fileUrl?: string | null } | null | undefined): string | null {
  const path = typeof image === "string" ? image : image?.fileUrl;
  if (!path) return null;
  if (/^(https?:|data:|blob:)/i.test(path)) return path;
  return `${baseUrl}${path.startsWith("/") ? "" : "/"}${path}`;
}
