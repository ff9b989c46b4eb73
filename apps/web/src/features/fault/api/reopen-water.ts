import { endpoints, type TCommandStatus } from "@aquapilot/contract/wire";
import { api } from "../../../shared/api/client.ts";

/**
 * `POST /api/run-lucky/device/app/fault/reopen-water?deviceId&commandId` (contract reopenWater): reopens a valve that
 * closed the water (the server sends forced-switch only while the valve is closed and waits for the device). The
 * command id is also the Idempotency-Key, so a resend after a lost answer never reopens twice.
 * Resolves the device's outcome; errors: ApiError — DeviceOffline (409, "press the button on the valve"), Conflict
 * (409, the water is not closed), 404 for a device not theirs.
 */
export function reopenWater(deviceId: string, commandId: string): Promise<TCommandStatus> {
  return api(endpoints.reopenWater, { query: { deviceId, commandId }, idempotencyKey: commandId });
}
