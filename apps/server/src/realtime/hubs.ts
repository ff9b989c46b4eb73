import { randomBytes } from "node:crypto";
import { type IncomingMessage, STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";
import { HUB_METHODS, HUB_PATHS } from "@aquapilot/contract";
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { type RawData, type WebSocket, WebSocketServer } from "ws";
import type { Bus, BusEvent } from "../bus.ts";
import { fail } from "../http/envelope.ts";
import { resolveLanguage, translate } from "../http/messages.ts";
import { RecordReader, writeRecord } from "./framing.ts";
import {
  closeMessage,
  completionError,
  invocationMessage,
  MessageType,
  PING_MESSAGE,
  parseClientMessage,
  parseHandshakeRequest,
} from "./protocol.ts";

/** The two hubs of spec §7: `deviceChange` at HUB_PATHS.deviceChange, `message` at HUB_PATHS.message. */
export type HubName = keyof typeof HUB_PATHS;

/** The seam between the hubs and the account system: who a bearer token belongs to, and their families. */
export interface HubAuth {
  /**
   * null when the token is invalid or the user's access has ended; `sessionId` is the token's session (sign-in), so
   * bus `session.ended` can close that session's connections alone (issue 11)
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
  /** sends every client a Close (allowReconnect: true), closes the sockets, stops timers and bus delivery; idempotent */
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
   * progress (issue 11). Beyond it a negotiate or upgrade is answered 429 with Retry-After and nothing already held
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
/** How long a family's events may wait for its membership reload before they are delivered anyway (ms). */
const MEMBERSHIP_RELOAD_LIMIT_MS = 10_000;
/** How long a closing socket may take to finish the WebSocket close handshake before it is cut (ms). */
const CLOSE_GRACE_MS = 1_000;

interface Negotiation {
  hub: HubName;
  userId: string;
  sessionId: string | null;
  connectionId: string;
  timer: NodeJS.Timeout;
}

/** Who a connection or negotiation belongs to: the user and the session (sign-in) of its access token. */
interface Caller {
  userId: string;
  sessionId: string | null;
}

interface UserEntry {
  families: Set<string>;
  connections: Set<HubClient>;
  /** Sequence number of the family load that produced `families` (a later load never loses to an earlier one). */
  loadSeq: number;
}

interface FamilyGate {
  /** membership reloads of this family still running */
  running: number;
  /** device.changed events of this family that arrived meanwhile, delivered in order once membership is known */
  queue: Extract<BusEvent, { type: "device.changed" }>[];
}

function newId(): string {
  return randomBytes(16).toString("base64url");
}

function bearerToken(authorization: string | undefined): string | null {
  const match = authorization ? /^Bearer\s+(\S+)\s*$/i.exec(authorization) : null;
  return match ? match[1] : null;
}

function rawDataChunks(data: RawData): Uint8Array[] {
  if (Array.isArray(data)) return data;
  return [data instanceof ArrayBuffer ? new Uint8Array(data) : data];
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

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms`)), ms);
    timer.unref();
  });
  return Promise.race([promise, limit]).finally(() => clearTimeout(timer));
}

/** One WebSocket connection of one hub: handshake state, timers, and the close sequence. */
class HubClient {
  handshakeDone = false;
  closed = false;
  readonly reader: RecordReader;
  readonly ended: Promise<void>;
  private pingTimer: NodeJS.Timeout | null = null;
  private readonly timeoutTimer: NodeJS.Timeout;
  private readonly handshakeTimer: NodeJS.Timeout;
  private resolveEnded!: () => void;

  readonly connectionId: string;
  readonly token: string;
  readonly hub: HubName;
  readonly userId: string;
  readonly sessionId: string | null;
  readonly ws: WebSocket;
  private readonly options: Required<HubOptions>;
  constructor(
    connectionId: string,
    token: string,
    hub: HubName,
    userId: string,
    sessionId: string | null,
    ws: WebSocket,
    options: Required<HubOptions>,
  ) {
    this.connectionId = connectionId;
    this.token = token;
    this.hub = hub;
    this.userId = userId;
    this.sessionId = sessionId;
    this.ws = ws;
    this.options = options;
    this.reader = new RecordReader(options.maxMessageChars);
    this.ended = new Promise((resolve) => {
      this.resolveEnded = resolve;
    });
    this.timeoutTimer = setTimeout(
      () => this.close("Server timeout elapsed without receiving a message from the client.", true),
      options.clientTimeoutMs,
    ).unref();
    this.handshakeTimer = setTimeout(
      () => this.close("Handshake was canceled.", false),
      options.handshakeTimeoutMs,
    ).unref();
  }

  /** Anything received from the client proves it is alive. */
  touch(): void {
    this.timeoutTimer.refresh();
  }

  /** Completes the handshake: answers `{}` and starts the keep-alive pings. */
  acceptHandshake(): void {
    this.handshakeDone = true;
    clearTimeout(this.handshakeTimer);
    this.sendText(writeRecord({}));
    this.pingTimer = setTimeout(() => this.sendText(writeRecord(PING_MESSAGE)), this.options.keepAliveIntervalMs);
    this.pingTimer.unref();
  }

  /** Sends one or more serialised records; any send postpones the next keep-alive ping. */
  sendText(text: string): boolean {
    if (this.closed || this.ws.readyState !== this.ws.OPEN) return false;
    if (this.ws.bufferedAmount > this.options.maxBufferedBytes) {
      this.close("The client is not reading its messages fast enough.", true);
      return false;
    }
    this.ws.send(text);
    this.pingTimer?.refresh();
    return true;
  }

  /**
   * Closes the connection from the server side: a Close message (with `error` and `allowReconnect` when given),
   * then the WebSocket close frame; the socket is cut if the client does not finish the close handshake in time.
   */
  close(error?: string, allowReconnect?: boolean, rawRecord?: string): void {
    if (this.closed) return;
    if (this.ws.readyState === this.ws.OPEN) {
      this.ws.send(rawRecord ?? writeRecord(closeMessage(error, allowReconnect)));
      this.ws.close(1000);
    }
    this.markClosed();
    setTimeout(() => this.ws.terminate(), CLOSE_GRACE_MS).unref();
  }

  /** Stops the timers; called on the server-side close and when the socket ends. */
  markClosed(): void {
    this.closed = true;
    clearTimeout(this.timeoutTimer);
    clearTimeout(this.handshakeTimer);
    if (this.pingTimer) clearTimeout(this.pingTimer);
  }

  /** The socket has ended (either side). */
  onEnded(): void {
    this.markClosed();
    this.resolveEnded();
  }
}

/** The hub server: negotiate routes, WebSocket upgrades, the connection registry and bus delivery. */
class HubServer implements Hubs {
  private readonly wss: WebSocketServer;
  private readonly options: Required<HubOptions>;
  private readonly negotiations = new Map<string, Negotiation>();
  private readonly negotiationsByUser = new Map<string, Set<string>>();
  /** Live connections by the token the client attached with (for the 409 of a second WebSocket). */
  private readonly liveByToken = new Map<string, HubClient>();
  private readonly users = new Map<string, UserEntry>();
  /** userId → upgrades past their token check and not yet attached (they hold a slot of the per-user limit). */
  private readonly upgrading = new Map<string, number>();
  /** familyId → ids of connected users who belong to it (only users with at least one connection). */
  private readonly familyMembers = new Map<string, Set<string>>();
  private readonly familyGates = new Map<string, FamilyGate>();
  private loadSeq = 0;
  /** Bumped on every family.members-changed: a connect whose family load overlapped one loads again. */
  private membershipEpoch = 0;
  /**
   * Bumped on every user.revoked and session.ended; `revokedAt` (keys `user:<id>`, `session:<id>`) remembers them
   * only while upgrades or negotiations are in flight.
   */
  private revocationSeq = 0;
  private readonly revokedAt = new Map<string, number>();
  private authInFlight = 0;
  private reloadAllRunning: Promise<void> | null = null;
  private reloadAllNext: Promise<void> | null = null;
  private closing: Promise<void> | null = null;
  private readonly unsubscribe: () => void;

  private readonly app: FastifyInstance;
  private readonly auth: HubAuth;
  private readonly log: FastifyBaseLogger;
  constructor(app: FastifyInstance, auth: HubAuth, bus: Bus, log: FastifyBaseLogger, options: HubOptions) {
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
    const entry = this.users.get(userId);
    if (!entry) return 0;
    const text = writeRecord(invocationMessage(method, args));
    let sent = 0;
    for (const client of entry.connections) {
      if (client.hub === hub && client.handshakeDone && client.sendText(text)) sent++;
    }
    return sent;
  }

  connectionCount(): number {
    let open = 0;
    for (const client of this.liveByToken.values()) if (!client.closed) open++;
    return open;
  }

  close(): Promise<void> {
    this.closing ??= this.closeAll();
    return this.closing;
  }

  private async closeAll(): Promise<void> {
    this.unsubscribe();
    this.app.server.off("upgrade", this.onUpgrade);
    for (const negotiation of this.negotiations.values()) clearTimeout(negotiation.timer);
    this.negotiations.clear();
    this.negotiationsByUser.clear();
    this.upgrading.clear();
    this.familyGates.clear();
    const clients = [...this.liveByToken.values()];
    // Allow reconnect: a restart or rolling deploy should not sign the app out of its live updates.
    for (const client of clients) client.close("Server is shutting down.", true);
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
    const connectionId = newId();
    // Version 0 clients attach with the connectionId; version 1 clients with the separate, secret connectionToken.
    const connectionToken = negotiateVersion === 1 ? newId() : connectionId;
    this.addNegotiation(connectionToken, { hub, userId, sessionId, connectionId });
    reply.header("Cache-Control", "no-cache");
    return reply.send({
      negotiateVersion,
      connectionId,
      ...(negotiateVersion === 1 ? { connectionToken } : {}),
      availableTransports: [{ transport: "WebSockets", transferFormats: ["Text"] }],
    });
  }

  private addNegotiation(token: string, value: Omit<Negotiation, "timer">): void {
    const timer = setTimeout(() => this.dropNegotiation(token), this.options.negotiateTimeoutMs).unref();
    this.negotiations.set(token, { ...value, timer });
    let tokens = this.negotiationsByUser.get(value.userId);
    if (!tokens) {
      tokens = new Set();
      this.negotiationsByUser.set(value.userId, tokens);
    }
    tokens.add(token);
  }

  /** Slots of the per-user limit in use: live connections, pending negotiations and upgrades in progress. */
  private slotsInUse(userId: string): number {
    return (
      (this.users.get(userId)?.connections.size ?? 0) +
      (this.negotiationsByUser.get(userId)?.size ?? 0) +
      (this.upgrading.get(userId) ?? 0)
    );
  }

  private addUpgrading(userId: string, delta: 1 | -1): void {
    const next = (this.upgrading.get(userId) ?? 0) + delta;
    if (next > 0) this.upgrading.set(userId, next);
    else this.upgrading.delete(userId);
  }

  private dropNegotiation(token: string): Negotiation | undefined {
    const negotiation = this.negotiations.get(token);
    if (!negotiation) return undefined;
    clearTimeout(negotiation.timer);
    this.negotiations.delete(token);
    const tokens = this.negotiationsByUser.get(negotiation.userId);
    tokens?.delete(token);
    if (tokens?.size === 0) this.negotiationsByUser.delete(negotiation.userId);
    return negotiation;
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
    if (id) {
      const negotiation = this.negotiations.get(id);
      if (!negotiation) {
        const live = this.liveByToken.get(id);
        if (live && !live.closed) return rejectUpgrade(socket, 409, "Connection already has a WebSocket.");
        return rejectUpgrade(socket, 404, "No Connection with that ID");
      }
      if (negotiation.hub !== hub) return rejectUpgrade(socket, 404, "No Connection with that ID");
      if (negotiation.userId !== userId) return rejectUpgrade(socket, 403, "Forbidden");
      // The negotiation's slot of the per-user limit passes to the upgrade.
      this.dropNegotiation(id);
      connectionId = negotiation.connectionId;
      connectionToken = id;
    } else {
      // skipNegotiation: the WebSocket is the whole connection, and takes a slot here.
      if (this.slotsInUse(userId) >= this.options.maxConnectionsPerUser) {
        return rejectUpgrade(socket, 429, "Too many connections for this user.", {
          "Retry-After": String(LIMIT_RETRY_AFTER_SECONDS),
        });
      }
      connectionId = newId();
      connectionToken = connectionId;
    }

    this.addUpgrading(userId, 1);
    try {
      const loaded = await this.loadFamiliesFresh(userId);
      if (this.closing) return rejectUpgrade(socket, 503, "Server is shutting down.");
      if (socket.destroyed) return;
      // A session.ended or user.revoked during the family load: the token check above is stale.
      if (revoked(caller)) {
        return rejectUpgrade(socket, 401, "Unauthorized", { "WWW-Authenticate": "Bearer" });
      }
      this.wss.handleUpgrade(request, socket, head, (ws) => {
        this.attach(new HubClient(connectionId, connectionToken, hub, userId, sessionId, ws, this.options), loaded);
      });
    } finally {
      this.addUpgrading(userId, -1);
    }
  }

  /** Loads the user's families, again if a membership change happened meanwhile (so the result is current). */
  private async loadFamiliesFresh(userId: string): Promise<{ seq: number; families: string[] }> {
    for (let attempt = 0; ; attempt++) {
      const epoch = this.membershipEpoch;
      const seq = ++this.loadSeq;
      const families = await this.auth.familyIdsOf(userId);
      if (epoch === this.membershipEpoch || attempt >= 3) return { seq, families };
    }
  }

  private attach(client: HubClient, loaded: { seq: number; families: string[] }): void {
    const { ws } = client;
    let entry = this.users.get(client.userId);
    if (!entry) {
      entry = { families: new Set(), connections: new Set(), loadSeq: 0 };
      this.users.set(client.userId, entry);
    }
    entry.connections.add(client);
    this.liveByToken.set(client.token, client);
    this.applyFamilies(client.userId, loaded.seq, loaded.families);
    this.log.debug(
      { hub: client.hub, connectionId: client.connectionId, userId: client.userId },
      "realtime: connected",
    );

    ws.on("message", (data) => {
      client.touch();
      try {
        for (const chunk of rawDataChunks(data)) {
          for (const record of client.reader.push(chunk)) {
            if (client.closed) return;
            this.onRecord(client, record);
          }
        }
      } catch (error) {
        client.close((error as Error).message, false);
      }
    });
    ws.on("error", (error) => this.log.debug({ err: error, connectionId: client.connectionId }, "realtime: ws error"));
    ws.on("close", () => {
      client.onEnded();
      this.detach(client);
    });
  }

  private detach(client: HubClient): void {
    if (this.liveByToken.get(client.token) === client) this.liveByToken.delete(client.token);
    const entry = this.users.get(client.userId);
    if (!entry?.connections.delete(client) || entry.connections.size > 0) return;
    this.users.delete(client.userId);
    for (const familyId of entry.families) this.removeFamilyMember(familyId, client.userId);
    this.log.debug({ hub: client.hub, connectionId: client.connectionId }, "realtime: disconnected");
  }

  private onRecord(client: HubClient, record: string): void {
    if (!client.handshakeDone) {
      const handshake = parseHandshakeRequest(record);
      if (!handshake.ok) {
        client.close(undefined, undefined, writeRecord({ error: handshake.error }));
        return;
      }
      client.acceptHandshake();
      return;
    }
    const parsed = parseClientMessage(record);
    if (!parsed.ok) {
      client.close(`Connection closed with an error. ${parsed.error}`, false);
      return;
    }
    const message = parsed.value;
    switch (message.type) {
      case MessageType.Invocation:
      case MessageType.StreamInvocation:
        // The hubs only push; a client invocation is answered the way ASP.NET answers an unknown method.
        if (message.invocationId !== null) {
          const error = `Failed to invoke '${message.target}' due to an error on the server. HubException: Method does not exist.`;
          client.sendText(writeRecord(completionError(message.invocationId, error)));
        }
        return;
      case MessageType.Close:
        client.markClosed();
        client.ws.close(1000);
        return;
      default:
        return; // pings (already counted by touch), stream items, completions, cancels, acks, sequences
    }
  }

  // ---- membership ------------------------------------------------------------------------------------------------

  private applyFamilies(userId: string, seq: number, families: string[]): void {
    const entry = this.users.get(userId);
    if (!entry || seq <= entry.loadSeq) return;
    entry.loadSeq = seq;
    const next = new Set(families);
    for (const familyId of entry.families) if (!next.has(familyId)) this.removeFamilyMember(familyId, userId);
    for (const familyId of next) {
      if (entry.families.has(familyId)) continue;
      let members = this.familyMembers.get(familyId);
      if (!members) {
        members = new Set();
        this.familyMembers.set(familyId, members);
      }
      members.add(userId);
    }
    entry.families = next;
  }

  private removeFamilyMember(familyId: string, userId: string): void {
    const members = this.familyMembers.get(familyId);
    members?.delete(userId);
    if (members?.size === 0) this.familyMembers.delete(familyId);
  }

  /**
   * family.members-changed: reloads membership; until it is known, that family's device events wait in order, so an
   * event published after the change never reaches a removed member and does reach an added one.
   */
  private onMembersChanged(familyId: string): void {
    this.membershipEpoch++;
    let gate = this.familyGates.get(familyId);
    if (!gate) {
      gate = { running: 0, queue: [] };
      this.familyGates.set(familyId, gate);
    }
    gate.running++;
    const reload = this.auth.memberIdsOf ? this.reloadMembers(familyId) : this.reloadAllUsers();
    withTimeout(reload, MEMBERSHIP_RELOAD_LIMIT_MS, "family membership reload")
      .catch((error: unknown) => this.log.warn({ err: error, familyId }, "realtime: membership reload failed"))
      .finally(() => {
        const current = this.familyGates.get(familyId);
        if (current !== gate) return; // closed meanwhile
        gate.running--;
        if (gate.running > 0) return;
        this.familyGates.delete(familyId);
        for (const event of gate.queue) this.deliverDeviceChange(event);
      });
  }

  private async reloadMembers(familyId: string): Promise<void> {
    const members = new Set(await this.auth.memberIdsOf!(familyId));
    for (const [userId, entry] of this.users) {
      if (members.has(userId) === entry.families.has(familyId)) continue;
      const families = new Set(entry.families);
      if (members.has(userId)) families.add(familyId);
      else families.delete(familyId);
      this.applyFamilies(userId, ++this.loadSeq, [...families]);
    }
  }

  /** Reloads the families of every connected user; overlapping calls share one follow-up run. */
  private reloadAllUsers(): Promise<void> {
    if (!this.reloadAllRunning) {
      this.reloadAllRunning = this.reloadEveryUser().finally(() => {
        this.reloadAllRunning = null;
      });
      return this.reloadAllRunning;
    }
    this.reloadAllNext ??= this.reloadAllRunning.then(() => {
      this.reloadAllNext = null;
      return this.reloadAllUsers();
    });
    return this.reloadAllNext;
  }

  private async reloadEveryUser(): Promise<void> {
    await Promise.all(
      [...this.users.keys()].map(async (userId) => {
        const seq = ++this.loadSeq;
        try {
          this.applyFamilies(userId, seq, await this.auth.familyIdsOf(userId));
        } catch (error) {
          this.log.warn({ err: error, userId }, "realtime: family reload failed");
        }
      }),
    );
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
        case "family.members-changed":
          this.onMembersChanged(event.familyId);
          return;
      }
    } catch (error) {
      // A hub problem must never throw into the publisher (the device gateway).
      this.log.error({ err: error, event: event.type }, "realtime: bus event failed");
    }
  };

  private deliverDeviceChange(event: Extract<BusEvent, { type: "device.changed" }>): void {
    if (event.familyId === null) return;
    const gate = this.familyGates.get(event.familyId);
    if (gate) {
      gate.queue.push(event);
      return;
    }
    const members = this.familyMembers.get(event.familyId);
    if (!members) return;
    // Spec §7: one argument, the message as a JSON string. Serialised once for every receiver.
    const text = writeRecord(invocationMessage(HUB_METHODS.deviceChange, [JSON.stringify(event.message)]));
    for (const userId of members) {
      for (const client of this.users.get(userId)?.connections ?? []) {
        if (client.hub === "deviceChange" && client.handshakeDone) client.sendText(text);
      }
    }
  }

  private revokeUser(userId: string): void {
    this.revocationSeq++;
    if (this.authInFlight > 0) this.revokedAt.set(`user:${userId}`, this.revocationSeq);
    for (const token of [...(this.negotiationsByUser.get(userId) ?? [])]) this.dropNegotiation(token);
    const entry = this.users.get(userId);
    if (!entry) return;
    for (const client of [...entry.connections]) client.close("The user's access has ended.", false);
  }

  /** session.ended (logout, replayed refresh token; issue 11): closes that session's connections, not the user's others. */
  private revokeSession(userId: string, sessionId: string): void {
    this.revocationSeq++;
    if (this.authInFlight > 0) this.revokedAt.set(`session:${sessionId}`, this.revocationSeq);
    for (const token of [...(this.negotiationsByUser.get(userId) ?? [])]) {
      if (this.negotiations.get(token)?.sessionId === sessionId) this.dropNegotiation(token);
    }
    for (const client of [...(this.users.get(userId)?.connections ?? [])]) {
      if (client.sessionId === sessionId) client.close("The session has ended.", false);
    }
  }
}

/**
 * Serves the two real-time hubs of spec §7 with the ASP.NET Core SignalR protocol, so the official
 * `@microsoft/signalr` client connects unchanged:
 * - `POST {hubPath}/negotiate?negotiateVersion=1` (bearer token in `Authorization`, or `access_token`; 401 otherwise)
 *   answers `{negotiateVersion, connectionId, connectionToken, availableTransports: [WebSockets/Text]}`;
 * - the WebSocket upgrade on `{hubPath}?id={connectionToken}` (or without `id` for `skipNegotiation`), token in
 *   `Authorization` or `access_token` (401 otherwise; 404 unknown id; 409 id already attached);
 * - the JSON hub protocol: handshake, server→client invocations, pings every `keepAliveIntervalMs`, close after
 *   `clientTimeoutMs` of silence, Close with `allowReconnect: false` when the user's access ends.
 *
 * Bus delivery: `device.changed` for family F → `DeviceChangContentTypeMessage(JSON.stringify(message))` on every hub-1
 * connection of F's members (membership cached per connected user, refreshed on `family.members-changed`);
 * `user.revoked` closes that user's connections on both hubs.
 *
 * Call it before `app.listen()` / `app.ready()`: it registers the negotiate routes and a `preClose` hook, and
 * listens for `upgrade` on `app.server` (other upgrade paths are left alone).
 */
export function registerHubs(
  app: FastifyInstance,
  deps: { bus: Bus; auth: HubAuth; logger?: FastifyBaseLogger; options?: HubOptions },
): Hubs {
  return new HubServer(app, deps.auth, deps.bus, deps.logger ?? app.log, deps.options ?? {});
}
