import { type Access, abpEnvelope, type Endpoint, type Language, type ObjectRule } from "@aquapilot/contract";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { serializerCompiler } from "fastify-type-provider-zod";
import type { z } from "zod";
import { type AccessGrant, type DeviceGrant, requireAccess } from "../auth/access.ts";
import type { AuthUser } from "../auth/auth-service.ts";
import { createMembershipCache, type MembershipCache } from "../auth/membership-cache.ts";
import { holdsPermission } from "../auth/policies.ts";
import type { Bus } from "../bus.ts";
import type { Db } from "../db/index.ts";
import { requireUser } from "./authenticate.ts";
import { ok } from "./envelope.ts";
import { AppError, ErrorCode } from "./errors.ts";
import { domainEventOf, routeEventOf } from "./route-events.ts";

declare module "fastify" {
  interface FastifyInstance {
    /** The database object-level checks read (set by {@link registerAccessChecks}). */
    accessDb: Db;
    /** Household memberships as object-level checks read them: cached per process, so a call need not read them. */
    memberships: MembershipCache;
    /** Where contract routes publish the domain event of each successful mutating call (route-events.ts). */
    domainEventBus: Pick<Bus, "publish">;
  }
  interface FastifyRequest {
    /** What the endpoint's object-level rule found (household, admin or not, device), null without a rule. */
    accessGrant: AccessGrant | null;
  }
}

/**
 * Lets contract routes enforce their declared object-level rules against `db` and publish their domain
 * events on `opts.bus` (route-events.ts): call once, before any route is registered. Decorates `app.accessDb`,
 * `app.memberships`, `app.domainEventBus` and `request.accessGrant`. Memberships are cached
 * per process for `cacheMs` (AUTH_CACHE_MS; default 5,000 ms, 0 off) and dropped by `bus` events
 * (membership-cache.ts {@link createMembershipCache}); the objects themselves are read on every call. The
 * cache stops following the bus when the app closes.
 */
export function registerAccessChecks(
  app: FastifyInstance,
  db: Db,
  opts: { bus: Pick<Bus, "subscribe" | "publish">; cacheMs?: number },
): void {
  const memberships = createMembershipCache({ db, bus: opts.bus, ttlMs: opts.cacheMs });
  app.decorate("accessDb", db);
  app.decorate("domainEventBus", opts.bus);
  app.decorate("memberships", memberships);
  app.decorateRequest("accessGrant", null);
  app.addHook("onClose", async () => memberships.close());
}

/** The value an {@link ObjectRule} points at in the validated request (`query.x`, `params.x`, `body.x`). */
function referenced(request: FastifyRequest, rule: ObjectRule): unknown {
  const [part, field] = rule.in.split(".") as ["query" | "params" | "body", string];
  const source = request[part] as Record<string, unknown> | undefined;
  return source?.[field];
}

/**
 * The device an endpoint's device rule (`device`, `deviceMac`, `command`) found, for handlers that act on it: its id,
 * MAC and household, already checked.
 * @throws Error when the grant names no device (the endpoint declares no device rule: a contract mistake).
 */
export function deviceGrant(grant: AccessGrant | null): DeviceGrant {
  if (!grant?.deviceId || !grant.mac || grant.familyId === null)
    throw new Error("the endpoint declares no device rule");
  return grant as DeviceGrant;
}

/**
 * The caller part of an endpoint's {@link Access} (runs before validation, so an anonymous caller learns nothing
 * about the parameters): a signed-in caller unless open, holding the permission when one is named (spec §6).
 * @throws AppError Unauthorized (401) when anonymous; Forbidden (403, error.forbidden) when the caller's
 *   grantedPolicies lack the permission.
 */
export function authorizeCaller(request: FastifyRequest, access: Access): void {
  if (access.caller === "open") return;
  const user = requireUser(request);
  if (access.caller !== "signedIn" && !holdsPermission(user, access.caller)) {
    throw new AppError(ErrorCode.Forbidden, "error.forbidden");
  }
}

/**
 * The object part of an endpoint's {@link Access} (after validation): resolves the rule's reference in the request
 * and runs {@link requireAccess} with the app's cached memberships; stores what it found in `request.accessGrant`.
 * An `optional` rule whose field is absent checks nothing.
 * @throws AppError as {@link requireAccess} (404 unknown or another user's object, 403 stranger or not admin).
 */
export async function authorizeObject(app: FastifyInstance, request: FastifyRequest, access: Access): Promise<void> {
  const rule = access.object;
  if (!rule) return;
  const value = referenced(request, rule);
  if (value === undefined || value === null || value === "") {
    if (rule.optional) return;
    throw new Error(`access rule ${rule.in} names a field the request lacks`);
  }
  const user = requireUser(request);
  request.accessGrant = await requireAccess(
    app.accessDb,
    user.id,
    { object: rule.object, role: rule.role, id: String(value) },
    app.memberships.read,
  );
}

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
  /** What the endpoint's object-level rule found (see {@link authorizeObject}); null when it declares none. */
  grant: AccessGrant | null;
  lang: Language;
  request: FastifyRequest;
  reply: FastifyReply;
}

type Handler<E extends Endpoint, U> = (ctx: RouteContext<E, U>) => Promise<z.input<E["result"]> | SerializedAnswer<E>>;

/**
 * A result already wrapped in the ABP envelope, checked against the endpoint's envelope schema and serialised, as
 * {@link serializeAnswer} makes it: a handler may return it instead of the result, and it is sent as it
 * is. For an answer many requests share (a household's device list, cached per process), so the check and the
 * serialisation run once per change instead of once per request. `E` ties it to its endpoint.
 */
export class SerializedAnswer<E extends Endpoint = Endpoint> {
  declare private readonly endpoint?: E;
  /** The envelope's JSON text, exactly as the route's serializer writes it. */
  readonly json: string;
  constructor(json: string) {
    this.json = json;
  }
}

/** The content type Fastify gives serialised JSON answers; {@link SerializedAnswer}s are sent with it too. */
const JSON_CONTENT_TYPE = "application/json; charset=utf-8";

/** Each endpoint's serializer of its 200 envelope, built once (zod schemas are not cheap to build). */
const envelopeSerializers = new WeakMap<Endpoint, (data: unknown) => string>();

/**
 * Wraps `result` in the ABP envelope (`{ success: true, result, … }`), checks it against `ep`'s envelope schema and
 * serialises it with the very serializer the route answers through (fastify-type-provider-zod's), so the text is the
 * one the route would have sent for `result`, and a cached answer is byte for byte a fresh one.
 * @throws ResponseSerializationError when `result` does not satisfy the endpoint's result schema (a server mistake).
 */
export function serializeAnswer<E extends Endpoint>(ep: E, result: z.input<E["result"]>): SerializedAnswer<E> {
  let serialize = envelopeSerializers.get(ep);
  if (!serialize) {
    serialize = serializerCompiler({
      schema: abpEnvelope(ep.result),
      method: ep.method,
      url: ep.path,
      httpStatus: "200",
    });
    envelopeSerializers.set(ep, serialize);
  }
  return new SerializedAnswer<E>(serialize(ok(result ?? null)));
}

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

/**
 * Publishes the domain event of a mutating call that succeeded (route-events.ts), before its answer is sent, so a
 * member's other screens hear of the change no later than the caller. A failure to make or publish it is logged and
 * never fails the call: the change itself is done.
 */
async function publishDomainEvent(
  app: FastifyInstance,
  route: NonNullable<ReturnType<typeof routeEventOf>>,
  request: FastifyRequest,
  result: unknown,
): Promise<void> {
  try {
    const event = await domainEventOf(route, {
      query: (request.query ?? {}) as Record<string, unknown>,
      body: request.body as Record<string, unknown> | undefined,
      params: request.params as Record<string, unknown> | undefined,
      userId: request.user?.id ?? null,
      grant: request.accessGrant,
      result,
      db: app.accessDb,
    });
    if (event) app.domainEventBus.publish({ type: "domain.event", event });
  } catch (error) {
    request.log.error({ err: error, endpoint: route.name }, "domain event not published");
  }
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
  handler: Handler<E, never>,
  options: EndpointOptions = {},
) {
  const route = routeEventOf(ep);
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
    onRequest: ep.access.caller === "open" ? undefined : async (request) => authorizeCaller(request, ep.access),
    // A route's own pre-handler (a rate limit) first, so probing objects counts against it; then the object rule.
    preHandler: async (request, reply) => {
      await options.preHandler?.(request, reply);
      await authorizeObject(app, request, ep.access);
    },
    handler: async (request, reply) => {
      const result = await handler({
        query: request.query as never,
        body: request.body as never,
        params: (ep.params ? request.params : undefined) as never,
        user: request.user as never,
        grant: request.accessGrant,
        lang: request.lang,
        request,
        reply,
      });
      if (route) await publishDomainEvent(app, route, request, result);
      if (result instanceof SerializedAnswer) {
        // A string with a JSON content type goes out as it is: no second check or serialisation.
        reply.type(JSON_CONTENT_TYPE);
        return result.json;
      }
      return ok(result ?? null);
    },
  });
}

/**
 * Registers an authenticated route from its contract entry (packages/contract endpoints.ts): method and path
 * verbatim (`{id}` segments become Fastify `:id` and are validated by the entry's `params`), query/body validated by
 * the entry's schemas, the handler's result wrapped in the ABP envelope and serialised through
 * `abpEnvelope(result)`. The entry's `access` is enforced here and nowhere else decides it: anonymous
 * callers get 401 with unAuthorizedRequest true, a caller without the named permission 403, and the object-level
 * rule runs after validation ({@link authorizeObject}); the handler gets what it found as `grant`.
 * `options.preHandler` runs between validation and the object-level rule.
 * @throws at registration when the entry is marked `open` (use {@link registerOpenEndpoint}) or its path names a
 *   parameter its `params` schema lacks.
 */
export function registerEndpoint<E extends Endpoint>(
  app: FastifyInstance,
  ep: E,
  handler: Handler<E, AuthUser>,
  options?: EndpointOptions,
): void {
  if (ep.access.caller === "open") throw new Error(`${ep.path} is open: register it with registerOpenEndpoint`);
  register(app, ep, handler as Handler<E, never>, options);
}

/** Like {@link registerEndpoint} for an `open` entry: the handler gets `user` null when the caller is anonymous. */
export function registerOpenEndpoint<E extends Endpoint>(
  app: FastifyInstance,
  ep: E,
  handler: Handler<E, AuthUser | null>,
): void {
  if (ep.access.caller !== "open") throw new Error(`${ep.path} is not open: register it with registerEndpoint`);
  register(app, ep, handler as Handler<E, never>);
}
