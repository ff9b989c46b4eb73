/**
 * The SignalR JSON hub protocol (aspnetcore src/SignalR/docs/specs/HubProtocol.md) as a server that pushes to its
 * clients speaks it: the message shapes (handshake, invocations, completions, pings, close), the texts of the Close
 * messages it sends ({@link HubCloseReason}), and its answer to each record a client sends
 * ({@link handleClientRecord}).
 * The records themselves are framed by framing.ts; the connection they arrive on is connection.ts.
 */
import { HUB_CLOSE_ERRORS } from "@aquapilot/contract";
import { writeRecord } from "./framing.ts";

/** Hub message type codes, as numbered on the wire. */
export const MessageType = {
  Invocation: 1,
  StreamItem: 2,
  Completion: 3,
  StreamInvocation: 4,
  CancelInvocation: 5,
  Ping: 6,
  Close: 7,
  Ack: 8,
  Sequence: 9,
} as const;

/**
 * The `error` texts of the Close messages the server sends (ASP.NET Core's wording where it has one). The client
 * shows or logs them; `allowReconnect` beside them says whether it may come back.
 */
export const HubCloseReason = {
  /** Nothing, not even a Ping, received for `clientTimeoutMs` (allowReconnect: true). */
  ClientTimeout: "Server timeout elapsed without receiving a message from the client.",
  /** No handshake within `handshakeTimeoutMs` (allowReconnect: false). */
  HandshakeTimeout: "Handshake was canceled.",
  /** Unsent output beyond `maxBufferedBytes`: the client reconnects and reloads (allowReconnect: true). */
  SlowReader: "The client is not reading its messages fast enough.",
  /** Bus `user.revoked`: every connection of the user (allowReconnect: false). */
  AccessEnded: HUB_CLOSE_ERRORS.accessEnded,
  /** Bus `session.ended`: the connections of that sign-in (allowReconnect: false). */
  SessionEnded: HUB_CLOSE_ERRORS.sessionEnded,
  /**
   * Bus `family.members-changed` after which the user no longer belongs to a family: their hub-1 connections
   * (allowReconnect: true, so their other families come back with the reconnect).
   */
  FamilyAccessEnded: HUB_CLOSE_ERRORS.familyAccessEnded,
  /** Shutdown or restart (allowReconnect: true). */
  ShuttingDown: "Server is shutting down.",
  /**
   * The bus between server processes was interrupted, so events may have been missed: the client reconnects and
   * re-reads (allowReconnect: true; docs/deploy.md).
   */
  Resync: "Live updates were interrupted; reconnect to catch up.",
} as const;
export type HubCloseReason = (typeof HubCloseReason)[keyof typeof HubCloseReason];

/** The hub protocol this server speaks ("json") and the protocol versions it accepts in the handshake. */
export const JSON_PROTOCOL = { name: "json", versions: [1, 2] } as const;

/** A message the client sent after the handshake, reduced to the fields the server acts on. */
export type ClientHubMessage =
  | { type: typeof MessageType.Invocation; target: string; invocationId: string | null }
  | { type: typeof MessageType.StreamInvocation; target: string; invocationId: string | null }
  | { type: typeof MessageType.Ping }
  | { type: typeof MessageType.Close; error: string | null }
  /** Stream items, completions (client results), cancels, acks and sequence messages: accepted and ignored. */
  | { type: 2 | 3 | 5 | 8 | 9 };

/** The result of parsing one record: the message, or why it is not one. */
export type ParseResult<T> = { ok: true; value: T } | { ok: false; error: string };

function parseObject(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === "object" && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/**
 * Parses the handshake request record (`{"protocol":"json","version":1}`) and checks that this server supports it.
 * The error texts are those ASP.NET Core answers, so clients show familiar messages.
 */
export function parseHandshakeRequest(text: string): ParseResult<{ protocol: string; version: number }> {
  const value = parseObject(text);
  if (!value || typeof value.protocol !== "string" || typeof value.version !== "number") {
    return { ok: false, error: "Handshake request is not valid." };
  }
  if (value.protocol !== JSON_PROTOCOL.name) {
    return { ok: false, error: `The protocol '${value.protocol}' is not supported.` };
  }
  if (!(JSON_PROTOCOL.versions as readonly number[]).includes(value.version)) {
    return {
      ok: false,
      error: `The server does not support version ${value.version} of the '${value.protocol}' protocol.`,
    };
  }
  return { ok: true, value: { protocol: value.protocol, version: value.version } };
}

/** The handshake response: `{}` when the handshake is accepted, `{error}` when it is refused. */
export function handshakeResponse(error?: string): Record<string, unknown> {
  return error === undefined ? {} : { error };
}

/** Parses one hub message record sent by a client after the handshake. */
export function parseClientMessage(text: string): ParseResult<ClientHubMessage> {
  const value = parseObject(text);
  if (!value || typeof value.type !== "number") return { ok: false, error: "Invalid hub message." };
  const invocationId = typeof value.invocationId === "string" ? value.invocationId : null;
  switch (value.type) {
    case MessageType.Invocation:
    case MessageType.StreamInvocation:
      if (typeof value.target !== "string" || !Array.isArray(value.arguments)) {
        return { ok: false, error: "Invalid invocation message." };
      }
      return { ok: true, value: { type: value.type, target: value.target, invocationId } };
    case MessageType.Ping:
      return { ok: true, value: { type: MessageType.Ping } };
    case MessageType.Close:
      return {
        ok: true,
        value: { type: MessageType.Close, error: typeof value.error === "string" ? value.error : null },
      };
    case MessageType.StreamItem:
    case MessageType.Completion:
    case MessageType.CancelInvocation:
    case MessageType.Ack:
    case MessageType.Sequence:
      return { ok: true, value: { type: value.type } };
    default:
      return { ok: false, error: `Unknown message type '${value.type}'.` };
  }
}

/** Server → client invocation of a client method (no invocationId: the server does not wait for a result). */
export function invocationMessage(target: string, args: unknown[]): { type: 1; target: string; arguments: unknown[] } {
  return { type: MessageType.Invocation, target, arguments: args };
}

/** The completion that answers a client invocation with an error. */
export function completionError(invocationId: string, error: string): { type: 3; invocationId: string; error: string } {
  return { type: MessageType.Completion, invocationId, error };
}

/** The keep-alive ping; either side sends it when it has sent nothing else for a while. */
export const PING_MESSAGE = { type: MessageType.Ping } as const;

/**
 * The close message the server sends before it closes the transport. `allowReconnect` tells a client built with
 * `withAutomaticReconnect` whether it may reconnect (false when the user's access ended).
 */
export function closeMessage(error?: string, allowReconnect?: boolean): Record<string, unknown> {
  const message: Record<string, unknown> = { type: MessageType.Close };
  if (error !== undefined) message.error = error;
  if (allowReconnect !== undefined) message.allowReconnect = allowReconnect;
  return message;
}

/** The side of one connection that {@link handleClientRecord} acts on (connection.ts `HubClient`). */
export interface ProtocolPeer {
  /** Whether the handshake has been accepted. */
  readonly handshakeDone: boolean;
  /** Answers the handshake with `{}` and starts the keep-alive pings. */
  acceptHandshake(): void;
  /** Sends serialised records; false when the connection cannot take them. */
  sendText(text: string): boolean;
  /** Closes from the server side with a Close message (or `rawRecord` instead of it). */
  close(error?: string, allowReconnect?: boolean, rawRecord?: string): void;
  /** The client closed: ends the transport without a Close message of our own. */
  closedByClient(): void;
}

/**
 * The server's answer to one record a client sent. Before the handshake: a valid handshake request is accepted; any
 * other record is answered with the handshake error and the connection closes. After it: an invocation is answered
 * with an error Completion (the hubs only push; ASP.NET's wording for an unknown method), a Close ends the
 * connection, an invalid record closes it with the error (allowReconnect: false); pings, stream items, completions,
 * cancels, acks and sequence messages are ignored (the caller has already counted them as signs of life).
 */
export function handleClientRecord(peer: ProtocolPeer, record: string): void {
  if (!peer.handshakeDone) {
    const handshake = parseHandshakeRequest(record);
    if (!handshake.ok) {
      peer.close(undefined, undefined, writeRecord(handshakeResponse(handshake.error)));
      return;
    }
    peer.acceptHandshake();
    return;
  }
  const parsed = parseClientMessage(record);
  if (!parsed.ok) {
    peer.close(`Connection closed with an error. ${parsed.error}`, false);
    return;
  }
  const message = parsed.value;
  switch (message.type) {
    case MessageType.Invocation:
    case MessageType.StreamInvocation:
      // The hubs only push; a client invocation is answered the way ASP.NET answers an unknown method.
      if (message.invocationId !== null) {
        const error = `Failed to invoke '${message.target}' due to an error on the server. HubException: Method does not exist.`;
        peer.sendText(writeRecord(completionError(message.invocationId, error)));
      }
      return;
    case MessageType.Close:
      peer.closedByClient();
      return;
    default:
      return; // pings (already counted by touch), stream items, completions, cancels, acks, sequences
  }
}
