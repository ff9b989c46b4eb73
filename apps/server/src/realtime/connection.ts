import { randomBytes } from "node:crypto";
import type { HUB_PATHS } from "@aquapilot/contract";
import type { RawData, WebSocket } from "ws";
import { RecordReader, writeRecord } from "./framing.ts";
import { closeMessage, HubCloseReason, handshakeResponse, PING_MESSAGE, type ProtocolPeer } from "./protocol.ts";

/** The two hubs of spec §7: `deviceChange` at HUB_PATHS.deviceChange, `message` at HUB_PATHS.message. */
export type HubName = keyof typeof HUB_PATHS;

/**
 * WebSocket close status codes the hubs send (RFC 6455 §7.4.1). A hub connection always ends its WebSocket with a
 * normal closure: why it ended travels in the hub protocol's Close message before it ({@link HubCloseReason}).
 */
export const WebSocketCloseCode = {
  /** 1000: the purpose of the connection is fulfilled (either side closed it on purpose). */
  NormalClosure: 1000,
} as const;
export type WebSocketCloseCode = (typeof WebSocketCloseCode)[keyof typeof WebSocketCloseCode];

/** How long a closing socket may take to finish the WebSocket close handshake before it is cut (ms). */
const CLOSE_GRACE_MS = 1_000;

/** The timings and limits one connection keeps (all required; the hub server fills in the defaults of HubOptions). */
export interface ConnectionLimits {
  /** The server sends a Ping when it has sent nothing for this long (ms). */
  keepAliveIntervalMs: number;
  /** A connection that receives nothing (not even a Ping) for this long is closed (ms). */
  clientTimeoutMs: number;
  /** A connection must complete the handshake within this time (ms). */
  handshakeTimeoutMs: number;
  /** Largest hub message accepted from the client, in characters. */
  maxMessageChars: number;
  /** The connection is closed when its unsent output exceeds this many bytes. */
  maxBufferedBytes: number;
}

/** A fresh random id (128 bits, base64url): the connection ids of negotiate and of skipNegotiation connections. */
export function newConnectionId(): string {
  return randomBytes(16).toString("base64url");
}

function rawDataChunks(data: RawData): Uint8Array[] {
  if (Array.isArray(data)) return data;
  return [data instanceof ArrayBuffer ? new Uint8Array(data) : data];
}

/**
 * One WebSocket connection of one hub: handshake state, timers (keep-alive pings, client timeout, handshake
 * timeout), and the close sequence. The hub protocol's reaction to each record is `handleClientRecord`
 * (protocol.ts); this class is the {@link ProtocolPeer} it acts on.
 */
export class HubClient implements ProtocolPeer {
  handshakeDone = false;
  closed = false;
  readonly reader: RecordReader;
  /** Resolves once the socket has ended (either side). */
  readonly ended: Promise<void>;
  private pingTimer: NodeJS.Timeout | null = null;
  private readonly timeoutTimer: NodeJS.Timeout;
  private readonly handshakeTimer: NodeJS.Timeout;
  private resolveEnded!: () => void;

  readonly connectionId: string;
  /** The token the client attached with: the negotiated connectionToken, or the connectionId of skipNegotiation. */
  readonly token: string;
  readonly hub: HubName;
  readonly userId: string;
  readonly sessionId: string | null;
  readonly ws: WebSocket;
  private readonly limits: ConnectionLimits;
  /** Starts the client timeout and the handshake timeout at once. */
  constructor(
    connectionId: string,
    token: string,
    hub: HubName,
    userId: string,
    sessionId: string | null,
    ws: WebSocket,
    limits: ConnectionLimits,
  ) {
    this.connectionId = connectionId;
    this.token = token;
    this.hub = hub;
    this.userId = userId;
    this.sessionId = sessionId;
    this.ws = ws;
    this.limits = limits;
    this.reader = new RecordReader(limits.maxMessageChars);
    this.ended = new Promise((resolve) => {
      this.resolveEnded = resolve;
    });
    this.timeoutTimer = setTimeout(
      () => this.close(HubCloseReason.ClientTimeout, true),
      limits.clientTimeoutMs,
    ).unref();
    this.handshakeTimer = setTimeout(
      () => this.close(HubCloseReason.HandshakeTimeout, false),
      limits.handshakeTimeoutMs,
    ).unref();
  }

  /** Anything received from the client proves it is alive. */
  touch(): void {
    this.timeoutTimer.refresh();
  }

  /**
   * Takes one WebSocket message: it proves the client alive, and each JSON record it completes goes to `onRecord` in
   * order (none once the connection is closed). A record beyond `maxMessageChars`, or an error `onRecord` throws,
   * closes the connection with that error and `allowReconnect: false`.
   */
  receive(data: RawData, onRecord: (record: string) => void): void {
    this.touch();
    try {
      for (const chunk of rawDataChunks(data)) {
        for (const record of this.reader.push(chunk)) {
          if (this.closed) return;
          onRecord(record);
        }
      }
    } catch (error) {
      this.close((error as Error).message, false);
    }
  }

  /** Completes the handshake: answers `{}` and starts the keep-alive pings. */
  acceptHandshake(): void {
    this.handshakeDone = true;
    clearTimeout(this.handshakeTimer);
    this.sendText(writeRecord(handshakeResponse()));
    this.pingTimer = setTimeout(() => this.sendText(writeRecord(PING_MESSAGE)), this.limits.keepAliveIntervalMs);
    this.pingTimer.unref();
  }

  /**
   * Sends one or more serialised records as one text message; any send postpones the next keep-alive ping. `text` may
   * be the records already encoded as UTF-8 (a Buffer): a message for many connections is encoded once, not once per
   * connection, a cost that grew with the receivers. Answers false when the connection is closed or closed now as a
   * slow reader.
   */
  sendText(text: string | Buffer): boolean {
    if (this.closed || this.ws.readyState !== this.ws.OPEN) return false;
    if (this.ws.bufferedAmount > this.limits.maxBufferedBytes) {
      this.close(HubCloseReason.SlowReader, true);
      return false;
    }
    this.ws.send(text, { binary: false });
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
      this.ws.close(WebSocketCloseCode.NormalClosure);
    }
    this.markClosed();
    setTimeout(() => this.ws.terminate(), CLOSE_GRACE_MS).unref();
  }

  /** The client sent a Close message: stops the timers and answers with the WebSocket close frame. */
  closedByClient(): void {
    this.markClosed();
    this.ws.close(WebSocketCloseCode.NormalClosure);
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

/** A negotiation waiting for its WebSocket: who negotiated, on which hub, and the connection id it was given. */
export interface Negotiation {
  hub: HubName;
  userId: string;
  sessionId: string | null;
  connectionId: string;
}

/**
 * The negotiations this process answered whose WebSocket has not attached here yet, by connection id. The tokens
 * themselves are stateless (connection-token.ts: any process can check them); this record only holds their slots of
 * the per-user limit: each is forgotten when its connection attaches on this process, when its user's access or
 * session ends, or after `timeoutMs` (also when it attached on another process, which this one never hears of).
 */
export class Negotiations {
  private readonly byId = new Map<string, Negotiation & { timer: NodeJS.Timeout }>();
  private readonly byUser = new Map<string, Set<string>>();

  private readonly timeoutMs: number;
  /** @param timeoutMs how long a negotiation waits for its WebSocket before it is forgotten (ms). */
  constructor(timeoutMs: number) {
    this.timeoutMs = timeoutMs;
  }

  /** Remembers the negotiation of `value.connectionId` for `timeoutMs`. */
  add(value: Negotiation): void {
    const id = value.connectionId;
    const timer = setTimeout(() => this.drop(id), this.timeoutMs).unref();
    this.byId.set(id, { ...value, timer });
    let ids = this.byUser.get(value.userId);
    if (!ids) {
      ids = new Set();
      this.byUser.set(value.userId, ids);
    }
    ids.add(id);
  }

  /** The pending negotiation of `connectionId`, if any. */
  get(connectionId: string): Negotiation | undefined {
    return this.byId.get(connectionId);
  }

  /** Forgets `connectionId` (and stops its timer); answers what it was, if anything. */
  drop(connectionId: string): Negotiation | undefined {
    const negotiation = this.byId.get(connectionId);
    if (!negotiation) return undefined;
    clearTimeout(negotiation.timer);
    this.byId.delete(connectionId);
    const ids = this.byUser.get(negotiation.userId);
    ids?.delete(connectionId);
    if (ids?.size === 0) this.byUser.delete(negotiation.userId);
    return negotiation;
  }

  /** The connection ids of the user's pending negotiations (a copy: dropping while iterating is safe). */
  idsOf(userId: string): string[] {
    return [...(this.byUser.get(userId) ?? [])];
  }

  /** How many negotiations of the user are pending (they hold slots of the per-user limit). */
  countOf(userId: string): number {
    return this.byUser.get(userId)?.size ?? 0;
  }

  /** Forgets every negotiation and stops every timer (shutdown). */
  clear(): void {
    for (const negotiation of this.byId.values()) clearTimeout(negotiation.timer);
    this.byId.clear();
    this.byUser.clear();
  }
}
