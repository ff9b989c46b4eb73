import { endpoints, type TSaltStatus } from "@aquapilot/contract/wire";
import { api } from "../../../shared/api/client.ts";

/**
 * `PUT …/device-control/set-salt-reminder?deviceId&days`: the household's low-salt reminder — salt counts
 * as low (and the once-per-refill message goes out) when it runs out within `days` days, 1–30. Resolves with the new
 * salt status. Errors: ApiError — 400 with the server's text in the user's language for a value outside 1–30, 403
 * for a caller who is not a member.
 */
export function setSaltReminder(deviceId: string, days: number): Promise<TSaltStatus> {
  return api(endpoints.setSaltReminder, { query: { deviceId, days } });
}
