import { HubConnectionBuilder, LogLevel } from "@microsoft/signalr";
import type { HubConnectionLike } from "./hub-channel.ts";
import { ForeverRetryPolicy } from "./retry-policy.ts";

/**
 * The heavy half of the real-time channels: the official SignalR client. Loaded on demand by
 * {@link lazyHubConnection} when a channel first starts — after the first screen has painted — never on the first
 * screen itself.
 */

/**
 * Builds a real SignalR connection to the hub at `path` (spec §7 hubs 1 and 2) with `accessTokenFactory` (bearer
 * token) and automatic reconnect with the app's own policy: jittered exponential backoff up to 30 s, forever
 * ({@link ForeverRetryPolicy}). `baseUrl`: the API host ("" = the page's origin; a native shell's cloud), prefixed to
 * `path` for the negotiate and the WebSocket; sent without cookies (`withCredentials: false`).
 */
export function createHubConnection(
  path: string,
  accessTokenFactory: () => string | Promise<string>,
  baseUrl = "",
): HubConnectionLike {
  return (
    new HubConnectionBuilder()
      // No cookies: the hubs authenticate by bearer token only, so a cross-origin negotiate (the native shells' API
      // host) needs no credentialed CORS; on the page's own origin nothing changes.
      .withUrl(baseUrl + path, { accessTokenFactory, withCredentials: false })
      .withAutomaticReconnect(new ForeverRetryPolicy())
      .configureLogging(LogLevel.Warning)
      .build()
  );
}
