import { abpEnvelope, type Endpoint, type Language } from "@aquapilot/contract";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { z } from "zod";
import type { AuthUser } from "../auth/auth-service.js";
import { requireUser } from "./authenticate.js";
import { ok } from "./envelope.js";

/** What a contract route handler receives: the validated (parsed) query and body, the caller and the language. */
export interface RouteContext<E extends Endpoint, U> {
  query: z.output<E["query"]>;
  body: E["body"] extends z.ZodType ? z.output<E["body"]> : undefined;
  user: U;
  lang: Language;
  request: FastifyRequest;
  reply: FastifyReply;
}

type Handler<E extends Endpoint, U> = (ctx: RouteContext<E, U>) => Promise<z.input<E["result"]>>;

function register<E extends Endpoint>(app: FastifyInstance, ep: E, needsUser: boolean, handler: Handler<E, never>) {
  app.route({
    method: ep.method,
    url: ep.path,
    schema: {
      querystring: ep.query,
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
    handler: async (request, reply) => {
      const result = await handler({
        query: request.query as never,
        body: request.body as never,
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
 * verbatim, query/body validated by the entry's schemas, the handler's result wrapped in the ABP envelope and
 * serialised through `abpEnvelope(result)`. Anonymous callers get 401 with unAuthorizedRequest true.
 * @throws at registration when the entry is marked `open` (use {@link registerOpenEndpoint}).
 */
export function registerEndpoint<E extends Endpoint>(app: FastifyInstance, ep: E, handler: Handler<E, AuthUser>): void {
  if (ep.open) throw new Error(`${ep.path} is open: register it with registerOpenEndpoint`);
  register(app, ep, true, handler as Handler<E, never>);
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
