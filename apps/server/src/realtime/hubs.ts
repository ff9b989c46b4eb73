/**
 * The hub server: composes the parts of this folder into the two real-time hubs of spec §7 and keeps the live
 * connections of this process. What each part does is in README.md "Files, one job each".
 */
import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import { WebSocketServer } from "ws";
import type { Bus, BusEvent } from "../bus.ts";
import { endFamilyAccess, endSessionAccess, endUserAccess } from "./access-ended.ts";
import { type ConnectionLimits, type HubClient, type HubName, Negotiations } from "./connection.ts";
import { ConnectionSlots } from "./connection-slots.ts";
import { type ConnectionTokenClaims, ConnectionTokens } from "./connection-token.ts";
import { deliverDeviceChange, deliverDomainEvent, sendToUser } from "./delivery.ts";
import type { HubAuth } from "./hub-auth.ts";
import { type HubOptions, resolveHubOptions } from "./hub-options.ts";
import { type FamilyLoad, MembershipCache } from "./membership-cache.ts";
import { registerNegotiateRoutes } from "./negotiate.ts";
import { HubCloseReason, handleClientRecord } from "./protocol.ts";
import { Revocations } from "./revocations.ts";
import { TokenUses } from "./token-use.ts";
import { upgradeListener } from "./upgrade.ts";

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

/**
 * The hub server: the live connections of this process, bus events routed to the part that handles them, and
 * shutdown. It composes the parts: the negotiate routes (negotiate.ts) and the WebSocket upgrades (upgrade.ts), one
 * {@link HubClient} per connection and the pending {@link Negotiations} (connection.ts), the signed connection tokens
 * ({@link ConnectionTokens}) and their single use ({@link TokenUses}), the per-user limit ({@link ConnectionSlots}),
 * remembered revocations ({@link Revocations}), the hub protocol's answers (protocol.ts `handleClientRecord`), who
 * belongs to which family ({@link MembershipCache}), deliveries (delivery.ts) and closings when access ends
 * (access-ended.ts).
 */
class HubServer implements Hubs {
  private readonly wss: WebSocketServer;
  private readonly limits: ConnectionLimits;
  private readonly negotiations: Negotiations;
  private readonly tokenUses: TokenUses;
  private readonly revocations: Revocations;
  private readonly slots: ConnectionSlots;
  /** Live connections by connection id (for the 409 of a second WebSocket on a negotiated id). */
  private readonly liveById = new Map<string, HubClient>();
  /** Connected users, their connections and their families. */
  private readonly membership: MembershipCache<HubClient>;
  private closing: Promise<void> | null = null;
  private readonly unsubscribe: () => void;
  private readonly onUpgrade: ReturnType<typeof upgradeListener>;

  private readonly app: FastifyInstance;
  private readonly log: FastifyBaseLogger;
  constructor(
    app: FastifyInstance,
    auth: HubAuth,
    bus: Bus,
    log: FastifyBaseLogger,
    hubOptions: HubOptions,
    tokens: { key?: Uint8Array; claims?: ConnectionTokenClaims },
  ) {
    this.app = app;
    this.log = log;
    const options = resolveHubOptions(hubOptions);
    this.limits = options;
    this.negotiations = new Negotiations(options.negotiateTimeoutMs);
    const connectionTokens = new ConnectionTokens(tokens.key);
    this.tokenUses = new TokenUses(tokens.claims ?? null, log);
    this.revocations = new Revocations(options.negotiateTimeoutMs);
    this.membership = new MembershipCache(auth, log, undefined, (userId, familyIds) =>
      endFamilyAccess(this.membership, log, userId, familyIds),
    );
    this.slots = new ConnectionSlots(options.maxConnectionsPerUser, {
      live: (userId) => this.membership.connectionCount(userId),
      negotiating: (userId) => this.negotiations.countOf(userId),
    });
    // A frame may hold several records of up to maxMessageChars characters (≤ 4 UTF-8 bytes each); refuse bigger ones.
    const maxPayload = Math.max(64 * 1024, options.maxMessageChars * 4);
    this.wss = new WebSocketServer({ noServer: true, perMessageDeflate: false, clientTracking: false, maxPayload });
    const entry = {
      auth,
      revocations: this.revocations,
      slots: this.slots,
      negotiations: this.negotiations,
      tokens: connectionTokens,
      tokenUses: this.tokenUses,
      membership: this.membership,
      wss: this.wss,
      limits: this.limits,
      negotiateTimeoutMs: options.negotiateTimeoutMs,
      log,
      isClosing: () => this.closing !== null,
      liveConnection: (connectionId: string) => this.liveById.get(connectionId),
      attach: (client: HubClient, loaded: FamilyLoad) => this.attach(client, loaded),
    };
    this.onUpgrade = upgradeListener(entry);
    this.unsubscribe = bus.subscribe(this.onBusEvent);
    app.server.on("upgrade", this.onUpgrade);
    registerNegotiateRoutes(app, entry);
    app.addHook("preClose", async () => {
      await this.close();
    });
  }

  sendToUser(hub: HubName, userId: string, method: string, args: unknown[]): number {
    return sendToUser(this.membership, hub, userId, method, args);
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
    this.tokenUses.clear();
    this.revocations.clear();
    this.slots.clear();
    this.membership.releaseGates();
    const clients = [...this.liveById.values()];
    // Allow reconnect: a restart or rolling deploy should not sign the app out of its live updates.
    for (const client of clients) client.close(HubCloseReason.ShuttingDown, true);
    await Promise.all(clients.map((client) => client.ended));
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }

  // ---- live connections ------------------------------------------------------------------------------------------

  /** Takes an accepted connection in: its user's families, the registry, and its socket's events. */
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
          deliverDeviceChange(this.membership, event);
          return;
        case "user.revoked":
          this.revocations.userRevoked(event.userId);
          endUserAccess(this.membership, this.negotiations, event.userId);
          return;
        case "session.ended":
          this.revocations.sessionEnded(event.sessionId);
          endSessionAccess(this.membership, this.negotiations, event.userId, event.sessionId);
          return;
        case "domain.event":
          deliverDomainEvent(this.membership, event.event);
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
 * `FamilyAccessEnded`, allowReconnect: true (the user's other families come back); `user.revoked` closes that user's
 * connections on both hubs and `session.ended` that session's, allowReconnect: false.
 *
 * Call it before `app.listen()` / `app.ready()`: it registers the negotiate routes and a `preClose` hook, and
 * listens for `upgrade` on `app.server` (other upgrade paths are left alone). Answers the {@link Hubs} handle.
 * @throws Error when `tokenKey` is shorter than 32 bytes (connection-token.ts).
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
