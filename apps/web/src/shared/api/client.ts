import {
  type BodyOf,
  type Endpoint,
  type QueryOf,
  type ResultOf,
  TIME_ZONE_HEADER,
  type TPaged,
} from "@aquapilot/contract";
import type { z } from "zod";
import { currentLanguage, i18n } from "../i18n/index.js";
import { ApiError, ClientErrorCode } from "./errors.js";
import { emitUnauthorized } from "./events.js";
import { beginLoading, endLoading } from "./loading.js";
import { ensureFreshToken, renewAfterUnauthorized } from "./token.js";

/**
 * The typed API client of spec §7/§8: `api(endpoint, {query, body, params})` for any entry of the contract's `endpoints`.
 * Sends the bearer token, `Accept-Language` and `project-id`; accepts only declared parameters; unwraps the ABP
 * envelope; maps failures to {@link ApiError} per spec §8.
 */

/** The `params` schema an endpoint declares (spec §7 "P"), `never` when it declares none. */
type DeclaredParams<E extends Endpoint> = Exclude<E["params"], undefined>;

/** Whether an endpoint declares path parameters. */
type HasParams<E extends Endpoint> = [DeclaredParams<E>] extends [never] ? false : true;

/** Path values of an endpoint (spec §7 "P"): the input of its `params` schema, `never` when it declares none. */
export type ParamsOf<E extends Endpoint> = DeclaredParams<E> extends z.ZodObject ? z.input<DeclaredParams<E>> : never;

/** Options of one call: query values, JSON body, the counted loading toast, an abort signal. */
interface BaseOptions<E extends Endpoint> {
  query?: QueryOf<E>;
  body?: BodyOf<E>;
  /** Count this call in the loading indicator (spec §5); off by default for background queries. */
  loading?: boolean;
  signal?: AbortSignal;
  /**
   * The `Idempotency-Key` of a creating or commanding call (POST, PUT, PATCH, DELETE); by default a fresh random key
   * per call. The server runs a key once per caller within 24 h and replays its first answer to a repeat.
   */
  idempotencyKey?: string;
}

/**
 * Options of one call. `params` fills the `{name}` segments of the endpoint's path (spec §7 "P"); it is required,
 * and typed from the contract's `params` schema, exactly when the endpoint declares one.
 */
export type ApiOptions<E extends Endpoint> = BaseOptions<E> &
  (HasParams<E> extends true ? { params: ParamsOf<E> } : { params?: undefined });

/** The options argument of {@link api}: mandatory for endpoints with path parameters, optional otherwise. */
export type ApiArgs<E extends Endpoint> =
  HasParams<E> extends true ? [options: ApiOptions<E>] : [options?: ApiOptions<E>];

let baseUrl = "";
let projectId: string | null = null;

/** Sets the API host for images and calls ("" = same origin, the default in the browser and behind the dev proxy). */
export function setApiBaseUrl(url: string): void {
  baseUrl = url.replace(/\/+$/, "");
}

/** The API host prefix ("" = same origin). */
export function apiBaseUrl(): string {
  return baseUrl;
}

/** Sets the project id sent as the `project-id` header (spec §3 "Project id, sent as a header"); null stops it. */
export function setProjectId(id: string | null): void {
  projectId = id;
}

/** The current project id, or null. */
export function getProjectId(): string | null {
  return projectId;
}

/** Keys a zod object schema declares, or null when the schema is not an object (spec §5 declared parameters). */
function declaredKeys(schema: unknown): string[] | null {
  if (schema && typeof schema === "object" && "shape" in schema) {
    return Object.keys((schema as { shape: Record<string, unknown> }).shape);
  }
  return null;
}

/**
 * Throws when a parameter is not declared by the endpoint (spec §5 "Request parameters must all be declared,
 * otherwise an error"), before anything is sent.
 */
export function assertDeclared(endpoint: Endpoint, query: object | undefined, body: unknown): void {
  const queryKeys = declaredKeys(endpoint.query) ?? [];
  for (const key of Object.keys(query ?? {})) {
    if (!queryKeys.includes(key)) {
      throw new Error(`Undeclared query parameter "${key}" for ${endpoint.method} ${endpoint.path}`);
    }
  }
  if (body === undefined) return;
  if (endpoint.body === undefined) throw new Error(`${endpoint.method} ${endpoint.path} takes no body`);
  const bodyKeys = declaredKeys(endpoint.body);
  if (bodyKeys && body && typeof body === "object" && !Array.isArray(body)) {
    for (const key of Object.keys(body)) {
      if (!bodyKeys.includes(key)) {
        throw new Error(`Undeclared body parameter "${key}" for ${endpoint.method} ${endpoint.path}`);
      }
    }
  }
}

function scalar(value: unknown): string {
  return value instanceof Date ? value.toISOString() : String(value);
}

/**
 * Serialises query values (spec §7): arrays repeat the key without indices (`ids=1&ids=2`), dates become ISO text,
 * null and undefined are dropped.
 */
export function serializeQuery(query: object | undefined): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === null || value === undefined) continue;
    if (Array.isArray(value)) {
      for (const item of value) if (item !== null && item !== undefined) params.append(key, scalar(item));
    } else {
      params.append(key, scalar(value));
    }
  }
  const text = params.toString();
  return text ? `?${text}` : "";
}

/** Drops null values from a JSON body, recursively through plain objects and arrays (spec §7 "null dropped"). */
export function dropNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.filter((v) => v !== null).map(dropNulls);
  if (value && typeof value === "object" && !(value instanceof Date)) {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, v]) => v !== null && v !== undefined)
        .map(([k, v]) => [k, dropNulls(v)]),
    );
  }
  return value;
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
    return encodeURIComponent(scalar(v));
  });
  for (const key of Object.keys(values)) {
    if (!names.has(key)) throw new Error(`Undeclared path parameter "${key}" for ${path}`);
  }
  return filled;
}

/** The phone's IANA time zone (e.g. "Europe/Paris"), or null when the runtime does not tell. */
function phoneTimeZone(): string | null {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || null;
  } catch {
    return null;
  }
}

/**
 * The request headers of spec §7: bearer token, Accept-Language, project-id; plus the phone's time zone
 * ({@link TIME_ZONE_HEADER}, issue 10 "One clock") so the server cuts days at the owner's local midnight.
 */
export async function requestHeaders(withToken: boolean): Promise<Record<string, string>> {
  const headers: Record<string, string> = { Accept: "application/json", "Accept-Language": currentLanguage() };
  const timeZone = phoneTimeZone();
  if (timeZone) headers[TIME_ZONE_HEADER] = timeZone;
  if (withToken) {
    const token = await ensureFreshToken();
    if (token) headers.Authorization = `Bearer ${token}`;
  }
  if (projectId) headers["project-id"] = projectId;
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

/** Methods that create or command: they carry an `Idempotency-Key` (issue 10 "Every submit happens once"). */
export const KEYED_METHODS: ReadonlySet<string> = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** A fresh idempotency key: a random v4 UUID. */
export function newIdempotencyKey(): string {
  return crypto.randomUUID();
}

/** Creating or commanding calls under way, by method, URL and body: an identical one joins the first. */
const inFlight = new Map<string, Promise<unknown>>();

/**
 * Calls one contract endpoint and resolves with its unwrapped result (spec §7, §8).
 * Creating and commanding calls (POST, PUT, PATCH, DELETE) carry an `Idempotency-Key` (`options.idempotencyKey` or a
 * fresh one): a call whose answer was lost to the network is sent once more with the same key (the server runs it
 * once), and an identical call made while one is under way (a double tap) joins it instead of being sent again.
 * Errors: `Error` for an undeclared parameter (nothing sent); {@link ApiError} with code -2 for a network failure,
 * 401 for an expired login (after emitting the unauthorised event), the server's code otherwise.
 */
export async function api<E extends Endpoint>(endpoint: E, ...args: ApiArgs<E>): Promise<ResultOf<E>> {
  const options = (args[0] ?? {}) as BaseOptions<E> & { params?: object };
  assertDeclared(endpoint, options.query as object | undefined, options.body);
  const url = baseUrl + fillPath(endpoint.path, options.params) + serializeQuery(options.query as object | undefined);
  const body = options.body === undefined ? undefined : JSON.stringify(dropNulls(options.body));
  if (!KEYED_METHODS.has(endpoint.method)) return callOnce<E>(endpoint, url, body, options, null);
  const sameCall = `${endpoint.method} ${url} ${body ?? ""}`;
  const running = inFlight.get(sameCall);
  if (running) return running as Promise<ResultOf<E>>;
  const call = callOnce<E>(endpoint, url, body, options, options.idempotencyKey ?? newIdempotencyKey());
  inFlight.set(sameCall, call);
  try {
    return await call;
  } finally {
    inFlight.delete(sameCall);
  }
}

/** One call on the wire: headers, body, the loading count, a resend of a keyed call, the 401 refresh, the envelope. */
async function callOnce<E extends Endpoint>(
  endpoint: E,
  url: string,
  body: string | undefined,
  options: BaseOptions<E>,
  idempotencyKey: string | null,
): Promise<ResultOf<E>> {
  // The token goes along even to open calls: application-configuration answers the caller's grantedPolicies with it.
  const headers = await requestHeaders(true);
  if (idempotencyKey) headers["Idempotency-Key"] = idempotencyKey;
  const init: RequestInit = { method: endpoint.method, headers, signal: options.signal };
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    init.body = body;
  }
  if (options.loading) beginLoading();
  try {
    const sendOnce = async (request: RequestInit): Promise<Response> => {
      try {
        return await fetch(url, request);
      } catch (err) {
        if (err instanceof DOMException && err.name === "AbortError") throw err;
        throw new ApiError(i18n.t("errors.serverError"), ClientErrorCode.Network, null);
      }
    };
    // A keyed call whose answer was lost is safe to send again: the server runs the key once.
    const send = async (request: RequestInit): Promise<Response> => {
      try {
        return await sendOnce(request);
      } catch (err) {
        if (!idempotencyKey || !(err instanceof ApiError)) throw err;
        return sendOnce(request);
      }
    };
    let response = await send(init);
    // A 401 on a call that carried a token: refresh once and retry before giving up (issue 3 "Tokens").
    const sent = headers.Authorization?.slice("Bearer ".length);
    if (response.status === 401 && sent) {
      const renewed = await renewAfterUnauthorized(sent);
      if (renewed) {
        response = await send({ ...init, headers: { ...headers, Authorization: `Bearer ${renewed}` } });
      }
    }
    const text = await response.text().catch(() => "");
    let body: unknown = null;
    if (text) {
      try {
        body = JSON.parse(text);
      } catch {
        body = null;
      }
    }
    return unwrapResponse(response.status, response.statusText, body) as ResultOf<E>;
  } finally {
    if (options.loading) endLoading();
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
