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
   * Sends a command and waits for its acknowledgement, at most `timeoutMs` (default 10 000 ms), and within the same
   * time for a state report showing its effect: `applied` says whether the command is done (docs/device-protocol.md
   * §3.5 "Command statuses").
   * @throws AppError DeviceOffline when the device is offline or does not answer in time.
   */
  sendCommandAndWait(input: {
    deviceId: string;
    name: DeviceCommandName;
    params?: Record<string, unknown>;
    userId?: string | null;
    commandId?: string;
    timeoutMs?: number;
  }): Promise<{ commandId: string; ok: boolean; error: string | null; applied?: boolean }>;
}

/**
 * What the modules need from the broker (implemented in src/iot): give it a device's account at the moments
 * the server holds the device's clear secret (factory registration, the demo fleet, activation). With a broker that
 * needs nothing (the embedded one) it resolves true at once.
 */
export interface DeviceAccountsPort {
  /**
   * Writes the device's broker account (username and client id = MAC, password = `secret`, an ACL of its own topics).
   * Never throws: a broker that is down or refuses gets it again later (retried with backoff).
   * @returns true when the broker confirmed it, false when it was queued for a retry.
   */
  provision(mac: string, secret: string): Promise<boolean>;
}
