import type { TDeviceChangeMessage } from "@aquapilot/contract/wire";

/** Hub-1 event types after which the statistics, salt and regeneration timeline change (spec §7 hub 1). */
export const STATISTICS_EVENTS: ReadonlySet<string> = new Set(["regeneration-start", "regeneration-end"]);

/**
 * Commands that change nothing the device stores (docs/device-protocol.md §3.5): `query` asks for a report, sent each
 * time a phone opens the Device screen (query-device-info); its acknowledgement refreshes nothing.
 */
export const REPORT_COMMANDS: ReadonlySet<string> = new Set(["query"]);

/**
 * Whether a hub-1 message (spec §7) means the Device screen's statistics, salt status and regeneration cycles of
 * `deviceId` are stale: an "event" of a regeneration start or end, or a successful command acknowledgement
 * ("ack" with ok) of a command that may have changed them (not {@link REPORT_COMMANDS}; an ack without the command's
 * name counts). Messages for other devices, states, online flags and refusals answer false.
 */
export function refreshesStatistics(message: TDeviceChangeMessage, deviceId: string): boolean {
  if (message.deviceId !== deviceId) return false;
  if (message.kind === "event") return Boolean(message.event && STATISTICS_EVENTS.has(message.event.type));
  if (message.kind === "ack") return message.ack?.ok === true && !REPORT_COMMANDS.has(message.ack.command ?? "");
  return false;
}
