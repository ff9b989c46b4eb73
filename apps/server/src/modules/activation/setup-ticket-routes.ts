import { endpoints } from "@aquapilot/contract";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { CORE_PLUGIN, type CoreServices, coreServices } from "../../core-services.ts";
import { AppError, ErrorCode } from "../../http/errors.ts";
import { clientAddressKey, createLimiter, type Limiter } from "../../http/rate-limit.ts";
import { registerEndpoint } from "../../http/route.ts";
import "./messages.ts";
import { createSetupTicket, readSetupTicket } from "./service.ts";

/**
 * Rate limits of the setup-ticket calls (docs/device-protocol.md §13.4 "Setup tickets", §13.7), requests per minute.
 * Creating is limited like binding (per signed-in user and per client address): an app creates one ticket per setup
 * attempt. Reading is limited per user: the app polls about once a second while a module activates, and each answer
 * for an activated ticket issues a pairing code, so the limit also bounds the codes one user can have issued.
 * Over a limit → 429 TooManyRequests (ABP envelope) with `retry-after` seconds.
 */
export const SETUP_TICKET_LIMITS = {
  createPerUser: 10,
  createPerAddress: 30,
  readPerUser: 120,
  windowMs: 60_000,
} as const;

/** A pre-handler that answers 429 TooManyRequests with `retry-after` when any of `limiters` is over its limit. */
function limitedBy(...limiters: Limiter[]) {
  return async (request: Parameters<Limiter>[0], reply: { header(name: string, value: string): unknown }) => {
    for (const limiter of limiters) {
      const outcome = await limiter(request);
      if (outcome.limited) {
        reply.header("retry-after", String(outcome.retryAfterSeconds));
        throw new AppError(ErrorCode.TooManyRequests, "error.tooManyRequests");
      }
    }
  };
}

/**
 * App routes of setup tickets (docs/device-protocol.md §13.4 "Setup tickets"): `POST
 * /api/run-lucky/device/app/setup-ticket` (the household's administrator; {@link SETUP_TICKET_LIMITS}) and `GET
 * /api/run-lucky/device/app/setup-ticket/{ticket}` (the ticket's creator only; anyone else gets the unknown ticket's
 * 404). Both in the ABP envelope.
 */
function setupTicketRoutes(app: FastifyInstance, ctx: CoreServices): void {
  const byUser = (request: Parameters<Limiter>[0]) => (request.user ? request.user.id : null);
  const minute = SETUP_TICKET_LIMITS.windowMs;
  const createByUser = createLimiter(app, {
    name: "setup-ticket-create-user",
    max: SETUP_TICKET_LIMITS.createPerUser,
    windowMs: minute,
    key: byUser,
  });
  const createByAddress = createLimiter(app, {
    name: "setup-ticket-create-address",
    max: SETUP_TICKET_LIMITS.createPerAddress,
    windowMs: minute,
    key: clientAddressKey,
  });
  const readByUser = createLimiter(app, {
    name: "setup-ticket-read-user",
    max: SETUP_TICKET_LIMITS.readPerUser,
    windowMs: minute,
    key: byUser,
  });
  registerEndpoint(
    app,
    endpoints.createSetupTicket,
    async ({ user, body }) => createSetupTicket(ctx, user.id, body.familyId),
    {
      preHandler: limitedBy(createByUser, createByAddress),
    },
  );
  registerEndpoint(
    app,
    endpoints.getSetupTicket,
    async ({ user, params }) => readSetupTicket(ctx, user.id, params.ticket),
    {
      preHandler: limitedBy(readByUser),
    },
  );
}

/**
 * Setup tickets as the plugin "module-setup-tickets": {@link setupTicketRoutes} on the core's decorations. Part of the
 * activation module (activation step two takes the tickets), registered with the app's API modules.
 */
export const setupTicketsModule = fp(async (app) => setupTicketRoutes(app, coreServices(app)), {
  name: "module-setup-tickets",
  fastify: "5.x",
  dependencies: [CORE_PLUGIN],
  encapsulate: true,
});
