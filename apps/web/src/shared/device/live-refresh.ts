import type { TDeviceChangeMessage } from "@aquapilot/contract/wire";

/** Hub-1 event types after which the statistics, salt and regeneration timeline change (spec §7 hub 1). */
export const STATISTICS_EVENTS: ReadonlySet<string> = new Set(["regeneration-start", "regeneration-end"]);

/**
 * Whether a hub-1 message (spec §7) means the Device screen's statistics, salt status and regeneration cycles of
 * `deviceId` are stale: an "event" of a regeneration start or end, or a successful command acknowledgement
 * ("ack" with ok). Messages for other devices, states, online flags and refusals answer false.
 */
export function refreshesStatistics(message: TDeviceChangeMessage, deviceId: string): boolean {
  if (message.deviceId !== deviceId) return false;
  if (message.kind === "event") return Boolean(message.event && STATISTICS_EVENTS.has(message.event.type));
  if (message.kind === "ack") return message.ack?.ok === true;
  return false;
}
