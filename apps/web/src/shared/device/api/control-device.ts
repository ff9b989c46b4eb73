import { type BodyOf, endpoints, type TCommandStatus } from "@aquapilot/contract/wire";
import { api } from "../../api/client.ts";

/** Body of `control-device` (spec §4, §7): the command and its parameters. */
export type ControlDeviceBody = BodyOf<typeof endpoints.controlDevice>;

/**
 * `POST …/device-control/control-device?deviceId&commandId` with `{command, params?}` (spec §4, §7): the one fetcher
 * of the endpoint (the Device screen's controls and the settings' "set-config"). The command id is also the
 * idempotency key: a resend of the command is never applied twice. Resolves the device's outcome
 * `{commandId, status, error, message}`. No loading indicator: the screens show their own progress.
 * Errors: ApiError from the client — code "DeviceOffline" (409) when the device is offline or silent; the server's
 * bounds message for a wrong setting (nothing is sent to the device).
 */
export function controlDevice(deviceId: string, commandId: string, body: ControlDeviceBody): Promise<TCommandStatus> {
  return api(endpoints.controlDevice, { query: { deviceId, commandId }, idempotencyKey: commandId, body });
}
