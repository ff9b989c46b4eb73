import { HUB_METHODS, HUB_PATHS, type TDeviceChangeMessage } from "@aquapilot/contract/wire";
import { HubChannel, type HubConnectionLike } from "./hub-channel.ts";
import { deviceChangeSchema, lazyHubConnection } from "./lazy-hub.ts";
import type { SessionCheck } from "./session-end.ts";

export type { HubConnectionLike } from "./hub-channel.ts";

/**
 * Real-time hub 1 (spec §7): `/signalr-hubs/device-chang-content-type-message`, method `DeviceChangContentTypeMessage`
 * whose single argument is a JSON string of the contract's `ZDeviceChangeMessage`. Bearer token, automatic reconnect, and the
 * channel state of spec §3/§4: none 0, connecting 1, connected 2.
 */

/**
 * Builds the SignalR connection of hub 1 with `accessTokenFactory` and `withAutomaticReconnect`; the SignalR client
 * and the schema load when it first starts, never with the first screen.
 */
export function createDeviceHubConnection(
  accessTokenFactory: () => string | Promise<string>,
  baseUrl = "",
): HubConnectionLike {
  return lazyHubConnection((m) => m.createHubConnection(HUB_PATHS.deviceChange, accessTokenFactory, baseUrl));
}

/** One hub-1 channel: {@link HubChannel} of device change messages. */
export class DeviceChangeChannel extends HubChannel<TDeviceChangeMessage> {
  /**
   * @param factory builds a new connection per start
   * @param retry wait before restarting after a failed start or a close, ms: fixed, or by retry number (default:
   *   jittered exponential backoff, forever, so a restarted server's clients come back spread out)
   * @param sessionCheck asked when the hub says the sign-in is over (hub-channel.ts); the app's: `sessionGoesOn`
   */
  constructor(
    factory: () => HubConnectionLike,
    retry?: number | ((attempt: number) => number),
    sessionCheck: SessionCheck | null = null,
  ) {
    super(
      { label: "hub 1", method: HUB_METHODS.deviceChange, schema: deviceChangeSchema },
      factory,
      retry,
      sessionCheck,
    );
  }
}
