/**
 * Whether Chromium's Bluetooth emulation still answers on `session`, probed by setting the adapter to powered-on.
 * Seen in Chromium 156: once a page that used Web Bluetooth loads another document (a reload), the session's
 * emulation stops working — commands answer "BluetoothEmulation not enabled" while `enable` answers "already
 * enabled" — and its peripherals are gone; a new browser-level session can enable it again and attach anew. A probe
 * left unanswered for 5 s counts as not alive.
 */
export async function isBluetoothEmulationAlive(session: CdpSession): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const unanswered = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), EMULATION_PROBE_TIMEOUT_MS);
  });
  const probe = session.send("BluetoothEmulation.setSimulatedCentralState", { state: "powered-on" }).then(
    () => true,
    () => false,
  );
  try {
    return await Promise.race([probe, unanswered]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * How long {@link isBluetoothEmulationAlive} waits for the probe's answer: an emulation torn down while the page
 * reloads may never answer, and one that does not answer cannot be used either.
 */
const EMULATION_PROBE_TIMEOUT_MS = 5000;

/**
 * Makes a new-generation {@link SetupModeDevice} appear to Chromium's Web Bluetooth through the DevTools
 * `BluetoothEmulation` domain (docs/device-protocol.md §13.6): Chromium plays the radio, the simulated
 * module answers its GATT operations. Works on a browser-level CDP session (playwright-core
 * `browser.newBrowserCDPSession()`), e.g. from `npm run sim -- --setup-mode --browser http://127.0.0.1:9222` or a
 * browser test.
 */
import {
  BLSYNC_READ_UUID,
  BLSYNC_SERVICE_UUID,
  BLSYNC_WRITE_UUID,
  CCC_DESCRIPTOR_UUID,
  fromBase64,
  toBase64,
} from "@aquapilot/provisioning";
import type { SetupModeDevice } from "./setup-device.ts";

/**
 * The part of a Chrome DevTools Protocol session the peripheral needs; playwright-core's `CDPSession` satisfies it.
 * `send` resolves with the command's result object.
 */
export interface CdpSession {
  send(method: string, params?: Record<string, unknown>): Promise<unknown>;
  on(event: string, handler: (params: unknown) => void): unknown;
  off(event: string, handler: (params: unknown) => void): unknown;
}

/** States of the emulated Bluetooth adapter (BluetoothEmulation.CentralState). */
export type BluetoothAdapterState = "absent" | "powered-off" | "powered-on";

const GATT_EVENT = "BluetoothEmulation.gattOperationReceived";
/** How long no GATT operation must have happened before a simulated disconnection, ms (see `disconnect`). */
const QUIET_MS = 150;
/** The longest a simulated disconnection waits for that quiet moment, ms. */
const QUIET_WAIT_LIMIT_MS = 3000;
/** ATT error "Invalid Handle" (Core Vol 3 Part F 3.4.1.1), for an operation on a characteristic of an earlier link. */
const ATT_INVALID_HANDLE = 0x01;

/** HCI error "Connection Failed to be Established" (Core Vol 1 Part F), answered while the module is unconnectable. */
export const HCI_CONNECTION_FAILED = 0x3e;

/** Options of {@link attachBluetoothPeripheral}. */
export interface AttachBluetoothOptions {
  /**
   * The session already called `BluetoothEmulation.enable` (default false: it is called with powered-on and LE).
   * Enabling again after a `disable` crashes Chromium: switch the adapter with {@link setBluetoothAdapterState}.
   * (A session that already enabled it is tolerated: Chromium's "already enabled" refusal is ignored. A new session
   * after an earlier one closed may enable again.)
   */
  alreadyEnabled?: boolean;
  /** Diagnostics (never frame contents: they carry the Wi-Fi password). */
  log?: (message: string) => void;
}

/** The emulated peripheral, as returned by {@link attachBluetoothPeripheral}. */
export interface BluetoothPeripheral {
  /** Its BLE address, "AA:BB:CC:DD:EE:FF" (the Wi-Fi MAC + 1 on the last octet). */
  readonly address: string;
  /**
   * Drops the GATT link (BluetoothEmulation.simulateGATTDisconnection) between two operations of the page (after
   * 150 ms without one, waiting at most 3 s: Chromium's emulation leaves an operation in flight unsettled for good);
   * the page sees `gattserverdisconnected`. The module stays in range: the page may connect again and finds the
   * provisioning service again.
   */
  disconnect(): Promise<void>;
  /** While false, connection attempts fail with HCI 0x3E (out of range, or advertising stopped). */
  setConnectable(connectable: boolean): void;
  /**
   * The module leaves the browser's range: its provisioning service is removed and every later operation on its
   * address is refused — connections with HCI 0x3E, characteristic and descriptor operations with ATT 0x01 — never
   * left unanswered (Chromium would wait forever and hold every later Web Bluetooth call of the page).
   */
  detach(): Promise<void>;
}

interface GattOperationEvent {
  address: string;
  type: "connection" | "discovery";
}
interface CharacteristicOperationEvent {
  characteristicId: string;
  type: "read" | "write" | "subscribe-to-notifications" | "unsubscribe-from-notifications";
  data?: string;
  writeType?: string;
}
interface DescriptorOperationEvent {
  descriptorId: string;
  type: "read" | "write";
  data?: string;
}

/**
 * Sets the emulated adapter's state (BluetoothEmulation.setSimulatedCentralState): "absent" (no Bluetooth),
 * "powered-off" (Bluetooth switched off) or "powered-on". The domain must be enabled already.
 * @throws the CDP error when the domain is not enabled.
 */
export async function setBluetoothAdapterState(session: CdpSession, state: BluetoothAdapterState): Promise<void> {
  await session.send("BluetoothEmulation.setSimulatedCentralState", { state });
}

/**
 * Makes `device` (new generation, started) a preconnected BLE peripheral of the browser behind `session`
 * (docs/device-protocol.md §13.1, §13.6):
 * 1. `BluetoothEmulation.enable` {state: "powered-on", leSupported: true} unless `alreadyEnabled`;
 * 2. `simulatePreconnectedPeripheral` {address, name "WiFi-BL3372-XXXX", knownServiceUuids: [provisioning service]};
 * 3. the service, its write characteristic (write, write without response), its read characteristic (read, notify)
 *    and the read characteristic's CCC descriptor 0x2902;
 * 4. then answers every operation: connection and discovery with HCI 0 (0x3E for a connection while unconnectable),
 *    writes through `device.gatt.write`, reads through `device.gatt.read` (base64 `data`), (un)subscriptions with 0,
 *    descriptor reads with [0, 0] and writes with 0. After the answer to PROV_STOP was read the module drops the
 *    link and stops being connectable (it stops advertising).
 *
 * Chromium 156 shows the peripheral's name as "" in the chooser prompt (`device.name` is right in the page) and may
 * raise the chooser prompt event twice for one id.
 * @throws Error when `device` is of the old generation; the CDP error of a refused command (e.g. the domain is
 *   missing: Chromium without `--enable-features=WebBluetooth`, or a page-level session).
 */
export async function attachBluetoothPeripheral(
  session: CdpSession,
  device: SetupModeDevice,
  opts: AttachBluetoothOptions = {},
): Promise<BluetoothPeripheral> {
  if (device.generation !== "new") throw new Error("only a new-generation module has Bluetooth");
  const gatt = device.gatt;
  const address = device.bluetoothAddress;
  const log = opts.log;
  const send = <T>(method: string, params: Record<string, unknown>) =>
    session.send(`BluetoothEmulation.${method}`, params) as Promise<T>;
  const reply = (method: string, params: Record<string, unknown>) => {
    send(method, params).catch((err: Error) => log?.(`${address}: ${method} failed: ${err.message}`));
  };

  if (!opts.alreadyEnabled) {
    // A session that enabled the domain already gets "BluetoothEmulation already enabled": keep its adapter state.
    await send("enable", { state: "powered-on", leSupported: true }).catch((err: Error) => {
      if (!/already enabled/i.test(err.message)) throw err;
    });
  }
  await send("simulatePreconnectedPeripheral", {
    address,
    name: device.name,
    manufacturerData: [],
    knownServiceUuids: [BLSYNC_SERVICE_UUID],
  });
  // The GATT table. Chromium's emulation forgets a peripheral's services when it simulates a disconnection, while a
  // real module keeps its table across links; so the table is added again after every disconnection (new ids).
  const table = { serviceId: "", writeId: "", readId: "", descriptorId: "" };
  const addTable = async () => {
    const { serviceId } = await send<{ serviceId: string }>("addService", {
      address,
      serviceUuid: BLSYNC_SERVICE_UUID,
    });
    const { characteristicId: writeId } = await send<{ characteristicId: string }>("addCharacteristic", {
      serviceId,
      characteristicUuid: BLSYNC_WRITE_UUID,
      properties: { write: true, writeWithoutResponse: true },
    });
    const { characteristicId: readId } = await send<{ characteristicId: string }>("addCharacteristic", {
      serviceId,
      characteristicUuid: BLSYNC_READ_UUID,
      properties: { read: true, notify: true },
    });
    const { descriptorId } = await send<{ descriptorId: string }>("addDescriptor", {
      characteristicId: readId,
      descriptorUuid: CCC_DESCRIPTOR_UUID,
    });
    Object.assign(table, { serviceId, writeId, readId, descriptorId });
  };
  await addTable();

  let connectable = true;
  let dropping = false;
  let detached = false;
  // Answers to connection and discovery wait until the table is back after a disconnection (else a quick reconnect
  // discovers no service).
  let tableReady: Promise<void> = Promise.resolve();
  // When the page last had an operation with the module (real ms). Chromium's emulation never settles an operation
  // that is in flight when it simulates a disconnection (a real stack fails it) and then holds every later one, so
  // the link drops between operations: after a quiet moment (the app polls about once a second).
  let lastOperationAt = 0;
  const quietMoment = async () => {
    const giveUp = Date.now() + QUIET_WAIT_LIMIT_MS;
    while (Date.now() - lastOperationAt < QUIET_MS && Date.now() < giveUp) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };
  const disconnect = async () => {
    await quietMoment();
    gatt.reset();
    const readd = (async () => {
      await send("simulateGATTDisconnection", { address });
      if (!detached) await addTable();
    })();
    tableReady = readd.catch(() => undefined);
    await readd;
  };

  const onGatt = (event: GattOperationEvent) => {
    if (event.address.toUpperCase() !== address) return;
    void tableReady.then(() => {
      // Detached: the module is out of range. Chromium waits for an answer forever, so refuse rather than ignore.
      const refused = event.type === "connection" && (!connectable || detached);
      if (event.type === "connection" && !refused) gatt.reset(); // a new link: no half message, nothing to read
      reply("simulateGATTOperationResponse", { address, type: event.type, code: refused ? HCI_CONNECTION_FAILED : 0 });
    });
  };

  const onCharacteristic = (event: CharacteristicOperationEvent) => {
    lastOperationAt = Date.now();
    const uuid =
      event.characteristicId === table.writeId
        ? BLSYNC_WRITE_UUID
        : event.characteristicId === table.readId
          ? BLSYNC_READ_UUID
          : null;
    const base = { characteristicId: event.characteristicId, type: event.type };
    if (!uuid || detached) {
      // A characteristic of an earlier link (Chromium names them "<address>_<service>_<characteristic>"): the page
      // still holds its object after a disconnection. Fail the operation, as a real stack does; unanswered, Chromium
      // would hold every later operation of the page behind it.
      if (event.characteristicId.startsWith(`${address}_`)) {
        reply("simulateCharacteristicOperationResponse", { ...base, code: ATT_INVALID_HANDLE });
      }
      return;
    }
    if (event.type === "write") {
      let value: Uint8Array;
      try {
        value = fromBase64(event.data ?? "");
      } catch {
        value = new Uint8Array(0);
      }
      const written = gatt.write(uuid, value);
      reply("simulateCharacteristicOperationResponse", { ...base, code: written.code });
      if (written.crash && !dropping) {
        // The SDK's transfer layer crashed on the frame: the module restarts, the link is gone.
        dropping = true;
        setTimeout(() => {
          disconnect()
            .then(() => log?.(`${address}: the module crashed and restarted, link dropped`))
            .catch((err: Error) => log?.(`${address}: disconnect failed: ${err.message}`))
            .finally(() => {
              dropping = false;
            });
        }, 50);
      }
    } else if (event.type === "read") {
      const result = gatt.read(uuid);
      reply("simulateCharacteristicOperationResponse", {
        ...base,
        code: result.code,
        ...(result.value ? { data: toBase64(result.value) } : {}),
      });
      if (gatt.provisioningStopped && !gatt.hasPendingAnswer && !dropping) {
        // PROV_STOP answered and read: the module stops advertising and drops the link.
        dropping = true;
        connectable = false;
        setTimeout(() => {
          disconnect()
            .then(() => log?.(`${address}: provisioning stopped, link dropped`))
            .catch((err: Error) => log?.(`${address}: disconnect failed: ${err.message}`));
        }, 50);
      }
    } else {
      reply("simulateCharacteristicOperationResponse", { ...base, code: 0 });
    }
  };

  const onDescriptor = (event: DescriptorOperationEvent) => {
    if (event.descriptorId !== table.descriptorId || detached) {
      // A descriptor of an earlier link, or the module left: fail it rather than leave Chromium waiting.
      if (event.descriptorId.startsWith(`${address}_`)) {
        reply("simulateDescriptorOperationResponse", {
          descriptorId: event.descriptorId,
          type: event.type,
          code: ATT_INVALID_HANDLE,
        });
      }
      return;
    }
    reply("simulateDescriptorOperationResponse", {
      descriptorId: event.descriptorId,
      type: event.type,
      code: 0,
      ...(event.type === "read" ? { data: toBase64(new Uint8Array([0, 0])) } : {}),
    });
  };

  const listeners: Array<[string, (params: unknown) => void]> = [
    [GATT_EVENT, (p) => onGatt(p as GattOperationEvent)],
    ["BluetoothEmulation.characteristicOperationReceived", (p) => onCharacteristic(p as CharacteristicOperationEvent)],
    ["BluetoothEmulation.descriptorOperationReceived", (p) => onDescriptor(p as DescriptorOperationEvent)],
  ];
  for (const [event, handler] of listeners) session.on(event, handler);
  log?.(`${address}: ${device.name} is in range (Bluetooth emulation)`);

  return {
    address,
    disconnect,
    setConnectable(value: boolean) {
      connectable = value;
    },
    async detach() {
      if (detached) return;
      detached = true;
      // The listeners stay: they now refuse every operation on this address (never leave Chromium waiting: that
      // wedges the browser's Web Bluetooth for the page).
      await send("removeService", { serviceId: table.serviceId }).catch(() => undefined);
    },
  };
}
