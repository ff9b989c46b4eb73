import type { TCommandStatus } from "@aquapilot/contract/wire";
import { controlDevice } from "../../../shared/device/api/control-device.ts";
import { newCommandId } from "../../../shared/device/command-state.ts";
import type { SettingsRecord } from "../settings-fields.ts";

/**
 * Sends changed advanced settings to the device: `POST
 * /api/run-lucky/device/app/device-control/control-device?deviceId=&commandId=` with body
 * `{command: "set-config", params: {settings}}` (spec §7), through the endpoint's one fetcher (shared/device/api).
 * The server checks the model's bounds first (a wrong value answers "Please enter the correct configuration" and
 * nothing is sent). Resolves the first status (usually "pending"; the same `commandId` sent again is never applied
 * twice). No global loading indicator: the screen's save bar shows the progress. Errors: ApiError from the client.
 */
export async function sendDeviceConfig(
  deviceId: string,
  settings: SettingsRecord,
  commandId: string = newCommandId(),
): Promise<TCommandStatus> {
  return controlDevice(deviceId, commandId, { command: "set-config", params: { settings } });
}
