import { abpEnvelope, type Endpoint, type Language } from "@aquapilot/contract";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { z } from "zod";
import type { AuthUser } from "../auth/auth-service.ts";
import { requireUser } from "./authenticate.ts";
import { ok } from "./envelope.ts";

/** Path values of an endpoint (spec §7 "P"): the parsed output of its `params` schema, `undefined` without one. */
export type ParamsOutput<E extends Endpoint> = [NonNullable<E["params"]>] extends [never]
  ? undefined
  : NonNullable<E["params"]> extends z.ZodObject
    ? z.output<NonNullable<E["params"]>>
    : undefined;

/** What a contract route handler receives: the validated (parsed) query, body and path values, the caller, the language. */
export interface RouteContext<E extends Endpoint, U> {
  query: z.output<E["query"]>;
  body: E["body"] extends z.ZodType ? z.output<E["body"]> : undefined;
  params: ParamsOutput<E>;
  user: U;
  lang: Language;
  request: FastifyRequest;
  reply: FastifyReply;
}

type Handler<E extends Endpoint, U> = (ctx: RouteContext<E, U>) => Promise<z.input<E["result"]>>;

const PATH_PARAM = /\{(\w+)\}/g;

/**
 * The Fastify URL for a contract path: each `{name}` segment (spec §7 "P") becomes `:name`.
 * @throws when the path has `{…}` segments and the entry declares no `params` schema, or the schema lacks one of
 *   them (a contract mistake, reported at registration rather than on the first request).
 */
export function fastifyUrl(ep: Pick<Endpoint, "path" | "params">): string {
  const names = [...ep.path.matchAll(PATH_PARAM)].map((m) => m[1]);
  if (names.length > 0) {
    const declared = ep.params ? Object.keys(ep.params.shape) : [];
    const missing = names.filter((n) => !declared.includes(n));
    if (missing.length > 0) throw new Error(`${ep.path}: params schema lacks ${missing.join(", ")}`);
  }
  return ep.path.replace(PATH_PARAM, ":$1");
}

/** Extra per-route options of {@link registerEndpoint}. */
export interface EndpointOptions {
  /**
   * Runs after authentication and validation, before the handler (e.g. a rate limit keyed by the caller);
   * throwing an AppError answers it through the error handler.
   */
  preHandler?: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
}

function register<E extends Endpoint>(
  app: FastifyInstance,
  ep: E,
  needsUser: boolean,
  handler: Handler<E, never>,
  options: EndpointOptions = {},
) {
  app.route({
    method: ep.method,
    url: fastifyUrl(ep),
    schema: {
      querystring: ep.query,
      ...(ep.params ? { params: ep.params } : {}),
      ...(ep.body ? { body: ep.body } : {}),
      response: { 200: abpEnvelope(ep.result) },
      summary: ep.summary,
    },
    // Authentication before validation: an anonymous caller learns nothing about the parameters.
    onRequest: needsUser
      ? async (request) => {
          requireUser(request);
        }
      : undefined,
    preHandler: options.preHandler,
    handler: async (request, reply) => {
      const result = await handler({
        query: request.query as never,
        body: request.body as never,
        params: (ep.params ? request.params : undefined) as never,
        user: request.user as never,
        lang: request.lang,
        request,
        reply,
      });
      return ok(result ?? null);
    },
  });
}

/**
 * Registers an authenticated route from its contract entry (packages/contract endpoints.ts): method and path
 * verbatim (`{id}` segments become Fastify `:id` and are validated by the entry's `params`), query/body validated by
 * the entry's schemas, the handler's result wrapped in the ABP envelope and serialised through
 * `abpEnvelope(result)`. Anonymous callers get 401 with unAuthorizedRequest true.
 * `options.preHandler` runs between validation and the handler.
 * @throws at registration when the entry is marked `open` (use {@link registerOpenEndpoint}) or its path names a
 *   parameter its `params` schema lacks.
 */
export function registerEndpoint<E extends Endpoint>(
  app: FastifyInstance,
  ep: E,
  handler: Handler<E, AuthUser>,
  options?: EndpointOptions,
): void {
  if (ep.open) throw new Error(`${ep.path} is open: register it with registerOpenEndpoint`);
  register(app, ep, true, handler as Handler<E, never>, options);
}

/** Like {@link registerEndpoint} for an `open` entry: the handler gets `user` null when the caller is anonymous. */
export function registerOpenEndpoint<E extends Endpoint>(
  app: FastifyInstance,
  ep: E,
  handler: Handler<E, AuthUser | null>,
): void {
  if (!ep.open) throw new Error(`${ep.path} is not open: register it with registerEndpoint`);
  register(app, ep, false, handler as Handler<E, never>);
}
