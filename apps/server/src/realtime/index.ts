/** Real-time hubs (spec §7): the ASP.NET Core SignalR server protocol on `ws`. See {@link registerHubs}. */
export {
  type ConnectionTokenClaims,
  deriveConnectionTokenKey,
  redisConnectionTokenClaims,
} from "./connection-token.ts";
export { accountHubAuth } from "./hub-auth.ts";
export {
  type HubAuth,
  type HubName,
  type HubOptions,
  type Hubs,
  MAX_CONNECTIONS_PER_USER,
  registerHubs,
} from "./hubs.ts";
