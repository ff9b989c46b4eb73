/**
 * The hub server's timings and limits ({@link HubOptions}) and their defaults: ASP.NET Core SignalR's where it has the
 * same setting (keep-alive, client timeout, handshake timeout, message size), this server's own for the rest.
 */

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
export const LIMIT_RETRY_AFTER_SECONDS = 5;

/**
 * `options` with every unset field at its default: keep-alive 15 000 ms, client timeout 30 000 ms, handshake and
 * negotiate timeouts 15 000 ms, 32 768 characters per message, 1 MiB of unsent output, {@link MAX_CONNECTIONS_PER_USER}
 * connections per user. Values given are taken as they are (not checked).
 */
export function resolveHubOptions(options: HubOptions): Required<HubOptions> {
  return {
    keepAliveIntervalMs: options.keepAliveIntervalMs ?? 15_000,
    clientTimeoutMs: options.clientTimeoutMs ?? 30_000,
    handshakeTimeoutMs: options.handshakeTimeoutMs ?? 15_000,
    negotiateTimeoutMs: options.negotiateTimeoutMs ?? 15_000,
    maxMessageChars: options.maxMessageChars ?? 32 * 1024,
    maxBufferedBytes: options.maxBufferedBytes ?? 1024 * 1024,
    maxConnectionsPerUser: options.maxConnectionsPerUser ?? MAX_CONNECTIONS_PER_USER,
  };
}
