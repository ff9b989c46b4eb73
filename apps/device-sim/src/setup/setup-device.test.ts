/**
 * The setup-mode softener of both generations against a real Aedes broker (which checks each device's MAC and
 * secret) and a local HTTP cloud playing the activation endpoints per the contract (test-cloud.ts): the new
 * generation driven through its GATT model as the app drives it, the old one over real loopback UDP
 * (docs/device-protocol.md §13.2–§13.4). Short timings.
 */
import dgram from "node:dgram";
import {
  BLSYNC_READ_UUID,
  BLSYNC_WRITE_UUID,
  BlsyncAssembler,
  BlsyncCommand,
  BlsyncData,
  type BlsyncMessage,
  commandFrames,
  dataFrames,
  decodeHelloAnswer,
  decodeSdkWifiState,
  decodeStatusExtension,
  encodeHelloPacket,
  encodeJoinPacket,
  type HelloAnswer,
  SETUP_AP_ADDRESS,
  setupTicketData,
  statusExtensionRequest,
  utf8,
  WifiSecurity,
} from "@aquapilot/provisioning";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { SimulatedDevice } from "../device.ts";
import type { BlsyncGattModel } from "./gatt-model.ts";
import { type ModuleFirmware, SetupModeDevice, type SetupModeDeviceOptions } from "./setup-device.ts";
import { SETUP_FAILURES, type SetupFailureName } from "./setup-failures.ts";
import type { SetupStatus } from "./setup-status.ts";
import type { SetupTiming } from "./setup-timing.ts";
import { startTestCloud, type TestCloud } from "./test-cloud.ts";

const FAST: Partial<SetupTiming> = {
  association: 30,
  apScanTimeout: 150,
  passwordReject: 60,
  dhcp: 20,
  dnsTimeout: 150,
  httpTimeout: 3000,
  connackTimeout: 700,
  moduleDeadline: 8000,
  apCloseAfterAck: 60,
  apReopenAfterFailedJoin: 250,
};

let cloud: TestCloud;
const devices: SetupModeDevice[] = [];

beforeAll(async () => {
  cloud = await startTestCloud();
});

afterEach(async () => {
  cloud.beginDelayMs = 0;
  await Promise.all(devices.splice(0).map((d) => d.stop()));
});

afterAll(async () => {
  await cloud?.close();
});

async function until<T>(probe: () => T | Promise<T>, timeoutMs = 5000, what = "condition"): Promise<NonNullable<T>> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v as NonNullable<T>;
    if (Date.now() > end) throw new Error(`${what} not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 15));
  }
}

/** A started setup-mode device whose "state" events are recorded (and added to the cloud's order log). */
async function makeDevice(
  extra: Partial<SetupModeDeviceOptions> = {},
): Promise<{ device: SetupModeDevice; seen: SetupStatus[] }> {
  const device = new SetupModeDevice({
    generation: "new",
    firmware: "product",
    serverUrl: cloud.serverUrl,
    timing: FAST,
    apPort: 0,
    lanPort: 0,
    softener: { seed: 1, tickMs: 50, reconnectPeriodMs: 0, family: { persons: 0 } },
    ...extra,
  });
  const seen: SetupStatus[] = [];
  device.on("state", (s: SetupStatus) => {
    seen.push(s);
    // whether the MQTT client had its CONNACK when the state was reported
    const mqtt = device.softener?.connected ? "mqtt" : "no-mqtt";
    cloud.order.push(`state${s.state}/${s.failure}/${mqtt}:${device.mac}`);
  });
  devices.push(device);
  await device.start();
  return { device, seen };
}

/** The app's side of the Bluetooth exchange: write a request, read its answer. */
class BleApp {
  private seq = 0;
  private readonly gatt: BlsyncGattModel;
  constructor(gatt: BlsyncGattModel) {
    this.gatt = gatt;
  }

  private request(frames: Uint8Array[]): BlsyncMessage {
    let last: BlsyncMessage | null = null;
    for (const frame of frames) {
      expect(this.gatt.write(BLSYNC_WRITE_UUID, frame).code).toBe(0);
      const assembler = new BlsyncAssembler();
      for (;;) {
        const r = this.gatt.read(BLSYNC_READ_UUID);
        expect(r.code).toBe(0);
        const message = assembler.push(r.value as Uint8Array);
        if (message) {
          last = message;
          break;
        }
      }
    }
    this.seq = (this.seq + frames.length) & 0xff;
    if (!last) throw new Error("no answer");
    return last;
  }

  command(command: number): number {
    return this.request(commandFrames(command as 3, this.seq)).id;
  }

  data(id: number, text: string): number {
    return this.request(dataFrames(id as 2 | 3, utf8(text), this.seq)).id;
  }

  /** Hands the module a setup ticket through the product's custom data. */
  ticket(ticket: string): number {
    return this.request(dataFrames(BlsyncData.CustomData, setupTicketData(ticket), this.seq)).id;
  }

  configure(ssid: string, password: string): void {
    expect(this.data(BlsyncData.StaWifiSsid, ssid)).toBe(0);
    expect(this.data(BlsyncData.StaWifiPassword, password)).toBe(0);
  }

  /** The SDK's Wi-Fi state answer (cJSON_Print of its six fields). */
  sdkState() {
    const answer = this.request(commandFrames(BlsyncCommand.WifiStateGet, this.seq));
    expect(answer.id).toBe(0);
    return decodeSdkWifiState(answer.data);
  }

  /** The product's status extension; null when the module answers the SDK's error (stock firmware). */
  extension() {
    const answer = this.request(dataFrames(BlsyncData.CustomData, statusExtensionRequest(), this.seq));
    return answer.id === 0 ? decodeStatusExtension(answer.data) : null;
  }

  /** What the product's app sees: the SDK's answer ("" for "0.0.0.0") with the extension's state and failure. */
  state(): AppView {
    const sdk = this.sdkState();
    const ext = this.extension();
    if (!ext) throw new Error("no status extension (stock firmware)");
    return { ...sdk, ip: sdk.ip === "0.0.0.0" ? "" : sdk.ip, ...ext };
  }

  /** Polls the Wi-Fi state (as the app does every second, here every 15 ms) until `done` holds. */
  waitFor(done: (s: AppView) => boolean, timeoutMs = 5000): Promise<AppView> {
    return until(() => {
      const s = this.state();
      return done(s) ? s : null;
    }, timeoutMs);
  }
}

type AppView = ReturnType<typeof decodeSdkWifiState> & ReturnType<typeof decodeStatusExtension>;

const failed = (s: AppView) => s.failure !== 0;

describe("new generation (Bluetooth)", () => {
  it("walks 0 → 4 on AquaHome: real activation, real MQTT with its own credentials, state 4 only after CONNACK", async () => {
    const { device, seen } = await makeDevice();
    expect(device.name).toMatch(/^WiFi-BL3372-[0-9A-F]{4}$/);
    expect(device.name.slice(-4)).toBe(device.mac.slice(-4));
    expect(cloud.registry.get(device.mac)).toBe(device.identity.secret); // registered at the factory
    const app = new BleApp(device.gatt);
    expect(app.state()).toMatchObject({ state: 0, failure: 0, ip: "" });
    app.configure("AquaHome", "softwater24");
    expect(app.state()).toMatchObject({ state: 1, ssid: "AquaHome", failure: 0 });
    expect(app.command(BlsyncCommand.ConnectWifi)).toBe(0);
    const connected = await app.waitFor((s) => s.state >= 3);
    expect(connected).toMatchObject({
      ip: "192.168.1.57",
      gw: "192.168.1.1",
      mask: "255.255.255.0",
      bssid: "A0:B1:C2:D3:E4:01",
      ssid: "AquaHome",
    });
    const done = await app.waitFor((s) => s.state === 4 || failed(s));
    expect(done.failure).toBe(0);
    expect(done.pairingCode).toBe(cloud.issued.get(device.mac));
    expect(done.pairingCode).toMatch(new RegExp(`^${device.mac}:[A-Za-z0-9_-]{22}$`));
    expect(device.pairingCode).toBe(done.pairingCode);

    // The broker accepted this very device with its own MAC and secret before state 4, which came with the
    // MQTT client connected (CONNACK received).
    const auth = cloud.auths.filter((a) => a.clientId === device.mac);
    expect(auth).toEqual([
      { clientId: device.mac, username: device.mac, password: device.identity.secret, accepted: true },
    ]);
    const accepted = cloud.order.indexOf(`accepted:${device.mac}`);
    const state4 = cloud.order.indexOf(`state4/0/mqtt:${device.mac}`);
    expect(accepted).toBeGreaterThanOrEqual(0);
    expect(state4).toBeGreaterThan(accepted);
    expect(cloud.order.filter((e) => e.endsWith(`:${device.mac}`) && e.includes("/mqtt"))).toEqual([
      `state4/0/mqtt:${device.mac}`,
    ]);
    expect(seen.map((s) => s.state)).toEqual([0, 1, 2, 3, 4]);
    expect(cloud.calls.filter((c) => c.body.mac === device.mac).map((c) => [c.path, c.status])).toEqual([
      ["/dev/factory/devices", 201],
      ["/iot/v1/activation/begin", 200],
      ["/iot/v1/activation/complete", 200],
    ]);

    // Then it is a softener like every other: online on the broker, answering its state.
    const softener = device.softener as SimulatedDevice;
    expect(softener.connected).toBe(true);
    expect(cloud.connected.has(device.mac)).toBe(true);
    const stopped = new Promise<void>((resolve) => device.once("provisioning-stopped", resolve));
    expect(app.command(BlsyncCommand.ProvStop)).toBe(0);
    await stopped;
    expect(device.gatt.provisioningStopped).toBe(true);
    await device.stop();
    expect(softener.connected).toBe(false);
    await until(() => !cloud.connected.has(device.mac), 2000, "broker sees the device leave");
  });

  it("stock firmware: the SDK's own answers only; the ticket reaches activation step two", async () => {
    const { device } = await makeDevice({ firmware: "stock" });
    const app = new BleApp(device.gatt);
    expect(app.sdkState()).toEqual({
      state: 3,
      ip: "0.0.0.0",
      gw: "0.0.0.0",
      mask: "0.0.0.0",
      ssid: "",
      bssid: "00:00:00:00:00:00",
    });
    expect(app.extension()).toBeNull();
    app.configure("AquaHome", "softwater24");
    expect(app.ticket("AbCdEfGhIjKlMnOpQrSt-_")).toBe(0);
    expect(app.command(BlsyncCommand.ConnectWifi)).toBe(0);
    const joined = await until(() => {
      const s = app.sdkState();
      return s.state === 4 ? s : null;
    });
    expect(joined).toMatchObject({ ip: "192.168.1.57", ssid: "AquaHome", bssid: "A0:B1:C2:D3:E4:01" });
    await until(() => device.state === 4, 5000, "state 4");
    const complete = cloud.calls.find((c) => c.body.mac === device.mac && c.path === "/iot/v1/activation/complete");
    expect(complete?.body.setupTicket).toBe("AbCdEfGhIjKlMnOpQrSt-_");
    expect(app.extension()).toBeNull(); // the pairing code never goes over Bluetooth from stock firmware
  });

  it("a retransmitted fragment crashes the module's SDK: it restarts with nothing configured", async () => {
    const { device } = await makeDevice({ firmware: "stock" });
    const frames = dataFrames(BlsyncData.StaWifiSsid, utf8("AquaHome"), 1);
    expect(device.gatt.write(BLSYNC_WRITE_UUID, frames[0]).code).toBe(0);
    const again = Uint8Array.from(frames[0]);
    again[0] |= 0x01;
    expect(device.gatt.write(BLSYNC_WRITE_UUID, again)).toEqual({ code: 0, crash: true });
    expect(device.setupStatus).toMatchObject({ state: 0, ssid: "" });
  });

  it("a wrong password alone gives failure 4; the right one then connects", async () => {
    const { device } = await makeDevice();
    const app = new BleApp(device.gatt);
    app.configure("AquaHome", "softwater42");
    const started = Date.now();
    app.command(BlsyncCommand.ConnectWifi);
    const s = await app.waitFor(failed);
    expect(s).toMatchObject({ failure: 4, state: 2, ip: "" });
    expect(Date.now() - started).toBeGreaterThanOrEqual(80); // association + the router's refusal
    expect(cloud.calls.some((c) => c.body.mac === device.mac && c.path.startsWith("/iot"))).toBe(false);
    // After a failure the state stays until a new SSID or password arrives.
    expect(app.state()).toMatchObject({ failure: 4, state: 2 });
    expect(app.data(BlsyncData.StaWifiPassword, "softwater24")).toBe(0);
    expect(app.state()).toMatchObject({ failure: 0, state: 1 });
    app.command(BlsyncCommand.ConnectWifi);
    expect(await app.waitFor((x) => x.state === 4 || failed(x))).toMatchObject({ state: 4, failure: 0 });
  });

  it.each([
    ["AquaHome-5G", "softwater24", "a 5 GHz-only network"],
    ["Nobody's WiFi", "whatever1", "an unknown network"],
  ])("%s: failure 3 after the AP-scan timeout (%s)", async (ssid, password) => {
    const { device } = await makeDevice();
    const app = new BleApp(device.gatt);
    app.configure(ssid, password);
    const started = Date.now();
    app.command(BlsyncCommand.ConnectWifi);
    expect(await app.waitFor(failed)).toMatchObject({ failure: 3, state: 2 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });

  it("CONNECT without an SSID is answered with 2; DISCONNECT aborts an attempt and returns to state 1", async () => {
    const { device } = await makeDevice({ timing: { ...FAST, association: 400 } });
    const app = new BleApp(device.gatt);
    expect(app.command(BlsyncCommand.ConnectWifi)).toBe(2);
    app.configure("AquaHome", "softwater24");
    app.command(BlsyncCommand.ConnectWifi);
    expect(app.state().state).toBe(2);
    expect(app.command(BlsyncCommand.DisconnectWifi)).toBe(0);
    expect(app.state()).toMatchObject({ state: 1, failure: 0 });
    await new Promise((r) => setTimeout(r, 500));
    expect(app.state()).toMatchObject({ state: 1, failure: 0, ip: "" }); // the aborted attempt did nothing more
  });

  it("a cloud host name that does not resolve gives failure 5 (real DNS)", async () => {
    const { device } = await makeDevice({ serverUrl: "http://aquapilot-cloud.invalid:8080", register: false });
    const app = new BleApp(device.gatt);
    app.configure("AquaHome", "softwater24");
    app.command(BlsyncCommand.ConnectWifi);
    expect(await app.waitFor(failed)).toMatchObject({ failure: 5, state: 3, ip: "192.168.1.57" });
  });

  const newFailures: Array<[SetupFailureName, number, number]> = [
    ["init", 1, 2],
    ["timeout", 2, 2],
    ["ap-timeout", 3, 2],
    ["password", 4, 2],
    ["dns", 5, 3],
    ["activation-1", 6, 3],
    ["activation-2", 7, 3],
    ["no-server-response", 8, 3],
  ];

  it("SETUP_FAILURES lists every failure code of spec §4 for the new generation", () => {
    const codes = SETUP_FAILURES.filter((f) => f.generations.includes("new")).map((f) => f.bleFailure);
    expect(codes).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(newFailures.map(([name]) => name)).toEqual(
      SETUP_FAILURES.filter((f) => f.generations.includes("new")).map((f) => f.name),
    );
  });

  it.each(newFailures)(
    "--fail %s gives failure %i (at state %i), with the right credentials",
    async (name, code, state) => {
      const { device } = await makeDevice({
        failure: name,
        timing: { ...FAST, moduleDeadline: name === "timeout" ? 400 : FAST.moduleDeadline },
      });
      const app = new BleApp(device.gatt);
      app.configure("AquaHome", "softwater24");
      const started = Date.now();
      app.command(BlsyncCommand.ConnectWifi);
      const s = await app.waitFor(failed);
      const elapsed = Date.now() - started;
      expect(s).toMatchObject({ failure: code, state });
      expect(device.failure).toBe(code);
      const calls = cloud.calls.filter((c) => c.body.mac === device.mac);
      const auths = cloud.auths.filter((a) => a.clientId === device.mac);
      switch (name) {
        case "init":
          expect(elapsed).toBeLessThan(100);
          break;
        case "timeout":
          expect(elapsed).toBeGreaterThanOrEqual(390);
          break;
        case "activation-1":
          // never registered: the cloud honestly does not know it
          expect(cloud.registry.has(device.mac)).toBe(false);
          expect(calls.map((c) => [c.path, c.status])).toEqual([["/iot/v1/activation/begin", 404]]);
          break;
        case "activation-2": {
          const complete = calls.find((c) => c.path === "/iot/v1/activation/complete");
          expect(complete?.status).toBe(401);
          expect(complete?.body.secret).not.toBe(device.identity.secret);
          break;
        }
        case "no-server-response":
          expect(calls.map((c) => c.status)).toEqual([201, 200, 200]); // activated …
          expect(elapsed).toBeGreaterThanOrEqual(690); // … then no CONNACK within the timeout
          break;
      }
      if (state === 2) expect(calls.filter((c) => c.path.startsWith("/iot"))).toEqual([]);
      if (name === "dns") expect(calls.filter((c) => c.path.startsWith("/iot"))).toEqual([]);
      expect(auths).toEqual([]); // the broker never saw it
      expect(device.softener).toBeNull();
      // The failure stays put.
      await new Promise((r) => setTimeout(r, 100));
      expect(app.state()).toMatchObject({ failure: code, state });
    },
  );

  it("refuses a failure that does not apply to its generation", () => {
    expect(() => new SetupModeDevice({ generation: "new", failure: "not-found", serverUrl: cloud.serverUrl })).toThrow(
      RangeError,
    );
    expect(
      () =>
        new SetupModeDevice({ generation: "new", failure: "bogus" as SetupFailureName, serverUrl: cloud.serverUrl }),
    ).toThrow(/unknown failure/);
  });

  it("runs stock firmware unless told otherwise and refuses an unknown firmware", () => {
    expect(new SetupModeDevice({ generation: "new", serverUrl: cloud.serverUrl }).firmware).toBe("stock");
    expect(new SetupModeDevice({ generation: "new", firmware: "product", serverUrl: cloud.serverUrl }).firmware).toBe(
      "product",
    );
    expect(
      () => new SetupModeDevice({ generation: "new", firmware: "beta" as ModuleFirmware, serverUrl: cloud.serverUrl }),
    ).toThrow(/firmware must be/);
  });
});

/** A phone's UDP socket on loopback. */
class Phone {
  private readonly socket: dgram.Socket;
  private constructor(socket: dgram.Socket) {
    this.socket = socket;
  }

  static async open(): Promise<Phone> {
    const socket = dgram.createSocket("udp4");
    await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", resolve));
    return new Phone(socket);
  }

  /** Sends `packet` (or several) to 127.0.0.1:`port` and collects every answer for `ms`. */
  async exchange(port: number, packet: Uint8Array | Uint8Array[], ms = 250): Promise<Uint8Array[]> {
    const answers: Uint8Array[] = [];
    const onMessage = (msg: Buffer) => answers.push(new Uint8Array(msg));
    this.socket.on("message", onMessage);
    for (const p of Array.isArray(packet) ? packet : [packet]) this.socket.send(p, port, "127.0.0.1");
    await new Promise((r) => setTimeout(r, ms));
    this.socket.off("message", onMessage);
    return answers;
  }

  /** Broadcasts hello (as from `localIp`) to `port`; the decoded answers. */
  async hello(port: number, localIp: string, ms = 150): Promise<HelloAnswer[]> {
    const packet = encodeHelloPacket({ time: new Date(), utcOffsetMinutes: 60, localIp, localPort: 0 });
    return (await this.exchange(port, packet, ms)).map(decodeHelloAnswer);
  }

  join(port: number, ssid: string, password: string, setupTicket: string | null = null): Promise<Uint8Array[]> {
    return this.exchange(port, encodeJoinPacket({ ssid, password, security: WifiSecurity.Wpa2, setupTicket }));
  }

  close(): void {
    this.socket.close();
  }
}

async function freeUdpPort(): Promise<number> {
  const s = dgram.createSocket("udp4");
  await new Promise<void>((resolve) => s.bind(0, "127.0.0.1", resolve));
  const port = s.address().port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

describe("old generation (access point and UDP)", () => {
  let phone: Phone;
  beforeAll(async () => {
    phone = await Phone.open();
  });
  afterAll(() => phone.close());

  it("stock firmware: answers hello on its access point, takes the join silently, then answers its own subnet", async () => {
    cloud.beginDelayMs = 300; // long enough to see cloud state 1
    const { device, seen } = await makeDevice({ generation: "old", firmware: "stock" });
    const ap = device.apPort as number;
    const lan = device.lanPort as number;
    expect(ap).toBeGreaterThan(0);
    expect(lan).toBeGreaterThan(0);
    expect(device.name).toBe("WiFi-BL3372");

    const [onAp] = await phone.hello(ap, "192.168.10.23");
    expect(onAp).toMatchObject({ mac: device.mac, name: "WiFi-BL3372", ip: SETUP_AP_ADDRESS, extension: null });
    expect(await phone.hello(lan, "192.168.1.23")).toEqual([]); // not on the home network yet

    // A stock module never answers a join.
    expect(await phone.join(ap, "AquaHome", "softwater24", "AbCdEfGhIjKlMnOpQrSt-_")).toEqual([]);
    await until(() => !device.apOpen, 1000, "access point closed");
    expect(await phone.hello(ap, "192.168.10.23")).toEqual([]);

    await until(() => device.state === 3, 2000, "on the home network");
    const [connecting] = await phone.hello(lan, "192.168.1.23");
    expect(connecting).toMatchObject({ mac: device.mac, ip: "192.168.1.57", extension: null });
    expect(await phone.hello(lan, "192.168.0.23")).toEqual([]); // a phone on another network is not answered

    await until(() => device.state === 4, 5000, "online");
    const [connected] = await phone.hello(lan, "192.168.1.23");
    expect(connected).toMatchObject({ mac: device.mac, extension: null }); // the code travels through the cloud only
    expect(device.pairingCode).toBe(cloud.issued.get(device.mac));
    const complete = cloud.calls.find((c) => c.body.mac === device.mac && c.path === "/iot/v1/activation/complete");
    expect(complete?.body.setupTicket).toBe("AbCdEfGhIjKlMnOpQrSt-_"); // the join packet's ticket, for the cloud
    expect(cloud.auths.filter((a) => a.clientId === device.mac)).toEqual([
      { clientId: device.mac, username: device.mac, password: device.identity.secret, accepted: true },
    ]);
    expect(cloud.order.indexOf(`state4/0/mqtt:${device.mac}`)).toBeGreaterThan(
      cloud.order.indexOf(`accepted:${device.mac}`),
    );
    expect(seen.map((s) => s.state)).toEqual([0, 1, 2, 3, 4]);
    expect(device.softener?.connected).toBe(true);
    expect(await phone.hello(lan, "192.168.0.23")).toEqual([]);
  });

  it("product firmware: acknowledges the join and adds the extension with the pairing code to its hello answers", async () => {
    const { device } = await makeDevice({ generation: "old", firmware: "product" });
    const ap = device.apPort as number;
    const [onAp] = await phone.hello(ap, "192.168.10.23");
    expect(onAp.extension).not.toBeNull();
    const answers = await phone.join(ap, "AquaHome", "softwater24", "AbCdEfGhIjKlMnOpQrSt-_");
    expect(answers).toHaveLength(1);
    await until(() => device.state === 4, 6000, "online");
    const [connected] = await phone.hello(device.lanPort as number, "192.168.1.23");
    expect(connected.extension).toMatchObject({ pairingCode: cloud.issued.get(device.mac) });
    const complete = cloud.calls.find((c) => c.body.mac === device.mac && c.path === "/iot/v1/activation/complete");
    expect(complete?.body.setupTicket).toBe("AbCdEfGhIjKlMnOpQrSt-_");
  });

  it("acts once on a repeated join packet; a failed join reopens the access point", async () => {
    const { device, seen } = await makeDevice({ generation: "old", firmware: "stock" });
    const ap = device.apPort as number;
    const join = encodeJoinPacket({ ssid: "AquaHome", password: "wrong-password", security: WifiSecurity.Wpa2 });
    expect(await phone.exchange(ap, [join, join])).toEqual([]); // the same packet twice; a stock module never answers
    await until(() => device.failure === 4, 2000, "router refuses the key");
    expect(await phone.hello(device.lanPort as number, "192.168.1.23")).toEqual([]); // it never arrived
    await until(() => device.apOpen, 2000, "access point reopened");
    expect(device.apPort).toBe(ap); // same port
    expect(device.state).toBe(0);
    const [again] = await phone.hello(ap, "192.168.10.23");
    expect(again).toMatchObject({ ip: SETUP_AP_ADDRESS, extension: null });
    expect(seen.filter((s) => s.state === 2 && s.failure === 0)).toHaveLength(1); // one attempt for two packets
  });

  it("--fail init: the access point never comes up", async () => {
    const apPort = await freeUdpPort();
    const { device } = await makeDevice({ generation: "old", firmware: "stock", failure: "init", apPort });
    expect(device.apOpen).toBe(false);
    expect(device.apPort).toBeNull();
    expect(device.failure).toBe(1);
    expect(await phone.hello(apPort, "192.168.10.23")).toEqual([]);
    expect(await phone.join(apPort, "AquaHome", "softwater24")).toEqual([]);
  });

  it("--fail timeout: join packets are ignored; the access point keeps answering hello", async () => {
    const { device } = await makeDevice({ generation: "old", firmware: "stock", failure: "timeout" });
    const ap = device.apPort as number;
    expect(await phone.join(ap, "AquaHome", "softwater24")).toEqual([]);
    expect(await phone.join(ap, "AquaHome", "softwater24")).toEqual([]);
    const [a] = await phone.hello(ap, "192.168.10.23");
    expect(a).toMatchObject({ ip: SETUP_AP_ADDRESS, extension: null });
    expect(device.state).toBe(0);
    expect(device.apOpen).toBe(true);
  });

  it("--fail not-found: it joins and even connects, but never answers on the home network", async () => {
    const { device } = await makeDevice({ generation: "old", firmware: "stock", failure: "not-found" });
    expect(await phone.join(device.apPort as number, "AquaHome", "softwater24")).toEqual([]);
    await until(() => device.state === 4, 3000, "online");
    expect(await phone.hello(device.lanPort as number, "192.168.1.23", 300)).toEqual([]);
  });

  it.each([
    ["server", 5],
    ["activation-1", 6],
    ["activation-2", 7],
    ["no-server-response", 8],
  ] as const)("--fail %s: failure code %i, and a stock hello answer that does not tell it", async (name, code) => {
    const { device } = await makeDevice({ generation: "old", firmware: "stock", failure: name });
    expect(await phone.join(device.apPort as number, "AquaHome", "softwater24")).toEqual([]);
    await until(() => device.failure !== 0, 3000, "cloud failure");
    expect(device.failure).toBe(code);
    const [a] = await phone.hello(device.lanPort as number, "192.168.1.23");
    expect(a).toMatchObject({ extension: null, ip: "192.168.1.57" });
    expect(SETUP_FAILURES.find((f) => f.name === name)?.cloudFailure).toBe(code);
  });
});
