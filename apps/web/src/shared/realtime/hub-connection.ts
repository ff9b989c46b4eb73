import { HubConnectionBuilder, LogLevel } from "@microsoft/signalr";
import type { HubConnectionLike } from "./hub-channel.ts";
import { ForeverRetryPolicy } from "./retry-policy.ts";

/**
 * The heavy half of the real-time channels (issue 12): the official SignalR client. Loaded on demand by
 * {@link lazyHubConnection} when a channel first starts — after the first screen has painted — never on the first
 * screen itself.
 */

/**
 * Builds a real SignalR connection to the hub at `path` (spec §7 hubs 1 and 2) with `accessTokenFactory` (bearer
 * token) and automatic reconnect with the app's own policy: jittered exponential backoff up to 30 s, forever
 * ({@link ForeverRetryPolicy}, issue 11).
 */
export function createHubConnection(
  path: string,
  accessTokenFactory: () => string | Promise<string>,
  baseUrl = "",
): HubConnectionLike {
  return new HubConnectionBuilder()
    .withUrl(baseUrl + path, { accessTokenFactory })
    .withAutomaticReconnect(new ForeverRetryPolicy())
    .configureLogging(LogLevel.Warning)
    .build();
}
