import type { WireEndpoint } from "@aquapilot/contract/wire";
import type { BaseOptions, LooseOptions, ParamsOption } from "./call-options.ts";
import { prepareCall } from "./declared-request.ts";
import { readJson, unwrapResponse } from "./envelope.ts";
import { exchange } from "./exchange.ts";
import { idempotencyKeyFor } from "./idempotency.ts";
import { beginLoading, endLoading } from "./loading.ts";
import { announcedLength, fileNameOf } from "./stream-headers.ts";
import { abortError, networkError, type TransferProgress } from "./transport.ts";

/** Options of {@link apiStream}: those of `api()`, plus what to do with the answer as it arrives. */
export interface StreamOptions<E extends WireEndpoint> extends BaseOptions<E> {
  /** Called once with the answer's headers, before its first byte is read (e.g. a total announced by the server). */
  onResponse?: (headers: Headers) => void;
  /** Called with every piece of the body as it arrives and the progress so far (bytes; total when announced). */
  onChunk?: (chunk: Uint8Array, progress: TransferProgress) => void;
  /** Keep the pieces and answer them as one Blob (default true); false when `onChunk` consumes them. */
  collect?: boolean;
}

/** Options of {@link apiStream} with `params` typed like `api()`'s options. */
export type ApiStreamOptions<E extends WireEndpoint> = StreamOptions<E> & ParamsOption<E>;

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
 * Calls one endpoint whose answer is not an envelope but a stream (spec §7 "streaming response"), e.g. the CSV
 * export, and reads the body piece by piece as it arrives: `onResponse(headers)` first, then `onChunk(piece,
 * {loaded, total})` per piece (total from `Content-Length` when announced, else null); resolves when the body has
 * ended. Same headers, declared-parameter check, 401 refresh, idempotency, resend and loading count as `api()`
 * (a resend happens only before the answer began; identical calls are not joined).
 * Errors: an error answer (non-2xx) is read as an envelope and mapped like `api()` (server message in the
 * user's language, 401 Login expired); `ApiError` code -2 when the connection fails before or during the body;
 * an `AbortError` when `signal` aborts, also mid-body; a throwing `onChunk` aborts the read with its error.
 */
export async function apiStream<E extends WireEndpoint>(
  endpoint: E,
  options: ApiStreamOptions<E>,
): Promise<StreamResult> {
  const opts = options as LooseOptions & Omit<StreamOptions<E>, "query" | "body">;
  const { url, body } = prepareCall(endpoint, opts);
  const key = idempotencyKeyFor(endpoint.method, opts.idempotencyKey);
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
