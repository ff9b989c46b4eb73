import type { DeviceCommandName } from "@aquapilot/contract";

/**
 * What the REST side needs from the device link (implemented in src/iot): send a command to a device and learn
 * its outcome. Commands carry an id that is the device's idempotency key (docs/device-protocol.md).
 */
export interface DeviceCommandPort {
  /**
   * Records the command (status pending) and publishes it to the device's `cmd` topic (QoS 1).
   * Resolves once published; the acknowledgement arrives later on the bus as a `device.changed` event of kind "ack".
   * @param deviceId devices.id
   * @param commandId optional idempotency key chosen by the caller; a repeated id is not sent twice.
   * @throws AppError DeviceOffline when the device is not connected.
   */
  sendCommand(input: {
    deviceId: string;
    name: DeviceCommandName;
    params?: Record<string, unknown>;
    userId?: string | null;
    commandId?: string;
  }): Promise<{ commandId: string }>;
  /**
   * Sends a command and waits for its acknowledgement, at most `timeoutMs` (default 10 000 ms).
   * @throws AppError DeviceOffline when the device is offline or does not answer in time.
   */
  sendCommandAndWait(input: {
    deviceId: string;
    name: DeviceCommandName;
    params?: Record<string, unknown>;
    userId?: string | null;
    commandId?: string;
    timeoutMs?: number;
  }): Promise<{ commandId: string; ok: boolean; error: string | null }>;
}
