import type { Endpoint } from "./endpoints/define.ts";

/**
 * One endpoint of spec §7 as the web app needs it at run time: method, verbatim path and the names of
 * the parameters it declares — no zod schema, so a screen can call any endpoint without loading zod or the contract's
 * schemas. The schemas stay attached as a type only (`schemas`), so the client is typed from them exactly as from
 * the full {@link Endpoint}. The table of every endpoint, `endpoints` of `@aquapilot/contract/wire`, is generated
 * from the contract's `endpoints` (`npm run generate -w packages/contract`; a test fails when it is stale).
 */
export interface WireEndpoint<S extends Endpoint = Endpoint> {
  readonly method: S["method"];
  /** Verbatim path; `{name}` marks a path parameter (spec §7 "P"). */
  readonly path: string;
  /** True for calls that need no bearer token. */
  readonly open?: true;
  /** Names of the query parameters the endpoint declares (spec §5: only declared parameters may be sent). */
  readonly query: readonly string[];
  /**
   * The JSON body: `null` when the endpoint takes none, `"any"` when its body is not an object with declared keys
   * (an array, a value, free keys), otherwise the names of the declared body fields.
   */
  readonly body: readonly string[] | "any" | null;
  /** Type only: the endpoint's schemas, for {@link SchemasOf}. Never present at run time. */
  readonly schemas?: S;
}

/** The full endpoint (with schemas) behind an endpoint or a {@link WireEndpoint}; a type-level helper. */
export type SchemasOf<E extends Endpoint | WireEndpoint> = E extends WireEndpoint<infer S> ? S : E;
