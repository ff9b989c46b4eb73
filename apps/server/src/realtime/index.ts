/** Real-time hubs (spec §7): the ASP.NET Core SignalR server protocol on `ws`. See {@link registerHubs}. */

export type { HubName } from "./connection.ts";
export {
  type ConnectionTokenClaims,
  deriveConnectionTokenKey,
  redisConnectionTokenClaims,
} from "./connection-token.ts";
export { accountHubAuth, type HubAuth } from "./hub-auth.ts";
export { type HubOptions, MAX_CONNECTIONS_PER_USER } from "./hub-options.ts";
export { type Hubs, registerHubs } from "./hubs.ts";
