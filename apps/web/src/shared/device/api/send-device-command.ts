import { endpoints, type TCommandStatus } from "@aquapilot/contract/wire";
import { api } from "../../api/client.ts";
import type { CommandKind } from "../command-state.ts";
import { controlDevice } from "./control-device.ts";

/**
 * Sends one control of spec §4 with the caller's command id (the idempotency key: a repeat is never applied twice)
 * and resolves with the device's outcome {commandId, status, error, message}; the server waits for the device's
 * acknowledgement. Vacation, regeneration and firmware update have endpoints of their own; flushing, switching and
 * time sync go through `control-device` ({@link controlDevice}). Time sync sends the phone's time (`nowIso`).
 * Errors: ApiError from the client — code "DeviceOffline" (409) when the device is offline or silent.
 */
export async function sendDeviceCommand(
  deviceId: string,
  kind: CommandKind,
  commandId: string,
  nowIso: string = new Date().toISOString(),
): Promise<TCommandStatus> {
  const query = { deviceId, commandId };
  // The command id is also the idempotency key: a resend of this command is never run twice.
  const idempotencyKey = commandId;
  switch (kind) {
    case "vacationEnter":
      return api(endpoints.changeVacation, { query, idempotencyKey });
    case "vacationExit":
      return api(endpoints.exitVacation, { query, idempotencyKey });
    case "forcedRegeneration":
      return api(endpoints.forcedRegeneration, { query, idempotencyKey });
    case "ota":
      return api(endpoints.deviceOta, { query, idempotencyKey });
    case "forcedFlushing":
      return controlDevice(deviceId, commandId, { command: "forced-flushing" });
    case "forcedSwitch":
      return controlDevice(deviceId, commandId, { command: "forced-switch" });
    case "timeSync":
      return controlDevice(deviceId, commandId, { command: "sync-time", params: { time: nowIso } });
  }
}
