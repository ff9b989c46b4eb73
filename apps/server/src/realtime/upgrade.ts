/**
 * The WebSockets transport's upgrade (aspnetcore src/SignalR/docs/specs/TransportProtocols.md, "WebSockets"): the
 * `upgrade` requests on a hub path, checked (access token, connection token, single use, per-user limit), refused
 * with a plain HTTP status, or accepted into a {@link HubClient}.
 */
import { type IncomingMessage, STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";
import { HUB_PATHS } from "@aquapilot/contract";
import type { FastifyBaseLogger } from "fastify";
import type { WebSocketServer } from "ws";
import { authenticateCaller, bearerToken, type RevokedSince } from "./caller.ts";
import { type ConnectionLimits, HubClient, type HubName, type Negotiations, newConnectionId } from "./connection.ts";
import type { ConnectionSlots } from "./connection-slots.ts";
import type { ConnectionClaims, ConnectionTokens } from "./connection-token.ts";
import type { HubAuth } from "./hub-auth.ts";
import { LIMIT_RETRY_AFTER_SECONDS } from "./hub-options.ts";
import type { FamilyLoad, MembershipCache } from "./membership-cache.ts";
import type { Revocations } from "./revocations.ts";
import type { TokenUses } from "./token-use.ts";

const HUB_BY_PATH = new Map<string, HubName>((Object.keys(HUB_PATHS) as HubName[]).map((hub) => [HUB_PATHS[hub], hub]));

/** What the upgrade listener needs from the hub server that installs it. */
export interface UpgradeContext {
  readonly auth: Pick<HubAuth, "authenticate">;
  readonly revocations: Pick<Revocations, "guarded" | "tokenRevoked">;
  readonly slots: Pick<ConnectionSlots, "isFull" | "duringUpgrade">;
  readonly negotiations: Pick<Negotiations, "get" | "drop">;
  readonly tokens: Pick<ConnectionTokens, "verify">;
  readonly tokenUses: Pick<TokenUses, "has" | "markUsed" | "claimAcrossProcesses">;
  readonly membership: Pick<MembershipCache<HubClient>, "loadFamilies">;
  /** The WebSocket server (`noServer`) that completes accepted upgrades. */
  readonly wss: Pick<WebSocketServer, "handleUpgrade">;
  /** Timings and limits of each new connection. */
  readonly limits: ConnectionLimits;
  readonly log: Pick<FastifyBaseLogger, "debug" | "error">;
  /** Whether the hub server is shutting down (upgrades are answered 503). */
  isClosing(): boolean;
  /** The live connection of `connectionId` on this process, if any (for the 409 of a second WebSocket). */
  liveConnection(connectionId: string): HubClient | undefined;
  /** Takes an accepted connection in, with the families loaded for its user. */
  attach(client: HubClient, loaded: FamilyLoad): void;
}

/**
 * The `upgrade` listener for `app.server`: a request on a hub path (HUB_PATHS) is checked under
 * `ctx.revocations.guarded` and accepted or refused (see {@link acceptUpgrade}); any other path is left alone, for
 * another upgrade listener to take. An unexpected error is logged and answered 500.
 */
export function upgradeListener(ctx: UpgradeContext): (request: IncomingMessage, socket: Duplex, head: Buffer) => void {
  return (request, socket, head) => {
    const url = new URL(request.url ?? "/", "http://localhost");
    const hub = HUB_BY_PATH.get(url.pathname);
    if (!hub) return; // not ours: another upgrade listener may take it
    const onError = (error: Error) => ctx.log.debug({ err: error }, "realtime: upgrade socket error");
    socket.on("error", onError);
    ctx.revocations
      .guarded((revoked) => acceptUpgrade(ctx, hub, url, request, socket, head, revoked))
      .catch((error: unknown) => {
        ctx.log.error({ err: error }, "realtime: upgrade failed");
        rejectUpgrade(socket, 500, "Internal server error");
      })
      .finally(() => socket.off("error", onError));
  };
}

/**
 * Answers an upgrade request with a plain HTTP error and ends the socket, as the WebSockets transport spec asks (401,
 * 403, 404, 409, 429, 503…): a text/plain body `message`, `Connection: close`, and `headers` added. A socket that can
 * no longer be written is destroyed instead.
 */
export function rejectUpgrade(
  socket: Duplex,
  status: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const body = message;
  const lines = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ""}`,
    "Connection: close",
    "Content-Type: text/plain; charset=utf-8",
    `Content-Length: ${Buffer.byteLength(body)}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  socket.once("finish", () => socket.destroy());
  socket.end(`${lines.join("\r\n")}\r\n\r\n${body}`);
}

/**
 * Checks one WebSocket upgrade on `hub` and accepts it or refuses it (spec §7 hubs):
 * - the access token (`Authorization: Bearer` from Node clients, `access_token` from browsers, which cannot set
 *   headers on a WebSocket): 401 without a valid one, or when `revoked` says its access ended meanwhile;
 * - with `?id=` (a negotiated connection token): 404 when it is not a valid token of this hub or was revoked, 403 when
 *   it is another user's, 409 while its connection lives (404 after) when it was used already, here or (with a
 *   cluster store) on another process;
 * - without `id` (`skipNegotiation`): the WebSocket is the whole connection, with a fresh connection id;
 * - 429 with `Retry-After: 5` when the user holds every slot of the limit (a negotiation answered here passes its
 *   slot on instead); 503 while the server shuts down.
 * Then the user's families are loaded (holding a slot meanwhile) and the connection is attached.
 */
async function acceptUpgrade(
  ctx: UpgradeContext,
  hub: HubName,
  url: URL,
  request: IncomingMessage,
  socket: Duplex,
  head: Buffer,
  revoked: RevokedSince,
): Promise<void> {
  if (ctx.isClosing()) return rejectUpgrade(socket, 503, "Server is shutting down.");
  // Node clients send the bearer header; browsers cannot set headers on a WebSocket and send access_token.
  const token = bearerToken(request.headers.authorization) ?? url.searchParams.get("access_token");
  const caller = await authenticateCaller(ctx.auth, token, revoked);
  if (!caller) return rejectUpgrade(socket, 401, "Unauthorized", { "WWW-Authenticate": "Bearer" });
  const { userId, sessionId } = caller;

  const id = url.searchParams.get("id");
  let connectionId: string;
  let connectionToken: string;
  let claims: ConnectionClaims | null = null;
  if (id) {
    claims = ctx.tokens.verify(id);
    if (!claims || claims.hub !== hub) return rejectUpgrade(socket, 404, "No Connection with that ID");
    if (claims.userId !== userId) return rejectUpgrade(socket, 403, "Forbidden");
    if (ctx.revocations.tokenRevoked(claims)) return rejectUpgrade(socket, 404, "No Connection with that ID");
    if (ctx.tokenUses.has(claims.connectionId)) {
      const live = ctx.liveConnection(claims.connectionId);
      if (live && !live.closed) return rejectUpgrade(socket, 409, "Connection already has a WebSocket.");
      return rejectUpgrade(socket, 404, "No Connection with that ID");
    }
    // Negotiated here: its slot passes to the upgrade. Negotiated on another process: it needs a slot here.
    if (!ctx.negotiations.get(claims.connectionId) && ctx.slots.isFull(userId)) {
      return rejectUpgrade(socket, 429, "Too many connections for this user.", {
        "Retry-After": String(LIMIT_RETRY_AFTER_SECONDS),
      });
    }
    ctx.negotiations.drop(claims.connectionId);
    ctx.tokenUses.markUsed(claims.connectionId, claims.expiresAt);
    connectionId = claims.connectionId;
    connectionToken = id;
  } else {
    // skipNegotiation: the WebSocket is the whole connection, and takes a slot here.
    if (ctx.slots.isFull(userId)) {
      return rejectUpgrade(socket, 429, "Too many connections for this user.", {
        "Retry-After": String(LIMIT_RETRY_AFTER_SECONDS),
      });
    }
    connectionId = newConnectionId();
    connectionToken = connectionId;
  }

  const claimed = claims;
  await ctx.slots.duringUpgrade(userId, async () => {
    if (claimed && !(await ctx.tokenUses.claimAcrossProcesses(claimed))) {
      return rejectUpgrade(socket, 409, "Connection already has a WebSocket.");
    }
    const loaded = await ctx.membership.loadFamilies(userId);
    if (ctx.isClosing()) return rejectUpgrade(socket, 503, "Server is shutting down.");
    if (socket.destroyed) return;
    // A session.ended or user.revoked during the family load: the token check above is stale.
    if (revoked(caller)) {
      return rejectUpgrade(socket, 401, "Unauthorized", { "WWW-Authenticate": "Bearer" });
    }
    ctx.wss.handleUpgrade(request, socket, head, (ws) => {
      const client = new HubClient(connectionId, connectionToken, hub, userId, sessionId, ws, ctx.limits);
      ctx.attach(client, loaded);
    });
  });
}
