import dgram from "node:dgram";
import { DEV_BRIDGE_PATHS, ZDiscoverResult, ZPhoneWifi, ZWifiNetworkList } from "@aquapilot/contract";
import { NEIGHBOURHOOD, sameSubnet } from "@aquapilot/device-sim";
import {
  BL3372_DEVICE_TYPE,
  CloudState,
  decodeHelloAnswer,
  decodeHelloPacket,
  decodeJoinPacket,
  encodeHelloAnswer,
  encodeHelloPacket,
  encodeJoinAck,
  encodeJoinPacket,
  fromBase64,
  type JoinRequest,
  toBase64,
  WifiSecurity,
} from "@aquapilot/provisioning";
import { createTestApp, type TestApp } from "@aquapilot/server/test/helpers.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * A small stand-in for the simulator's two UDP sides (docs/device-protocol.md §13.3), built from the provisioning
 * codecs: the access point answers hello (cloud state 0) when open and acknowledges join packets for networks it
 * knows, as the product's firmware does; the home-network side answers hello from the modules' subnet
 * (192.168.1.0/24) with two modules, one with the product's extension and one stock (0x80 bytes).
 */
class Responder {
  ap = dgram.createSocket("udp4");
  lan = dgram.createSocket("udp4");
  apOpen = true;
  /** Networks whose join packet is acknowledged. */
  acknowledges = new Set(["AquaHome"]);
  joins: JoinRequest[] = [];
  lanPackets: Uint8Array[] = [];

  async start(): Promise<void> {
    this.ap.on("message", (msg, rinfo) => {
      const packet = new Uint8Array(msg);
      if (packet[0x26] === 0x06) {
        if (!this.apOpen) return;
        decodeHelloPacket(packet);
        this.ap.send(this.answer("02AB00000001", "192.168.10.1", CloudState.Setup, null), rinfo.port, rinfo.address);
        return;
      }
      let join: JoinRequest;
      try {
        join = decodeJoinPacket(packet);
      } catch {
        return;
      }
      this.joins.push(join);
      if (this.acknowledges.has(join.ssid)) this.ap.send(encodeJoinAck(), rinfo.port, rinfo.address);
    });
    this.lan.on("message", (msg, rinfo) => {
      const packet = new Uint8Array(msg);
      this.lanPackets.push(packet);
      let hello: ReturnType<typeof decodeHelloPacket>;
      try {
        hello = decodeHelloPacket(packet);
      } catch {
        return;
      }
      if (!sameSubnet(hello.localIp, "192.168.1.57")) return;
      this.lan.send(
        this.answer("02AB00000001", "192.168.1.57", CloudState.Connected, "02AB00000001:token-one-xxxxxxxxxxxx"),
        rinfo.port,
        rinfo.address,
      );
      // A second module answers a little later: discovery collects every answer until its time is up.
      setTimeout(
        () => this.lan.send(this.answer("02AB00000002", "192.168.1.58", null, null), rinfo.port, rinfo.address),
        150,
      );
    });
    await Promise.all([this.bind(this.ap), this.bind(this.lan)]);
  }

  private bind(socket: dgram.Socket): Promise<void> {
    return new Promise((resolve) => socket.bind(0, "127.0.0.1", () => resolve()));
  }

  /** A hello answer; a stock one (no extension) when `cloudState` is null. */
  private answer(mac: string, ip: string, cloudState: CloudState | null, pairingCode: string | null): Uint8Array {
    return encodeHelloAnswer({
      mac,
      deviceType: BL3372_DEVICE_TYPE,
      ip,
      name: `WiFi-BL3372-${mac.slice(-4)}`,
      locked: false,
      extension: cloudState === null ? null : { cloudState, failure: 0, pairingCode },
    });
  }

  get apPort(): number {
    return this.ap.address().port;
  }
  get lanPort(): number {
    return this.lan.address().port;
  }

  close(): Promise<void> {
    return Promise.all([
      new Promise<void>((r) => this.ap.close(() => r())),
      new Promise<void>((r) => this.lan.close(() => r())),
    ]).then(() => undefined);
  }
}

describe("development bridge (docs/device-protocol.md §13.6)", () => {
  let t: TestApp;
  const responder = new Responder();

  const get = async (url: string) => t.app.inject({ method: "GET", url });
  const post = async (url: string, payload?: object) =>
    t.app.inject({ method: "POST", url, ...(payload ? { payload } : {}) });
  const wifi = async () => ZPhoneWifi.parse((await get(DEV_BRIDGE_PATHS.wifi)).json());
  const hello = (localIp: string) =>
    toBase64(encodeHelloPacket({ time: new Date(), utcOffsetMinutes: 60, localIp, localPort: 40000 }));

  beforeAll(async () => {
    await responder.start();
    t = await createTestApp({
      env: { SIM_AP_UDP_PORT: String(responder.apPort), SIM_LAN_UDP_PORT: String(responder.lanPort) },
      development: { bridge: { apProbeMs: 300, joinAckMs: 400 } },
    });
  });
  afterAll(async () => {
    await t?.close();
    await responder.close();
  });

  it("shows the phone on AquaHome, lists the neighbourhood and switches networks", async () => {
    expect(await wifi()).toEqual({ connected: true, ssid: "AquaHome", band: "2.4GHz", ip: "192.168.1.23" });

    const list = ZWifiNetworkList.parse((await get(DEV_BRIDGE_PATHS.networks)).json());
    expect(list.networks).toEqual(
      NEIGHBOURHOOD.map((n) => ({ ssid: n.ssid, band: n.band, secured: true, rssi: n.rssi })),
    );

    const cafe = await post(DEV_BRIDGE_PATHS.select, { ssid: "Café Corner" });
    expect(cafe.statusCode).toBe(200);
    expect(cafe.json()).toEqual({ connected: true, ssid: "Café Corner", band: "2.4GHz", ip: "10.0.0.23" });
    const fiveG = await post(DEV_BRIDGE_PATHS.select, { ssid: "AquaHome-5G" });
    expect(fiveG.json()).toEqual({ connected: true, ssid: "AquaHome-5G", band: "5GHz", ip: "192.168.1.23" });

    const unknown = await post(DEV_BRIDGE_PATHS.select, { ssid: "Nowhere" });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ error: "not-found" });
    expect((await wifi()).ssid).toBe("AquaHome-5G");
    const bad = await post(DEV_BRIDGE_PATHS.select, { name: "AquaHome" });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ error: "invalid-request" });

    expect((await post(DEV_BRIDGE_PATHS.select, { ssid: "AquaHome" })).json().ssid).toBe("AquaHome");
  });

  it("joins the module's access point only when it answers hello", async () => {
    responder.apOpen = false;
    const absent = await post(DEV_BRIDGE_PATHS.joinAccessPoint, { ssid: "WiFi-BL3372" });
    expect(absent.statusCode).toBe(200);
    expect(absent.json()).toEqual({ ok: false, error: "not-found" });
    expect((await wifi()).ssid).toBe("AquaHome");
    expect((await post(DEV_BRIDGE_PATHS.joinAccessPoint, { ssid: "Other-AP" })).json()).toEqual({
      ok: false,
      error: "not-found",
    });

    responder.apOpen = true;
    const found = await post(DEV_BRIDGE_PATHS.joinAccessPoint, { ssid: "WiFi-BL3372" });
    expect(found.json()).toEqual({ ok: true, error: null });
    expect(await wifi()).toEqual({ connected: true, ssid: "WiFi-BL3372", band: "2.4GHz", ip: "192.168.10.2" });
  });

  it("forwards the join packet to the access point and reports its acknowledgement", async () => {
    const packet = (ssid: string) =>
      toBase64(encodeJoinPacket({ ssid, password: "softwater24", security: WifiSecurity.Wpa2 }));
    responder.joins.length = 0;
    const acked = await post(DEV_BRIDGE_PATHS.sendJoinPacket, { packet: packet("AquaHome") });
    expect(acked.statusCode).toBe(200);
    expect(acked.json()).toEqual({ acknowledged: true });
    expect(responder.joins).toEqual([
      { ssid: "AquaHome", password: "softwater24", security: WifiSecurity.Wpa2, setupTicket: null },
    ]);

    const started = Date.now();
    const ignored = await post(DEV_BRIDGE_PATHS.sendJoinPacket, { packet: packet("Neighbour-WiFi") });
    expect(ignored.json()).toEqual({ acknowledged: false });
    expect(Date.now() - started).toBeGreaterThanOrEqual(350);
    expect(responder.joins.map((j) => j.ssid)).toEqual(["AquaHome", "Neighbour-WiFi"]);

    const bad = await post(DEV_BRIDGE_PATHS.sendJoinPacket, { packet: "!!not base64!!" });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ error: "invalid-request" });
  });

  it("refuses discovery on the access point, then collects every answer on the home network", async () => {
    const onAp = await post(DEV_BRIDGE_PATHS.discover, { packet: hello("192.168.10.2"), timeoutMs: 200 });
    expect(onAp.statusCode).toBe(409);
    expect(onAp.json()).toEqual({ error: "not-on-home-network" });

    const left = await post(DEV_BRIDGE_PATHS.leaveAccessPoint);
    expect(left.json()).toEqual({ connected: true, ssid: "AquaHome", band: "2.4GHz", ip: "192.168.1.23" });

    responder.lanPackets.length = 0;
    const packet = hello("192.168.1.23");
    const res = await post(DEV_BRIDGE_PATHS.discover, { packet, timeoutMs: 600 });
    expect(res.statusCode).toBe(200);
    const { answers } = ZDiscoverResult.parse(res.json());
    // The bridge sent the app's bytes unchanged.
    expect(responder.lanPackets.map((p) => toBase64(p))).toEqual([packet]);
    const decoded = answers.map((a) => ({ address: a.address, ...decodeHelloAnswer(fromBase64(a.packet)) }));
    expect(decoded).toMatchObject([
      {
        address: "127.0.0.1",
        mac: "02AB00000001",
        ip: "192.168.1.57",
        extension: { cloudState: CloudState.Connected, pairingCode: "02AB00000001:token-one-xxxxxxxxxxxx" },
      },
      { address: "127.0.0.1", mac: "02AB00000002", ip: "192.168.1.58", extension: null },
    ]);

    // From another subnet nothing answers, and discovery waits its whole time.
    await post(DEV_BRIDGE_PATHS.select, { ssid: "Neighbour-WiFi" });
    const started = Date.now();
    const none = await post(DEV_BRIDGE_PATHS.discover, { packet: hello("192.168.0.23"), timeoutMs: 300 });
    expect(none.json()).toEqual({ answers: [] });
    expect(Date.now() - started).toBeGreaterThanOrEqual(280);

    const outOfRange = await post(DEV_BRIDGE_PATHS.discover, { packet, timeoutMs: 50_000 });
    expect(outOfRange.statusCode).toBe(400);
  });

  it("sends nothing without the access point: the join packet is not acknowledged", async () => {
    responder.joins.length = 0;
    const res = await post(DEV_BRIDGE_PATHS.sendJoinPacket, {
      packet: toBase64(encodeJoinPacket({ ssid: "AquaHome", password: "x", security: WifiSecurity.Wpa2 })),
    });
    expect(res.json()).toEqual({ acknowledged: false });
    expect(responder.joins).toEqual([]);
  });
});

describe("development routes in production", () => {
  it("are absent with APP_ENV=production", async () => {
    const t = await createTestApp({ env: { APP_ENV: "production" }, development: {} });
    try {
      for (const [method, url] of [
        ["GET", DEV_BRIDGE_PATHS.wifi],
        ["GET", DEV_BRIDGE_PATHS.networks],
        ["POST", DEV_BRIDGE_PATHS.joinAccessPoint],
        ["POST", DEV_BRIDGE_PATHS.discover],
        ["POST", "/dev/factory/devices"],
      ] as const) {
        const res = await t.app.inject({ method, url, ...(method === "POST" ? { payload: {} } : {}) });
        expect(res.statusCode, url).toBe(404);
      }
    } finally {
      await t.close();
    }
  });

  it("are present otherwise", async () => {
    const t = await createTestApp({ env: { APP_ENV: "development" }, development: {} });
    try {
      expect((await t.app.inject({ method: "GET", url: DEV_BRIDGE_PATHS.wifi })).statusCode).toBe(200);
      expect((await t.app.inject({ method: "POST", url: "/dev/factory/devices", payload: {} })).statusCode).toBe(400);
    } finally {
      await t.close();
    }
  });
});
