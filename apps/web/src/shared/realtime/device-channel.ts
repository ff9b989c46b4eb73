import { HUB_METHODS, HUB_PATHS, type TDeviceChangeMessage, ZDeviceChangeMessage } from "@aquapilot/contract";
import { createHubConnection, HubChannel, type HubConnectionLike } from "./hub-channel.js";

export type { HubConnectionLike } from "./hub-channel.js";

/**
 * Real-time hub 1 (spec §7): `/signalr-hubs/device-chang-content-type-message`, method `DeviceChangContentTypeMessage`
 * whose single argument is a JSON string of {@link ZDeviceChangeMessage}. Bearer token, automatic reconnect, and the
 * channel state of spec §3/§4: none 0, connecting 1, connected 2.
 */

/** Builds the real SignalR connection of hub 1 with `accessTokenFactory` and `withAutomaticReconnect`. */
export function createDeviceHubConnection(
  accessTokenFactory: () => string | Promise<string>,
  baseUrl = "",
): HubConnectionLike {
  return createHubConnection(HUB_PATHS.deviceChange, accessTokenFactory, baseUrl);
}

/** One hub-1 channel: {@link HubChannel} of device change messages. */
export class DeviceChangeChannel extends HubChannel<TDeviceChangeMessage> {
  /**
   * @param factory builds a new connection per start
   * @param retry wait before restarting after a failed start or a close, ms: fixed, or by retry number (default:
   *   jittered exponential backoff, forever; issue 11)
   */
  constructor(factory: () => HubConnectionLike, retry?: number | ((attempt: number) => number)) {
    super({ label: "hub 1", method: HUB_METHODS.deviceChange, schema: ZDeviceChangeMessage }, factory, retry);
  }
}
