/**
 * The development factory: registering a simulated device's identity with the cloud (docs/device-protocol.md §2,
 * `POST /dev/factory/devices`, never mounted in production).
 */
import type { DeviceIdentity } from "./fleet.ts";

/** The factory route of the development server. */
export const FACTORY_DEVICES_PATH = "/dev/factory/devices";

/**
 * Registers `device` with the cloud at `serverUrl` (e.g. http://127.0.0.1:8080) through
 * `POST /dev/factory/devices` `{mac, secret, model, serialNumber, deviceSerialNumber}`; registering again replaces
 * the secret. The secret travels in the request body only, never in an error message.
 * @throws Error "registering MAC failed: HTTP status …" when the server refuses, or fetch's TypeError when it cannot
 *   be reached.
 */
export async function registerAtFactory(
  serverUrl: string,
  device: Pick<DeviceIdentity, "mac" | "secret"> & Partial<DeviceIdentity>,
): Promise<void> {
  const res = await fetch(new URL(FACTORY_DEVICES_PATH, serverUrl), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      mac: device.mac,
      secret: device.secret,
      model: device.model,
      serialNumber: device.serialNumber,
      deviceSerialNumber: device.deviceSerialNumber,
    }),
  });
  if (!res.ok) throw new Error(`registering ${device.mac} failed: HTTP ${res.status} ${await res.text()}`);
}
