import { TIME_ZONE_HEADER } from "@aquapilot/contract/wire";
import { takeEarlyAnswer } from "../../first-paint/early-answers.ts";
import { yieldIfScheduler } from "../../first-paint/scheduling.ts";
import { i18n, requestLanguage } from "../i18n/index.ts";
import { ApiError, ClientErrorCode } from "./errors.ts";

/**
 * The wire under every call of the app (spec §7 "Body kinds supported: JSON, form-urlencoded, multipart, binary;
 * streaming response; arrays serialised without indices, dates as ISO text, null dropped"): the headers every call
 * carries, the four body kinds, and one `transmit()` that sends a request and answers the `Response` — through
 * `fetch`, or through `XMLHttpRequest` when the caller wants upload progress (browsers report the progress of a
 * request body only there). One layer for every body kind keeps the headers, idempotency and errors the same
 * whatever a call sends.
 * `api()` (client.ts) and `apiStream()` (stream.ts) add the bearer token, the envelope and idempotency on top; the
 * OAuth token calls (token.ts) use this layer directly because they answer no envelope and must not wait for a token.
 */

/**
 * ABP's tenant header: the native shell's `tenant` (spec §3 native-app config) names the tenant whose users and
 * devices a call is about. Sent on every API and token call while set; our server serves one tenant and ignores it.
 */
export const TENANT_HEADER = "__tenant";

let projectId: string | null = null;
let tenant: string | null = null;

/** Sets the project id sent as the `project-id` header (spec §3 "Project id, sent as a header"); null stops it. */
export function setProjectId(id: string | null): void {
  projectId = id;
}

/** The current project id, or null. */
export function getProjectId(): string | null {
  return projectId;
}

/**
 * Sets the tenant sent as the {@link TENANT_HEADER} header on every call (from the native config's `tenant`, spec
 * §3, at start-up); null or blank text stops it. Surrounding spaces are dropped.
 */
export function setTenant(name: string | null): void {
  tenant = name?.trim() || null;
}

/** The tenant sent with every call, or null. */
export function getTenant(): string | null {
  return tenant;
}

let timeZone: string | null | undefined;

/** `Temporal.Now` where the runtime has it (Chromium 144+; not yet in TypeScript's lib). */
type TemporalNow = { Now?: { timeZoneId?: () => string } };

/**
 * The phone's IANA time zone (e.g. "Europe/Paris"), or null when the runtime does not tell. Read once, from
 * `Temporal.Now.timeZoneId()` where the runtime has it: the `Intl.DateTimeFormat` way first loads the runtime's date
 * formatting data, 20–60 ms of main thread on this machine and four times that on a slow phone.
 */
function phoneTimeZone(): string | null {
  if (timeZone === undefined) {
    try {
      const temporal = (globalThis as { Temporal?: TemporalNow }).Temporal;
      timeZone = temporal?.Now?.timeZoneId?.() || Intl.DateTimeFormat().resolvedOptions().timeZone || null;
    } catch {
      timeZone = null;
    }
  }
  return timeZone;
}

/** The `Accept-Language` values calls went out with since {@link askedInOtherLanguage} last looked. */
const languagesAsked = new Set<string>();

/**
 * Whether any call since the last look went out in another language than `lang` (its answer may hold server texts
 * in that language); forgets them. The query client asks on every language change: a change to the language every
 * call was already made in (start-up, whose first calls leave in the language being switched to) refetches nothing.
 */
export function askedInOtherLanguage(lang: string): boolean {
  const other = [...languagesAsked].some((asked) => asked !== lang);
  languagesAsked.clear();
  return other;
}

/**
 * The headers every call carries, without the bearer token (spec §7): `Accept: application/json`, `Accept-Language`
 * (the interface language), the phone's time zone ({@link TIME_ZONE_HEADER}: the server cuts days at the owner's local
 * midnight), `project-id` and {@link TENANT_HEADER} when set.
 */
export function commonHeaders(): Record<string, string> {
  const language = requestLanguage();
  languagesAsked.add(language);
  const headers: Record<string, string> = { Accept: "application/json", "Accept-Language": language };
  const timeZone = phoneTimeZone();
  if (timeZone) headers[TIME_ZONE_HEADER] = timeZone;
  if (projectId) headers["project-id"] = projectId;
  if (tenant) headers[TENANT_HEADER] = tenant;
  return headers;
}

// ---------- body kinds ----------

/** A single value of a query, a form or a multipart part: dates become ISO text, everything else `String(v)`. */
export type FieldScalar = string | number | boolean | bigint | Date;

/** Form or query fields: a value, a list (the key repeated, no indices), or null/undefined (dropped). */
export type FormFields = Record<string, FieldScalar | readonly (FieldScalar | null | undefined)[] | null | undefined>;

/** A multipart part: text, a file or blob (named by `File.name`, else "blob"), or a blob with its own file name. */
export type MultipartPart = FieldScalar | Blob | { blob: Blob; fileName: string };

/** The four body kinds of spec §7. */
export type BodyKind = "json" | "form" | "multipart" | "binary";

/**
 * A request body ready for the wire: what it carries (`payload`), its `Content-Type` (null for multipart: the
 * platform writes it with the boundary), the field names it declares (checked against the endpoint, spec §5), and a
 * `signature` that identifies identical bodies (JSON and form text) — null when two bodies cannot be compared cheaply
 * (multipart, binary). Made by {@link jsonBody}, {@link formBody}, {@link multipartBody} and {@link binaryBody}.
 */
export class RequestBody {
  readonly kind: BodyKind;
  readonly payload: string | FormData | Blob | ArrayBuffer | ArrayBufferView;
  readonly contentType: string | null;
  readonly fieldNames: readonly string[] | null;
  readonly signature: string | null;
  /** @internal use the factory functions. */
  constructor(
    kind: BodyKind,
    payload: string | FormData | Blob | ArrayBuffer | ArrayBufferView,
    contentType: string | null,
    fieldNames: readonly string[] | null,
    signature: string | null,
  ) {
    this.kind = kind;
    this.payload = payload;
    this.contentType = contentType;
    this.fieldNames = fieldNames;
    this.signature = signature;
  }
}

function scalar(value: FieldScalar): string {
  return value instanceof Date ? value.toISOString() : String(value);
}

/**
 * Fields as URL-encoded text (spec §7): lists repeat their key without indices (`ids=1&ids=2`), dates become ISO
 * text, null and undefined are dropped (also inside lists). Keys keep their order.
 */
export function encodeFields(fields: object | undefined): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(fields ?? {})) {
    if (value === null || value === undefined) continue;
    if (Array.isArray(value)) {
      for (const item of value) if (item !== null && item !== undefined) params.append(key, scalar(item));
    } else {
      params.append(key, scalar(value as FieldScalar));
    }
  }
  return params.toString();
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

/** A JSON body (the default kind): nulls dropped, dates as ISO text; `application/json`. */
export function jsonBody(value: unknown): RequestBody {
  const text = JSON.stringify(dropNulls(value));
  const names = value && typeof value === "object" && !Array.isArray(value) ? Object.keys(value) : null;
  return new RequestBody("json", text, "application/json", names, text);
}

/** A form-urlencoded body (`application/x-www-form-urlencoded`), encoded as {@link encodeFields}. */
export function formBody(fields: FormFields): RequestBody {
  const text = encodeFields(fields);
  const names = Object.keys(fields).filter((k) => fields[k] !== null && fields[k] !== undefined);
  return new RequestBody("form", text, "application/x-www-form-urlencoded", names, text);
}

/**
 * A multipart/form-data body from a `FormData` or from named parts (see {@link MultipartPart}; a list repeats its
 * name; null and undefined parts are dropped). The content type with its boundary is written by the platform.
 */
export function multipartBody(
  parts: FormData | Record<string, MultipartPart | readonly MultipartPart[] | null | undefined>,
): RequestBody {
  let form: FormData;
  if (parts instanceof FormData) {
    form = parts;
  } else {
    form = new FormData();
    for (const [name, value] of Object.entries(parts)) {
      if (value === null || value === undefined) continue;
      for (const part of (Array.isArray(value) ? value : [value]) as MultipartPart[]) {
        if (part instanceof Blob) form.append(name, part);
        else if (typeof part === "object" && !(part instanceof Date) && "blob" in part)
          // A File carries its name everywhere (some FormData implementations drop append's third argument).
          form.append(name, new File([part.blob], part.fileName, { type: part.blob.type }));
        else form.append(name, scalar(part as FieldScalar));
      }
    }
  }
  return new RequestBody("multipart", form, null, [...new Set(form.keys())], null);
}

/**
 * A binary body: the bytes as they are, with `contentType` (default: the blob's own type, else
 * `application/octet-stream`).
 */
export function binaryBody(data: Blob | ArrayBuffer | ArrayBufferView, contentType?: string): RequestBody {
  const type = contentType || (data instanceof Blob && data.type) || "application/octet-stream";
  return new RequestBody("binary", data, type, null, null);
}

// ---------- the wire ----------

/** How far a transfer is: bytes done and, when known, the total bytes. */
export interface TransferProgress {
  loaded: number;
  total: number | null;
}

/** One request for {@link transmit}. */
export interface WireRequest {
  method: string;
  headers: Record<string, string>;
  body?: RequestBody;
  signal?: AbortSignal;
  /** Called as the request body goes out (only through XMLHttpRequest, i.e. in browsers). */
  onUploadProgress?: (progress: TransferProgress) => void;
}

/** Whether a failure is the caller's abort (the error says so, or the signal has fired). */
function isAbort(err: unknown, signal: AbortSignal | undefined): boolean {
  return (err as { name?: unknown } | null)?.name === "AbortError" || Boolean(signal?.aborted);
}

/** The error of an aborted call, as `fetch` gives it. */
export function abortError(): DOMException {
  return new DOMException("The operation was aborted.", "AbortError");
}

/**
 * The error of a call that got no answer (spec §8: code -2): "No network connection" when the phone has no network
 * (`navigator.onLine` false: a server error would be untrue), else the server error of spec §8, in the user's language.
 */
export function networkError(): ApiError {
  const offline = typeof navigator !== "undefined" && navigator.onLine === false;
  return new ApiError(i18n.t(offline ? "errors.noNetwork" : "errors.serverError"), ClientErrorCode.Network, null);
}

/**
 * Sends one request and answers the server's `Response`, whatever its status.
 * The body's `Content-Type` is set from its kind (multipart: by the platform, with the boundary). With
 * `onUploadProgress` and a body, the request goes through `XMLHttpRequest` (the only browser API that reports upload
 * progress; its answer is read whole, then handed back as a `Response`); otherwise through `fetch` — unless the page's
 * boot script already sent this very request (same method, URL and headers, no body: first-paint/early-answers.ts),
 * whose answer is then used instead.
 * Errors: an `AbortError` (DOMException) when `signal` aborts; {@link ApiError} code -2 when no answer came.
 */
export async function transmit(url: string, request: WireRequest): Promise<Response> {
  const headers = { ...request.headers };
  const body = request.body;
  if (body?.contentType) headers["Content-Type"] = body.contentType;
  if (request.signal?.aborted) throw abortError();
  const early = body ? null : takeEarlyAnswer(request.method, url, headers);
  if (early) {
    const answer = await early;
    if (request.signal?.aborted) throw abortError();
    if (answer) return answer;
  }
  try {
    if (body && request.onUploadProgress && typeof XMLHttpRequest !== "undefined") {
      return await viaXhr(url, request.method, headers, body, request.signal, request.onUploadProgress);
    }
    // The request goes out from a short task of its own (sent from the task of a screen's first render or
    // its effects, it counted that whole task towards the page's time to interactive).
    await yieldIfScheduler();
    if (request.signal?.aborted) throw abortError();
    return await fetch(url, {
      method: request.method,
      headers,
      body: body?.payload as BodyInit | undefined,
      signal: request.signal,
    });
  } catch (err) {
    if (isAbort(err, request.signal)) throw err instanceof DOMException ? err : abortError();
    throw networkError();
  }
}

/** Statuses whose `Response` may not carry a body. */
const NULL_BODY_STATUS = new Set([101, 103, 204, 205, 304]);

/** Response headers of an XHR (`getAllResponseHeaders()` text) as `Headers`. */
export function parseHeaderLines(text: string): Headers {
  const headers = new Headers();
  for (const line of text.trim().split(/[\r\n]+/)) {
    const at = line.indexOf(":");
    if (at <= 0) continue;
    try {
      headers.append(line.slice(0, at).trim(), line.slice(at + 1).trim());
    } catch {
      // a header name the platform refuses: skip it
    }
  }
  return headers;
}

function viaXhr(
  url: string,
  method: string,
  headers: Record<string, string>,
  body: RequestBody,
  signal: AbortSignal | undefined,
  onUploadProgress: (progress: TransferProgress) => void,
): Promise<Response> {
  return new Promise<Response>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    const onAbort = () => xhr.abort();
    const done = () => signal?.removeEventListener("abort", onAbort);
    xhr.open(method, url);
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    xhr.responseType = "blob";
    xhr.upload.onprogress = (e: ProgressEvent) => {
      try {
        onUploadProgress({ loaded: e.loaded, total: e.lengthComputable ? e.total : null });
      } catch (err) {
        console.warn("[api] upload progress listener failed", err);
      }
    };
    xhr.onload = () => {
      done();
      try {
        const answer = NULL_BODY_STATUS.has(xhr.status) ? null : (xhr.response as Blob | null);
        resolve(
          new Response(answer, {
            status: xhr.status,
            statusText: xhr.statusText,
            headers: parseHeaderLines(xhr.getAllResponseHeaders()),
          }),
        );
      } catch {
        // status 0 or outside 200–599: no usable answer
        reject(new TypeError("Network request failed"));
      }
    };
    xhr.onerror = () => {
      done();
      reject(new TypeError("Network request failed"));
    };
    xhr.ontimeout = xhr.onerror;
    xhr.onabort = () => {
      done();
      reject(abortError());
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    xhr.send(body.payload as XMLHttpRequestBodyInit);
  });
}
