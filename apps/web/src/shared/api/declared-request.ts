import type { WireEndpoint } from "@aquapilot/contract/wire";
import { apiBaseUrl } from "./api-host.ts";
import type { LooseOptions } from "./call-options.ts";
import { encodeFields, jsonBody, RequestBody } from "./transport.ts";

/**
 * What a call sends, built from the contract's declaration of its endpoint (spec §5 "Request parameters must all be
 * declared, otherwise an error"; spec §7 URL, query and body rules): the check of every parameter against the
 * declaration, the path with its `{name}` segments filled, the serialised query and the wire body. Everything here
 * throws before anything is sent.
 */

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
 * null and undefined are dropped. Answers "" for no values, else the text with its leading "?".
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
 * The URL a call to `endpoint` goes to (spec §7): the API host, the path with its `{name}` segments filled from
 * `params`, and the query serialised. Throws as {@link fillPath} and {@link assertDeclared} do (nothing is sent).
 */
export function callUrl(endpoint: WireEndpoint, options: { params?: object; query?: object } = {}): string {
  assertDeclared(endpoint, options.query, undefined);
  return apiBaseUrl() + fillPath(endpoint.path, options.params) + serializeQuery(options.query);
}

/**
 * The URL and wire body of a call (spec §7): the body as given when it is a {@link RequestBody}, else the value as
 * JSON (nulls dropped), undefined without one. Throws after the declared-parameter check of {@link assertDeclared}
 * and {@link callUrl}, before anything is sent.
 */
export function prepareCall(
  endpoint: WireEndpoint,
  options: LooseOptions,
): { url: string; body: RequestBody | undefined } {
  assertDeclared(endpoint, options.query, options.body);
  const url = callUrl(endpoint, { params: options.params, query: options.query });
  const raw = options.body;
  const body = raw === undefined ? undefined : raw instanceof RequestBody ? raw : jsonBody(raw);
  return { url, body };
}
