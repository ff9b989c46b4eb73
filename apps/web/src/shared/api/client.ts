import type { ResultOf, WireEndpoint } from "@aquapilot/contract/wire";
import type { ApiArgs, LooseOptions } from "./call-options.ts";
import { prepareCall } from "./declared-request.ts";
import { readJson, unwrapResponse } from "./envelope.ts";
import { exchange } from "./exchange.ts";
import { idempotencyKeyFor } from "./idempotency.ts";
import { joinIdentical } from "./in-flight.ts";
import { beginLoading, endLoading } from "./loading.ts";

/**
 * The typed API client of spec §7/§8: `api(endpoint, {query, body, params})` for any entry of the contract's
 * `endpoints`, with a body of any kind of spec §7 (JSON by default; `formBody`, `multipartBody`, `binaryBody` of
 * transport.ts). Its steps live beside it, one job each: declared-request.ts (parameters checked, URL and body
 * built), exchange.ts (headers, bearer.ts token, idempotency.ts resend), envelope.ts (the ABP envelope and the spec §8
 * error mapping), in-flight.ts (identical calls joined); stream.ts reads an answer as it arrives, api-host.ts holds
 * the host.
 */

/**
 * Calls one contract endpoint and resolves with its unwrapped result (spec §7, §8).
 * The body is JSON unless it is a `RequestBody` of another kind (form-urlencoded, multipart, binary);
 * `onUploadProgress` reports a body going out. Creating and commanding calls (POST, PUT, PATCH, DELETE) carry an
 * `Idempotency-Key` (`options.idempotencyKey` or a fresh one): a call whose answer was lost to the network is sent
 * once more with the same key (the server runs it once), and an identical call made while one is under way (a double
 * tap) joins it instead of being sent again (JSON and form bodies compare by their text; multipart and binary bodies,
 * and calls with an abort `signal`, are never joined).
 * Errors: `Error` for an undeclared parameter (nothing sent); `ApiError` with code -2 for a network failure,
 * 401 for an expired login (after emitting the unauthorised event), the server's code otherwise; an `AbortError`
 * when `signal` aborts.
 */
export async function api<E extends WireEndpoint>(endpoint: E, ...args: ApiArgs<E>): Promise<ResultOf<E>> {
  const options = (args[0] ?? {}) as LooseOptions;
  const { url, body } = prepareCall(endpoint, options);
  const read = async (key: string | null): Promise<ResultOf<E>> => {
    if (options.loading) beginLoading();
    try {
      const response = await exchange(endpoint.method, url, body, options, key);
      return unwrapResponse(response.status, response.statusText, await readJson(response)) as ResultOf<E>;
    } finally {
      if (options.loading) endLoading();
    }
  };
  const key = idempotencyKeyFor(endpoint.method, options.idempotencyKey);
  if (key === null) return read(null);
  return joinIdentical(endpoint.method, url, body, options.signal, () => read(key));
}
