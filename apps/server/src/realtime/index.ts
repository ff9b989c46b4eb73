/** Real-time hubs (spec §7): the ASP.NET Core SignalR server protocol on `ws`. See {@link registerHubs}. */
export { type HubAuth, type HubName, type HubOptions, type Hubs, registerHubs } from "./hubs.js";
