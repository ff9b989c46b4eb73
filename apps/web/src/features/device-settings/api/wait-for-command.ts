import type { TCommandStatus, TDeviceChangeMessage } from "@aquapilot/contract/wire";
import { getCommandStatus } from "../../../shared/device/api/get-command-status.ts";
import { deviceChannel } from "../../../shared/realtime/index.ts";

/** How long the screen waits for the device's acknowledgement before reading the command's stored status, ms. */
export const CONFIG_ACK_TIMEOUT_MS = 20_000;
/** Interval of the command-status poll while waiting, ms. */
const POLL_MS = 2_000;

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
      getCommandStatus(commandId)
        .then((record) => {
          if (record.status !== "pending") finish(record);
        })
        .catch(() => {});
    }, POLL_MS);
    const timer = setTimeout(() => finish({ commandId, status: "failed", error: "timeout", message: null }), timeoutMs);
  });
}
