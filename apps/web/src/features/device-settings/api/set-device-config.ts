import { endpoints, type TCommandStatus, type TDeviceChangeMessage } from "@aquapilot/contract/wire";
import { api } from "../../../shared/api/client.ts";
import { deviceChannel } from "../../../shared/realtime/index.ts";
import type { SettingsRecord } from "../settings-fields.ts";

/** How long the screen waits for the device's acknowledgement before reading the command's stored status, ms. */
export const CONFIG_ACK_TIMEOUT_MS = 20_000;
/** Interval of the command-status poll while waiting, ms. */
const POLL_MS = 2_000;

/** A random v4-style command id (spec §9 "Generated ids are random v4 style"): the command's idempotency key. */
export function newCommandId(): string {
  return crypto.randomUUID();
}

/**
 * Sends changed advanced settings to the device: `POST
 * /api/run-lucky/device/app/device-control/control-device?deviceId=&commandId=` with body
 * `{command: "set-config", params: {settings}}` (spec §7). The server checks the model's bounds first (a wrong value
 * answers "Please enter the correct configuration" and nothing is sent). Resolves the first status (usually
 * "pending"; the same `commandId` sent again is never applied twice). No global loading indicator: the screen's save
 * bar shows the progress.
 */
export async function sendDeviceConfig(
  deviceId: string,
  settings: SettingsRecord,
  commandId: string = newCommandId(),
): Promise<TCommandStatus> {
  return api(endpoints.controlDevice, {
    query: { deviceId, commandId },
    body: { command: "set-config", params: { settings } },
  });
}

/**
 * Waits until the command is done or failed: the device's acknowledgement on hub 1 (`kind: "ack"` with this
 * command id), or the stored status from `get-command-status`, polled every 2 s. After `timeoutMs` without an
 * outcome resolves "failed" with `error: "timeout"` (the screen says "Device offline"). Never throws.
 */
export function waitForCommand(commandId: string, timeoutMs = CONFIG_ACK_TIMEOUT_MS): Promise<TCommandStatus> {
  return new Promise((resolve) => {
    let finished = false;
    const channel = deviceChannel();
    const finish = (status: TCommandStatus) => {
      if (finished) return;
      finished = true;
      off();
      clearInterval(poll);
      clearTimeout(timer);
      resolve(status);
    };
    void channel.start();
    const off = channel.onMessage((message: TDeviceChangeMessage) => {
      if (message.kind !== "ack" || message.ack?.commandId !== commandId) return;
      finish({
        commandId,
        status: message.ack.ok ? "done" : "failed",
        error: message.ack.error,
        message: null,
      });
    });
    const poll = setInterval(() => {
      api(endpoints.getCommandStatus, { query: { commandId } })
        .then((record) => {
          if (record.status !== "pending") finish(record);
        })
        .catch(() => {});
    }, POLL_MS);
    const timer = setTimeout(() => finish({ commandId, status: "failed", error: "timeout", message: null }), timeoutMs);
  });
}
