/**
 * The negotiate step of the SignalR transport protocol (aspnetcore src/SignalR/docs/specs/TransportProtocols.md,
 * "negotiate"): `POST {hubPath}/negotiate` answers the connection id, the signed connection token and the one
 * transport offered (WebSockets, text).
 */
import { HUB_PATHS } from "@aquapilot/contract";
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { fail } from "../http/envelope.ts";
import { resolveLanguage, translate } from "../http/messages.ts";
import { authenticateCaller, bearerToken, type RevokedSince } from "./caller.ts";
import { type HubName, type Negotiations, newConnectionId } from "./connection.ts";
import type { ConnectionSlots } from "./connection-slots.ts";
import type { ConnectionTokens } from "./connection-token.ts";
import type { HubAuth } from "./hub-auth.ts";
import { LIMIT_RETRY_AFTER_SECONDS } from "./hub-options.ts";
import type { Revocations } from "./revocations.ts";

/** What the negotiate routes need from the hub server that registers them. */
export interface NegotiateContext {
  readonly auth: Pick<HubAuth, "authenticate">;
  readonly revocations: Pick<Revocations, "guarded">;
  readonly slots: Pick<ConnectionSlots, "isFull" | "limit">;
  readonly negotiations: Pick<Negotiations, "add">;
  readonly tokens: Pick<ConnectionTokens, "sign">;
  /** How long a negotiated token may wait for its WebSocket (ms): HubOptions.negotiateTimeoutMs. */
  readonly negotiateTimeoutMs: number;
  readonly log: Pick<FastifyBaseLogger, "warn">;
  /** Whether the hub server is shutting down (new negotiations are answered 503). */
  isClosing(): boolean;
}

/**
 * Registers `POST {HUB_PATHS[hub]}/negotiate` for both hubs on `app` (spec §7 hubs), in a scope of their own that
 * reads no body: clients post an empty one with various content types (text/plain, application/json, none), at most
 * 64 KiB. Each negotiation runs under `ctx.revocations.guarded`; see {@link answerNegotiate}.
 */
export function registerNegotiateRoutes(app: FastifyInstance, ctx: NegotiateContext): void {
  app.register(async (instance) => {
    instance.removeAllContentTypeParsers();
    instance.addContentTypeParser("*", { parseAs: "buffer", bodyLimit: 64 * 1024 }, (_req, _body, done) =>
      done(null, undefined),
    );
    for (const hub of Object.keys(HUB_PATHS) as HubName[]) {
      instance.post(`${HUB_PATHS[hub]}/negotiate`, (request, reply) =>
        ctx.revocations.guarded((revoked) => answerNegotiate(ctx, hub, request, reply, revoked)),
      );
    }
  });
}

/**
 * Answers one negotiate of `hub`. The access token comes as `Authorization: Bearer` or `access_token`.
 * - 401 with `WWW-Authenticate: Bearer` without a valid token (or one revoked meanwhile: `revoked`);
 * - 503 while the server shuts down;
 * - 429 in the ABP failure envelope (`TooManyRequests`, `error.tooManyRequests` in the caller's language) with
 *   `Retry-After: 5` when the user holds every slot of the per-user limit;
 * - else 200 `{negotiateVersion, connectionId, connectionToken?, availableTransports: [{transport: "WebSockets",
 *   transferFormats: ["Text"]}]}` with `Cache-Control: no-cache`: `negotiateVersion` 1 when the query asks for 1 or
 *   more (then both ids), else 0 (then `connectionId` is the token). The token is signed and stateless
 *   (connection-token.ts, valid `negotiateTimeoutMs`), and the negotiation holds a slot of the limit until it
 *   attaches here or times out.
 */
export async function answerNegotiate(
  ctx: NegotiateContext,
  hub: HubName,
  request: FastifyRequest,
  reply: FastifyReply,
  revoked: RevokedSince,
): Promise<unknown> {
  const query = request.query as Record<string, string | undefined>;
  const token = bearerToken(request.headers.authorization) ?? query.access_token ?? null;
  const caller = await authenticateCaller(ctx.auth, token, revoked);
  if (!caller) return reply.code(401).header("WWW-Authenticate", "Bearer").send();
  if (ctx.isClosing()) return reply.code(503).send({ error: "Server is shutting down." });
  const { userId, sessionId } = caller;
  if (ctx.slots.isFull(userId)) {
    ctx.log.warn({ userId, limit: ctx.slots.limit }, "realtime: per-user connection limit");
    const lang = request.lang ?? resolveLanguage(request.headers["accept-language"]);
    return reply
      .code(429)
      .header("Retry-After", String(LIMIT_RETRY_AFTER_SECONDS))
      .send(
        fail({
          code: "TooManyRequests",
          message: translate(lang, "error.tooManyRequests"),
          details: null,
          validationErrors: null,
        }),
      );
  }
  const requested = Number.parseInt(query.negotiateVersion ?? "0", 10);
  const negotiateVersion = Number.isFinite(requested) && requested >= 1 ? 1 : 0;
  const connectionId = newConnectionId();
  const issuedAt = Date.now();
  // Signed and stateless: the WebSocket may open on any process that shares the key.
  const connectionToken = ctx.tokens.sign({
    hub,
    userId,
    sessionId,
    connectionId,
    issuedAt,
    expiresAt: issuedAt + ctx.negotiateTimeoutMs,
  });
  // Its slot of the per-user limit, held here until it attaches here or times out.
  ctx.negotiations.add({ hub, userId, sessionId, connectionId });
  reply.header("Cache-Control", "no-cache");
  return reply.send({
    negotiateVersion,
    // Version 0 clients attach with the connectionId, so theirs is the token; version 1 clients get both.
    connectionId: negotiateVersion === 1 ? connectionId : connectionToken,
    ...(negotiateVersion === 1 ? { connectionToken } : {}),
    availableTransports: [{ transport: "WebSockets", transferFormats: ["Text"] }],
  });
}
