import { type IncomingMessage, STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";
import { HUB_METHODS, HUB_PATHS, type TDomainEvent } from "@aquapilot/contract";
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { WebSocketServer } from "ws";
import type { Bus, BusEvent } from "../bus.ts";
import { fail } from "../http/envelope.ts";
import { resolveLanguage, translate } from "../http/messages.ts";
import { type ConnectionLimits, HubClient, type HubName, Negotiations, newConnectionId } from "./connection.ts";
import { type ConnectionClaims, type ConnectionTokenClaims, ConnectionTokens } from "./connection-token.ts";
import { writeRecord } from "./framing.ts";
import { type FamilyLoad, MembershipCache } from "./membership-cache.ts";
import { HubCloseReason, handleClientRecord, invocationMessage } from "./protocol.ts";

export type { HubName } from "./connection.ts";

/** The seam between the hubs and the account system: who a bearer token belongs to, and their families. */
export interface HubAuth {
  /**
   * null when the token is invalid or the user's access has ended; `sessionId` is the token's session (sign-in), so
   * bus `session.ended` can close that session's connections alone
   */
  authenticate(accessToken: string): Promise<{ userId: string; sessionId?: string | null } | null>;
  /** ids of the families the user currently belongs to */
  familyIdsOf(userId: string): Promise<string[]>;
  /**
   * Optional: ids of the users who currently belong to the family. When present, a `family.members-changed` event
   * costs one query instead of one `familyIdsOf` per connected user.
   */
  memberIdsOf?(familyId: string): Promise<string[]>;
}

/** What the rest of the server uses to reach connected app sessions. */
export interface Hubs {
  /** send `method(...args)` to every connection of that user on the given hub */
  sendToUser(hub: "deviceChange" | "message", userId: string, method: string, args: unknown[]): number;
  /** live (not closing) WebSocket connections of both hubs in this process */
  connectionCount(): number;
  /**
   * Asks every live connection to reconnect (Close `HubCloseReason.Resync` with allowReconnect: true): after a gap in
   * the bus between processes (RedisBus onResume), so clients re-read what they may have missed and connect again
   * with their access checked and their families loaded anew. Answers how many were asked.
   */
  reconnectAll(): number;
  /**
   * sends every client a Close (allowReconnect: true), closes the sockets, stops timers and bus delivery; idempotent
   */
  close(): Promise<void>;
}

/** Timings and limits; the defaults are ASP.NET Core SignalR's. Tests shorten them. */
export interface HubOptions {
  /** The server sends a Ping when it has sent nothing for this long (ms). Default 15 000. */
  keepAliveIntervalMs?: number;
  /** A connection that receives nothing (not even a Ping) for this long is closed (ms). Default 30 000. */
  clientTimeoutMs?: number;
  /** A connection must complete the handshake within this time (ms). Default 15 000. */
  handshakeTimeoutMs?: number;
  /** A negotiated connection that does not open its WebSocket within this time is forgotten (ms). Default 15 000. */
  negotiateTimeoutMs?: number;
  /** Largest hub message accepted from a client, in characters. Default 32 768. */
  maxMessageChars?: number;
  /** A connection whose unsent output exceeds this many bytes is closed (it reconnects and reloads). Default 1 MiB. */
  maxBufferedBytes?: number;
  /**
   * Most connections one user may hold on both hubs together, counting pending negotiations and upgrades in
   * progress. Beyond it a negotiate or upgrade is answered 429 with Retry-After and nothing already held
   * is dropped, so clients reconnecting after a restart all get in as long as they fit. Default
   * {@link MAX_CONNECTIONS_PER_USER}.
   */
  maxConnectionsPerUser?: number;
}

/**
 * Default of {@link HubOptions.maxConnectionsPerUser}: 256. An app instance holds 2 (hub 1 and hub 2), so this is 128
 * open apps or tabs of one account — far above a household's phones, yet it bounds what one stolen or buggy token can
 * hold open, and an account driving a fleet of 200 clients (the reconnect suite) still fits.
 */
export const MAX_CONNECTIONS_PER_USER = 256;
/** Seconds a client refused for the per-user limit is told to wait (Retry-After). */
const LIMIT_RETRY_AFTER_SECONDS = 5;

const HUB_NAMES = Object.keys(HUB_PATHS) as HubName[];
const HUB_BY_PATH = new Map<string, HubName>(HUB_NAMES.map((hub) => [HUB_PATHS[hub], hub]));

/** Who a connection or negotiation belongs to: the user and the session (sign-in) of its access token. */
interface Caller {
  userId: string;
  sessionId: string | null;
}

function bearerToken(authorization: string | undefined): string | null {
  const match = authorization ? /^Bearer\s+(\S+)\s*$/i.exec(authorization) : null;
  return match ? match[1] : null;
}

/** Answers an upgrade request with a plain HTTP error, as the WebSockets transport spec asks (401, 404, 409…). */
function rejectUpgrade(socket: Duplex, status: number, message: string, headers: Record<string, string> = {}): void {
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
 * The hub server: negotiate routes, WebSocket upgrades, the per-user limit, revocations and bus delivery. It
 * composes the parts: one {@link HubClient} per connection and the pending {@link Negotiations} (connection.ts), the
 * signed connection tokens ({@link ConnectionTokens}, connection-token.ts), the hub protocol's answers (protocol.ts
 * `handleClientRecord`), and who belongs to which family ({@link MembershipCache}).
 */
class HubServer implements Hubs {
  private readonly wss: WebSocketServer;
  private readonly options: Required<HubOptions>;
  private readonly limits: ConnectionLimits;
  private readonly negotiations: Negotiations;
  private readonly tokens: ConnectionTokens;
  private readonly tokenClaims: ConnectionTokenClaims | null;
  /** Live connections by connection id (for the 409 of a second WebSocket on a negotiated id). */
  private readonly liveById = new Map<string, HubClient>();
  /**
   * Connection ids of negotiated tokens that attached (or began to) on this process → when their token expires
   * (ms): a token is used once (409 while its connection lives, 404 after). Entries leave once expired.
   */
  private readonly usedIds = new Map<string, number>();
  /**
   * `user:<id>` / `session:<id>` → when a user.revoked / session.ended arrived (ms), kept as long as a token issued
   * before it could still be presented (the negotiate timeout): such a token is refused (404) on every process, since
   * every process hears the bus event.
   */
  private readonly revokedTokensAt = new Map<string, number>();
  /** Connected users, their connections and their families. */
  private readonly membership: MembershipCache<HubClient>;
  /** userId → upgrades past their token check and not yet attached (they hold a slot of the per-user limit). */
  private readonly upgrading = new Map<string, number>();
  /**
   * Bumped on every user.revoked and session.ended; `revokedAt` (keys `user:<id>`, `session:<id>`) remembers them
   * only while upgrades or negotiations are in flight.
   */
  private revocationSeq = 0;
  private readonly revokedAt = new Map<string, number>();
  private authInFlight = 0;
  private closing: Promise<void> | null = null;
  private readonly unsubscribe: () => void;

  private readonly app: FastifyInstance;
  private readonly auth: HubAuth;
  private readonly log: FastifyBaseLogger;
  constructor(
    app: FastifyInstance,
    auth: HubAuth,
    bus: Bus,
    log: FastifyBaseLogger,
    options: HubOptions,
    tokens: { key?: Uint8Array; claims?: ConnectionTokenClaims },
  ) {
    this.app = app;
    this.auth = auth;
    this.log = log;
    this.options = {
      keepAliveIntervalMs: options.keepAliveIntervalMs ?? 15_000,
      clientTimeoutMs: options.clientTimeoutMs ?? 30_000,
      handshakeTimeoutMs: options.handshakeTimeoutMs ?? 15_000,
      negotiateTimeoutMs: options.negotiateTimeoutMs ?? 15_000,
      maxMessageChars: options.maxMessageChars ?? 32 * 1024,
      maxBufferedBytes: options.maxBufferedBytes ?? 1024 * 1024,
      maxConnectionsPerUser: options.maxConnectionsPerUser ?? MAX_CONNECTIONS_PER_USER,
    };
    this.limits = this.options;
    this.negotiations = new Negotiations(this.options.negotiateTimeoutMs);
    this.tokens = new ConnectionTokens(tokens.key);
    this.tokenClaims = tokens.claims ?? null;
    this.membership = new MembershipCache(auth, log, undefined, this.onFamiliesLost);
    // A frame may hold several records of up to maxMessageChars characters (≤ 4 UTF-8 bytes each); refuse bigger ones.
    const maxPayload = Math.max(64 * 1024, this.options.maxMessageChars * 4);
    this.wss = new WebSocketServer({ noServer: true, perMessageDeflate: false, clientTracking: false, maxPayload });
    this.unsubscribe = bus.subscribe(this.onBusEvent);
    app.server.on("upgrade", this.onUpgrade);
    app.register(async (instance) => {
      // Clients post an empty body with various content types (text/plain, application/json, none): read none.
      instance.removeAllContentTypeParsers();
      instance.addContentTypeParser("*", { parseAs: "buffer", bodyLimit: 64 * 1024 }, (_req, _body, done) =>
        done(null, undefined),
      );
      for (const hub of HUB_NAMES) {
        instance.post(`${HUB_PATHS[hub]}/negotiate`, (request, reply) => this.negotiate(hub, request, reply));
      }
    });
    app.addHook("preClose", async () => {
      await this.close();
    });
  }

  sendToUser(hub: HubName, userId: string, method: string, args: unknown[]): number {
    const connections = this.membership.connectionsOf(userId);
    if (connections.size === 0) return 0;
    const text = Buffer.from(writeRecord(invocationMessage(method, args)));
    let sent = 0;
    for (const client of connections) {
      if (client.hub === hub && client.handshakeDone && client.sendText(text)) sent++;
    }
    return sent;
  }

  connectionCount(): number {
    let open = 0;
    for (const client of this.liveById.values()) if (!client.closed) open++;
    return open;
  }

  reconnectAll(): number {
    let asked = 0;
    for (const client of [...this.liveById.values()]) {
      if (client.closed) continue;
      client.close(HubCloseReason.Resync, true);
      asked++;
    }
    return asked;
  }

  close(): Promise<void> {
    this.closing ??= this.closeAll();
    return this.closing;
  }

  private async closeAll(): Promise<void> {
    this.unsubscribe();
    this.app.server.off("upgrade", this.onUpgrade);
    this.negotiations.clear();
    this.usedIds.clear();
    this.revokedTokensAt.clear();
    this.upgrading.clear();
    this.membership.releaseGates();
    const clients = [...this.liveById.values()];
    // Allow reconnect: a restart or rolling deploy should not sign the app out of its live updates.
    for (const client of clients) client.close(HubCloseReason.ShuttingDown, true);
    await Promise.all(clients.map((client) => client.ended));
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }

  // ---- negotiate -------------------------------------------------------------------------------------------------

  private negotiate(hub: HubName, request: FastifyRequest, reply: FastifyReply): Promise<unknown> {
    return this.guarded((revoked) => this.negotiateGuarded(hub, request, reply, revoked));
  }

  private async negotiateGuarded(
    hub: HubName,
    request: FastifyRequest,
    reply: FastifyReply,
    revoked: (caller: Caller) => boolean,
  ): Promise<unknown> {
    const query = request.query as Record<string, string | undefined>;
    const token = bearerToken(request.headers.authorization) ?? query.access_token ?? null;
    const caller = await this.authenticate(token, revoked);
    if (!caller) return reply.code(401).header("WWW-Authenticate", "Bearer").send();
    if (this.closing) return reply.code(503).send({ error: "Server is shutting down." });
    const { userId, sessionId } = caller;
    if (this.slotsInUse(userId) >= this.options.maxConnectionsPerUser) {
      this.log.warn({ userId, limit: this.options.maxConnectionsPerUser }, "realtime: per-user connection limit");
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
    const connectionToken = this.tokens.sign({
      hub,
      userId,
      sessionId,
      connectionId,
      issuedAt,
      expiresAt: issuedAt + this.options.negotiateTimeoutMs,
    });
    // Its slot of the per-user limit, held here until it attaches here or times out.
    this.negotiations.add({ hub, userId, sessionId, connectionId });
    reply.header("Cache-Control", "no-cache");
    return reply.send({
      negotiateVersion,
      // Version 0 clients attach with the connectionId, so theirs is the token; version 1 clients get both.
      connectionId: negotiateVersion === 1 ? connectionId : connectionToken,
      ...(negotiateVersion === 1 ? { connectionToken } : {}),
      availableTransports: [{ transport: "WebSockets", transferFormats: ["Text"] }],
    });
  }

  /** Slots of the per-user limit in use: live connections, pending negotiations and upgrades in progress. */
  private slotsInUse(userId: string): number {
    return (
      this.membership.connectionCount(userId) + this.negotiations.countOf(userId) + (this.upgrading.get(userId) ?? 0)
    );
  }

  private addUpgrading(userId: string, delta: 1 | -1): void {
    const next = (this.upgrading.get(userId) ?? 0) + delta;
    if (next > 0) this.upgrading.set(userId, next);
    else this.upgrading.delete(userId);
  }

  /** Remembers that the token of `connectionId` has been used here, until it expires; forgets expired ones. */
  private markUsed(connectionId: string, expiresAt: number): void {
    const now = Date.now();
    for (const [id, expiry] of this.usedIds) {
      if (expiry > now) break;
      this.usedIds.delete(id);
    }
    this.usedIds.set(connectionId, expiresAt);
  }

  /**
   * Whether a user.revoked of the token's user or a session.ended of its session arrived at or after the token was
   * issued (the token's own negotiation may have been answered by another process).
   */
  private tokenRevoked(claims: ConnectionClaims): boolean {
    const user = this.revokedTokensAt.get(`user:${claims.userId}`);
    const session = claims.sessionId === null ? undefined : this.revokedTokensAt.get(`session:${claims.sessionId}`);
    return (user !== undefined && user >= claims.issuedAt) || (session !== undefined && session >= claims.issuedAt);
  }

  /** Records a revocation for {@link tokenRevoked}; forgets those older than any unexpired token. */
  private recordTokenRevocation(key: string): void {
    const now = Date.now();
    for (const [k, at] of this.revokedTokensAt) {
      if (at > now - this.options.negotiateTimeoutMs) break;
      this.revokedTokensAt.delete(k);
    }
    this.revokedTokensAt.delete(key);
    this.revokedTokensAt.set(key, now);
  }

  /**
   * Single use across processes (with Redis): true when this process is the first to attach the token's connection
   * id. When the store cannot answer, true with a warning: the upgrade has already checked the caller's access token
   * and that the token is theirs, so a second use could only give the same user a second connection.
   */
  private async claimAcrossProcesses(claims: ConnectionClaims): Promise<boolean> {
    if (!this.tokenClaims) return true;
    try {
      return await this.tokenClaims.claim(claims.connectionId, claims.expiresAt - Date.now());
    } catch (error) {
      this.log.warn({ err: (error as Error).message }, "realtime: connection token single-use store unavailable");
      return true;
    }
  }

  /**
   * Runs `body` (a negotiation or an upgrade, from its token check to its attach) while revocations are remembered:
   * `revoked(caller)` tells whether a `user.revoked` for that user or a `session.ended` for that session arrived since
   * it began, so a connection cannot slip in between a revocation and its own token check.
   */
  private async guarded<T>(body: (revoked: (caller: Caller) => boolean) => Promise<T>): Promise<T> {
    this.authInFlight++;
    const startSeq = this.revocationSeq;
    const revoked = (caller: Caller) =>
      (this.revokedAt.get(`user:${caller.userId}`) ?? 0) > startSeq ||
      (caller.sessionId !== null && (this.revokedAt.get(`session:${caller.sessionId}`) ?? 0) > startSeq);
    try {
      return await body(revoked);
    } finally {
      this.authInFlight--;
      if (this.authInFlight === 0) this.revokedAt.clear();
    }
  }

  /** Resolves the token to its user and session; null when invalid or revoked meanwhile (see {@link guarded}). */
  private async authenticate(token: string | null, revoked: (caller: Caller) => boolean): Promise<Caller | null> {
    if (!token) return null;
    const user = await this.auth.authenticate(token);
    if (!user) return null;
    const caller = { userId: user.userId, sessionId: user.sessionId ?? null };
    return revoked(caller) ? null : caller;
  }

  // ---- WebSockets transport --------------------------------------------------------------------------------------

  private readonly onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer): void => {
    const url = new URL(request.url ?? "/", "http://localhost");
    const hub = HUB_BY_PATH.get(url.pathname);
    if (!hub) return; // not ours: another upgrade listener may take it
    const onError = (error: Error) => this.log.debug({ err: error }, "realtime: upgrade socket error");
    socket.on("error", onError);
    this.guarded((revoked) => this.acceptUpgrade(hub, url, request, socket, head, revoked))
      .catch((error: unknown) => {
        this.log.error({ err: error }, "realtime: upgrade failed");
        rejectUpgrade(socket, 500, "Internal server error");
      })
      .finally(() => socket.off("error", onError));
  };

  private async acceptUpgrade(
    hub: HubName,
    url: URL,
    request: IncomingMessage,
    socket: Duplex,
    head: Buffer,
    revoked: (caller: Caller) => boolean,
  ): Promise<void> {
    if (this.closing) return rejectUpgrade(socket, 503, "Server is shutting down.");
    // Node clients send the bearer header; browsers cannot set headers on a WebSocket and send access_token.
    const token = bearerToken(request.headers.authorization) ?? url.searchParams.get("access_token");
    const caller = await this.authenticate(token, revoked);
    if (!caller) return rejectUpgrade(socket, 401, "Unauthorized", { "WWW-Authenticate": "Bearer" });
    const { userId, sessionId } = caller;

    const id = url.searchParams.get("id");
    let connectionId: string;
    let connectionToken: string;
    let claims: ConnectionClaims | null = null;
    if (id) {
      claims = this.tokens.verify(id);
      if (!claims || claims.hub !== hub) return rejectUpgrade(socket, 404, "No Connection with that ID");
      if (claims.userId !== userId) return rejectUpgrade(socket, 403, "Forbidden");
      if (this.tokenRevoked(claims)) return rejectUpgrade(socket, 404, "No Connection with that ID");
      if (this.usedIds.has(claims.connectionId)) {
        const live = this.liveById.get(claims.connectionId);
        if (live && !live.closed) return rejectUpgrade(socket, 409, "Connection already has a WebSocket.");
        return rejectUpgrade(socket, 404, "No Connection with that ID");
      }
      // Negotiated here: its slot passes to the upgrade. Negotiated on another process: it needs a slot here.
      if (
        !this.negotiations.get(claims.connectionId) &&
        this.slotsInUse(userId) >= this.options.maxConnectionsPerUser
      ) {
        return rejectUpgrade(socket, 429, "Too many connections for this user.", {
          "Retry-After": String(LIMIT_RETRY_AFTER_SECONDS),
        });
      }
      this.negotiations.drop(claims.connectionId);
      this.markUsed(claims.connectionId, claims.expiresAt);
      connectionId = claims.connectionId;
      connectionToken = id;
    } else {
      // skipNegotiation: the WebSocket is the whole connection, and takes a slot here.
      if (this.slotsInUse(userId) >= this.options.maxConnectionsPerUser) {
        return rejectUpgrade(socket, 429, "Too many connections for this user.", {
          "Retry-After": String(LIMIT_RETRY_AFTER_SECONDS),
        });
      }
      connectionId = newConnectionId();
      connectionToken = connectionId;
    }

    this.addUpgrading(userId, 1);
    try {
      if (claims && !(await this.claimAcrossProcesses(claims))) {
        return rejectUpgrade(socket, 409, "Connection already has a WebSocket.");
      }
      const loaded = await this.membership.loadFamilies(userId);
      if (this.closing) return rejectUpgrade(socket, 503, "Server is shutting down.");
      if (socket.destroyed) return;
      // A session.ended or user.revoked during the family load: the token check above is stale.
      if (revoked(caller)) {
        return rejectUpgrade(socket, 401, "Unauthorized", { "WWW-Authenticate": "Bearer" });
      }
      this.wss.handleUpgrade(request, socket, head, (ws) => {
        const client = new HubClient(connectionId, connectionToken, hub, userId, sessionId, ws, this.limits);
        this.attach(client, loaded);
      });
    } finally {
      this.addUpgrading(userId, -1);
    }
  }

  private attach(client: HubClient, loaded: FamilyLoad): void {
    const { ws } = client;
    this.membership.add(client.userId, client, loaded);
    this.liveById.set(client.connectionId, client);
    this.log.debug(
      { hub: client.hub, connectionId: client.connectionId, userId: client.userId },
      "realtime: connected",
    );

    ws.on("message", (data) => client.receive(data, (record) => handleClientRecord(client, record)));
    ws.on("error", (error) => this.log.debug({ err: error, connectionId: client.connectionId }, "realtime: ws error"));
    ws.on("close", () => {
      client.onEnded();
      this.detach(client);
    });
  }

  private detach(client: HubClient): void {
    if (this.liveById.get(client.connectionId) === client) this.liveById.delete(client.connectionId);
    if (!this.membership.remove(client.userId, client)) return;
    this.log.debug({ hub: client.hub, connectionId: client.connectionId }, "realtime: disconnected");
  }

  // ---- bus -------------------------------------------------------------------------------------------------------

  private readonly onBusEvent = (event: BusEvent): void => {
    try {
      switch (event.type) {
        case "device.changed":
          this.deliverDeviceChange(event);
          return;
        case "user.revoked":
          this.revokeUser(event.userId);
          return;
        case "session.ended":
          this.revokeSession(event.userId, event.sessionId);
          return;
        case "domain.event":
          this.deliverDomainEvent(event.event);
          return;
        case "family.members-changed":
          // Until the family's membership is known again, its device events wait in order (MembershipCache).
          void this.membership.membersChanged(event.familyId);
          return;
      }
    } catch (error) {
      // A hub problem must never throw into the publisher (the device gateway).
      this.log.error({ err: error, event: event.type }, "realtime: bus event failed");
    }
  };

  private deliverDeviceChange(event: Extract<BusEvent, { type: "device.changed" }>): void {
    const familyId = event.familyId;
    if (familyId === null) return;
    this.membership.whenKnown(familyId, () => this.sendDeviceChange(familyId, event));
  }

  private sendDeviceChange(familyId: string, event: Extract<BusEvent, { type: "device.changed" }>): void {
    const members = this.membership.membersOf(familyId);
    if (members.size === 0) return;
    // Spec §7: one argument, the message as a JSON string. Serialised and UTF-8 encoded once for every receiver.
    const text = Buffer.from(writeRecord(invocationMessage(HUB_METHODS.deviceChange, [JSON.stringify(event.message)])));
    for (const userId of members) {
      for (const client of this.membership.connectionsOf(userId)) {
        if (client.hub === "deviceChange" && client.handshakeDone) client.sendText(text);
      }
    }
  }

  /**
   * A domain event (contract ZDomainEvent) → `DomainEvent(event)` on every hub-1 connection of its user and of every
   * member of its household, each connection once. The user hears it at once: a household deleted or left is no
   * longer theirs once its membership reloads, which closes their hub-1 connections (HouseholdAccessEnded), and the
   * event must come before that close. The members hear it once the household's membership is known again (as device
   * changes wait), so a member who just joined hears the event of their joining.
   */
  private deliverDomainEvent(event: TDomainEvent): void {
    const text = Buffer.from(writeRecord(invocationMessage(HUB_METHODS.domainEvent, [event])));
    if (event.userId !== null) this.sendToHub1(event.userId, text);
    const familyId = event.familyId;
    if (familyId === null) return;
    this.membership.whenKnown(familyId, () => {
      for (const userId of this.membership.membersOf(familyId)) {
        if (userId !== event.userId) this.sendToHub1(userId, text);
      }
    });
  }

  private sendToHub1(userId: string, text: Buffer): void {
    for (const client of this.membership.connectionsOf(userId)) {
      if (client.hub === "deviceChange" && client.handshakeDone) client.sendText(text);
    }
  }

  /**
   * A connected user no longer belongs to `familyIds` (removed, left, household deleted; every process sees it in
   * its own membership reload after `family.members-changed`): their hub-1 connections close with
   * `HouseholdAccessEnded` and allowReconnect: true, so the app notices at once and its reconnect carries the
   * user's remaining families. Hub 2 stays: it carries the user's own messages (the removal notice).
   */
  private readonly onFamiliesLost = (userId: string, familyIds: string[]): void => {
    try {
      let closed = 0;
      for (const client of [...this.membership.connectionsOf(userId)]) {
        if (client.hub !== "deviceChange" || client.closed) continue;
        client.close(HubCloseReason.HouseholdAccessEnded, true);
        closed++;
      }
      if (closed > 0) this.log.debug({ userId, familyIds, closed }, "realtime: household access ended");
    } catch (error) {
      // Runs inside the membership cache's reload: a failed close must not stop the membership from being applied.
      this.log.error({ err: error, userId }, "realtime: closing a former member's connections failed");
    }
  };

  private revokeUser(userId: string): void {
    this.revocationSeq++;
    if (this.authInFlight > 0) this.revokedAt.set(`user:${userId}`, this.revocationSeq);
    this.recordTokenRevocation(`user:${userId}`);
    for (const id of this.negotiations.idsOf(userId)) this.negotiations.drop(id);
    for (const client of [...this.membership.connectionsOf(userId)]) client.close(HubCloseReason.AccessEnded, false);
  }

  /**
   * session.ended (logout, replayed refresh token): closes that session's connections, not the user's
   * others.
   */
  private revokeSession(userId: string, sessionId: string): void {
    this.revocationSeq++;
    if (this.authInFlight > 0) this.revokedAt.set(`session:${sessionId}`, this.revocationSeq);
    this.recordTokenRevocation(`session:${sessionId}`);
    for (const id of this.negotiations.idsOf(userId)) {
      if (this.negotiations.get(id)?.sessionId === sessionId) this.negotiations.drop(id);
    }
    for (const client of [...this.membership.connectionsOf(userId)]) {
      if (client.sessionId === sessionId) client.close(HubCloseReason.SessionEnded, false);
    }
  }
}

/**
 * Serves the two real-time hubs of spec §7 with the ASP.NET Core SignalR protocol, so the official
 * `@microsoft/signalr` client connects unchanged:
 * - `POST {hubPath}/negotiate?negotiateVersion=1` (bearer token in `Authorization`, or `access_token`; 401 otherwise)
 *   answers `{negotiateVersion, connectionId, connectionToken, availableTransports: [WebSockets/Text]}`;
 * - the WebSocket upgrade on `{hubPath}?id={connectionToken}` (or without `id` for `skipNegotiation`), token in
 *   `Authorization` or `access_token` (401 otherwise; 403 another user's id; 404 unknown, expired or revoked id; 409
 *   id already attached). The connection token (the connectionId of version 0) is signed and stateless
 *   (connection-token.ts, so no sticky sessions are needed): hub, user, session, connection id and expiry
 *   (`negotiateTimeoutMs`), HMAC-SHA256 with `tokenKey`, so a negotiate answered by one process attaches on another
 *   that shares the key. It is used once per process (409 while its connection lives) and, with `tokenClaims`, once
 *   in the cluster;
 * - the JSON hub protocol: handshake, server→client invocations, pings every `keepAliveIntervalMs`, close after
 *   `clientTimeoutMs` of silence, Close with `allowReconnect: false` when the user's access ends.
 *
 * Bus delivery: `device.changed` for family F → `DeviceChangContentTypeMessage(JSON.stringify(message))` on every hub-1
 * connection of F's members (membership cached per connected user, refreshed on `family.members-changed`);
 * `domain.event` → `DomainEvent(event)` on every hub-1 connection of the members of its household and of its user;
 * a member who no longer belongs to F (removed, left, F deleted) has their hub-1 connections closed with
 * `HouseholdAccessEnded`, allowReconnect: true (the user's other families come back); `user.revoked` closes that user's
 * connections on both hubs and `session.ended` that session's, allowReconnect: false.
 *
 * Call it before `app.listen()` / `app.ready()`: it registers the negotiate routes and a `preClose` hook, and
 * listens for `upgrade` on `app.server` (other upgrade paths are left alone).
 */
export function registerHubs(
  app: FastifyInstance,
  deps: {
    bus: Bus;
    auth: HubAuth;
    logger?: FastifyBaseLogger;
    options?: HubOptions;
    /**
     * HMAC key of the connection tokens, the same in every process of a cluster (system.ts derives it from the JWT
     * signing key: `deriveConnectionTokenKey`); default 32 random bytes (one process alone).
     */
    tokenKey?: Uint8Array;
    /** Single use of tokens across processes (`redisConnectionTokenClaims` with REDIS_URL); default none. */
    tokenClaims?: ConnectionTokenClaims;
  },
): Hubs {
  return new HubServer(app, deps.auth, deps.bus, deps.logger ?? app.log, deps.options ?? {}, {
    key: deps.tokenKey,
    claims: deps.tokenClaims,
  });
}
