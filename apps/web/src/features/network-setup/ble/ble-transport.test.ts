import { BLSYNC_READ_UUID, BLSYNC_SERVICE_UUID, BLSYNC_WRITE_UUID } from "@aquapilot/provisioning";
import { beforeEach, describe, expect, it, vi } from "vitest";

const ble = vi.hoisted(() => ({
  initialize: vi.fn(async () => {}),
  isEnabled: vi.fn(async () => true),
  requestDevice: vi.fn(async (_o?: unknown) => ({ deviceId: "dev-1", name: "WiFi-BL3372-3372" })),
  connect: vi.fn(async (_id: string, _onDisconnect?: (id: string) => void, _o?: unknown) => {}),
  write: vi.fn(async (_id: string, _s: string, _c: string, _v: DataView) => {}),
  read: vi.fn(async (_id: string, _s: string, _c: string) => new DataView(new Uint8Array([1, 2, 3]).buffer)),
  disconnect: vi.fn(async (_id: string) => {}),
  getMtu: vi.fn(async (_id: string) => 185),
}));
vi.mock("@capacitor-community/bluetooth-le", () => ({ BleClient: ble }));

const { bluetoothStatus, chooseModule, createBleClientTransport } = await import("./ble-transport.ts");

const domError = (name: string, message: string) => Object.assign(new Error(message), { name });

beforeEach(() => {
  vi.clearAllMocks();
  vi.spyOn(console, "warn").mockImplementation(() => {});
});

describe("Bluetooth over BleClient", () => {
  it("chooses a module by name prefix with the provisioning service", async () => {
    expect(await chooseModule()).toEqual({ deviceId: "dev-1", name: "WiFi-BL3372-3372" });
    expect(ble.requestDevice).toHaveBeenCalledWith({
      namePrefix: "WiFi-BL3372",
      optionalServices: [BLSYNC_SERVICE_UUID],
    });
  });

  it("reports a cancelled chooser, a missing adapter and a browser without Web Bluetooth", async () => {
    ble.requestDevice.mockRejectedValueOnce(domError("NotFoundError", "User cancelled the requestDevice() chooser."));
    expect(await chooseModule()).toEqual({ error: "cancelled" });
    ble.requestDevice.mockRejectedValueOnce(domError("NotFoundError", "Bluetooth adapter not available."));
    expect(await chooseModule()).toEqual({ error: "unavailable" });
    ble.initialize.mockRejectedValueOnce(
      Object.assign(new Error("Web Bluetooth API not available in this browser."), { code: "UNAVAILABLE" }),
    );
    expect(await bluetoothStatus()).toBe("unsupported");
    ble.isEnabled.mockResolvedValueOnce(false);
    expect(await bluetoothStatus()).toBe("off");
    expect(await bluetoothStatus()).toBe("on");
  });

  it("writes and reads the provisioning characteristics and reports drops it did not cause", async () => {
    const transport = createBleClientTransport({ deviceId: "dev-1", name: null });
    const drops: number[] = [];
    transport.onDisconnect(() => drops.push(1));
    await transport.connect();
    const onDisconnect = ble.connect.mock.calls[0][1] as (id: string) => void;
    await transport.write(new Uint8Array([0x40, 0x00, 0x00, 0x80]));
    const [id, service, characteristic, value] = ble.write.mock.calls[0];
    expect([id, service, characteristic]).toEqual(["dev-1", BLSYNC_SERVICE_UUID, BLSYNC_WRITE_UUID]);
    expect(Array.from(new Uint8Array(value.buffer))).toEqual([0x40, 0x00, 0x00, 0x80]);
    expect(Array.from(await transport.read())).toEqual([1, 2, 3]);
    expect(ble.read).toHaveBeenCalledWith("dev-1", BLSYNC_SERVICE_UUID, BLSYNC_READ_UUID);
    onDisconnect("dev-1");
    expect(drops).toEqual([1]);
    await transport.disconnect();
    onDisconnect("dev-1");
    expect(drops).toEqual([1]);
    expect(ble.disconnect).toHaveBeenCalledWith("dev-1");
  });

  it("tells the link's MTU where the plugin knows it (native shells), else null (Web Bluetooth refuses)", async () => {
    const transport = createBleClientTransport({ deviceId: "dev-1", name: null });
    await transport.connect();
    expect(await transport.negotiatedMtu?.()).toBe(185);
    expect(ble.getMtu).toHaveBeenCalledWith("dev-1");
    ble.getMtu.mockRejectedValueOnce(
      Object.assign(new Error("getMtu is not available on web."), { code: "UNAVAILABLE" }),
    );
    expect(await transport.negotiatedMtu?.()).toBeNull();
  });
});
