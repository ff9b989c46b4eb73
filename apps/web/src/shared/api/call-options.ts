import type { BodyOf, QueryOf, SchemasOf, WireEndpoint } from "@aquapilot/contract/wire";
import type { z } from "zod";
import type { RequestBody, TransferProgress } from "./transport.ts";

/**
 * The options a call to a contract endpoint takes (spec §7): query, body, path values and the caller's controls,
 * typed from the endpoint so that `params` is required exactly when its path has `{name}` segments. Types only; one
 * file for them so `api()`, `apiStream()` and the steps they share all read the same shapes.
 */

/** The `params` schema an endpoint declares (spec §7 "P"), `never` when it declares none. */
type DeclaredParams<E extends WireEndpoint> = Exclude<SchemasOf<E>["params"], undefined>;

/** Whether an endpoint declares path parameters. */
type HasParams<E extends WireEndpoint> = [DeclaredParams<E>] extends [never] ? false : true;

/** Path values of an endpoint (spec §7 "P"): the input of its `params` schema, `never` when it declares none. */
export type ParamsOf<E extends WireEndpoint> =
  DeclaredParams<E> extends z.ZodObject ? z.input<DeclaredParams<E>> : never;

/** `params` of an endpoint's options: required and typed when it declares path parameters, absent otherwise. */
export type ParamsOption<E extends WireEndpoint> =
  HasParams<E> extends true ? { params: ParamsOf<E> } : { params?: undefined };

/** Options of one call: query values, body, the counted loading toast, an abort signal, upload progress. */
export interface BaseOptions<E extends WireEndpoint> {
  query?: QueryOf<E>;
  /**
   * The body: a value of the endpoint's declared JSON body (sent as JSON, nulls dropped), or a body of another kind
   * made by `formBody`, `multipartBody` or `binaryBody` (transport.ts; spec §7 "Body kinds supported").
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
export type ApiOptions<E extends WireEndpoint> = BaseOptions<E> & ParamsOption<E>;

/** The options argument of `api()`: mandatory for endpoints with path parameters, optional otherwise. */
export type ApiArgs<E extends WireEndpoint> =
  HasParams<E> extends true ? [options: ApiOptions<E>] : [options?: ApiOptions<E>];

/** The options of any call as the shared steps read them, whatever the endpoint. */
export type LooseOptions = Omit<BaseOptions<WireEndpoint>, "query" | "body"> & {
  query?: object;
  body?: unknown;
  params?: object;
};
