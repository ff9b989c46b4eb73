import { BLSYNC_READ_UUID, BLSYNC_SERVICE_UUID, BLSYNC_WRITE_UUID, SETUP_AP_SSID } from "@aquapilot/provisioning";
import { BleClient } from "@capacitor-community/bluetooth-le";
import type { BleTransport } from "../logic/ble-flow.ts";
import { type BluetoothErrorKind, classifyBluetoothError } from "../logic/bluetooth-errors.ts";

/**
 * Bluetooth through `@capacitor-community/bluetooth-le`: its web implementation is Web Bluetooth (Chrome on
 * Android), its native one the shells' BLE, so one code path serves both. The module advertises
 * "WiFi-BL3372-XXXX" with the provisioning service (docs/device-protocol.md §13.2).
 */

/** Name prefix the chooser filters on: every new module in setup mode ("WiFi-BL3372-…"). */
export const MODULE_NAME_PREFIX = SETUP_AP_SSID;

/** The module the owner chose: the plugin's device id (same device on reconnect, no chooser) and its name. */
export interface ChosenModule {
  deviceId: string;
  name: string | null;
}

/** How long opening the GATT link may take, ms. */
const CONNECT_TIMEOUT_MS = 12_000;

let initialized = false;

async function initialize(): Promise<void> {
  await BleClient.initialize();
  initialized = true;
}

/**
 * Whether Bluetooth can be used now (spec §8): "on", "off" (the radio is switched off; known natively only: the web
 * implementation always reports it on), or the {@link BluetoothErrorKind} of `initialize()` — "unsupported" (no Web
 * Bluetooth), "unavailable" (no radio available), "permission" (refused). Never rejects.
 */
export async function bluetoothStatus(): Promise<"on" | "off" | BluetoothErrorKind> {
  try {
    await initialize();
  } catch (err) {
    console.warn("[network-setup] Bluetooth cannot start", err);
    return classifyBluetoothError(err);
  }
  try {
    return (await BleClient.isEnabled()) ? "on" : "off";
  } catch (err) {
    return classifyBluetoothError(err);
  }
}

/**
 * Opens the chooser of modules in setup mode (`requestDevice({namePrefix: "WiFi-BL3372", optionalServices:
 * [provisioning service]})`). Must run from a tap (Web Bluetooth needs the user's gesture). Answers the chosen
 * module, or why there is none: "cancelled" (chooser closed), "unavailable", "unsupported", "permission", "failed".
 */
export async function chooseModule(): Promise<ChosenModule | { error: BluetoothErrorKind }> {
  try {
    if (!initialized) await initialize();
    const device = await BleClient.requestDevice({
      namePrefix: MODULE_NAME_PREFIX,
      optionalServices: [BLSYNC_SERVICE_UUID],
    });
    return { deviceId: device.deviceId, name: device.name ?? null };
  } catch (err) {
    console.warn("[network-setup] no module chosen", err);
    return { error: classifyBluetoothError(err) };
  }
}

function toDataView(bytes: Uint8Array): DataView {
  const copy = new Uint8Array(bytes);
  return new DataView(copy.buffer);
}

/**
 * The {@link BleTransport} of a chosen module over BleClient: writes to the write characteristic, reads the read
 * characteristic (the app polls, never relies on notifications), reports drops it did not cause itself, and tells the
 * link's negotiated MTU where the platform knows it (the native shells; null under Web Bluetooth).
 */
export function createBleClientTransport(module: ChosenModule): BleTransport {
  const listeners = new Set<() => void>();
  let closing = false;
  const onDrop = () => {
    if (closing) return;
    for (const l of [...listeners]) l();
  };
  return {
    async connect() {
      closing = false;
      await BleClient.connect(module.deviceId, onDrop, { timeout: CONNECT_TIMEOUT_MS });
    },
    async write(frame) {
      await BleClient.write(module.deviceId, BLSYNC_SERVICE_UUID, BLSYNC_WRITE_UUID, toDataView(frame));
    },
    async read() {
      const view = await BleClient.read(module.deviceId, BLSYNC_SERVICE_UUID, BLSYNC_READ_UUID);
      return new Uint8Array(view.buffer.slice(view.byteOffset, view.byteOffset + view.byteLength));
    },
    async disconnect() {
      closing = true;
      try {
        await BleClient.disconnect(module.deviceId);
      } catch {
        // already gone
      }
      // The browser reports the drop as an event a moment later: let it arrive while `closing` holds.
      await new Promise((r) => setTimeout(r, 50));
    },
    onDisconnect(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async negotiatedMtu() {
      // The native shells' plugin reads the link's MTU; its web implementation (Web Bluetooth) cannot, and refuses.
      try {
        return await BleClient.getMtu(module.deviceId);
      } catch {
        return null;
      }
    },
  };
}
