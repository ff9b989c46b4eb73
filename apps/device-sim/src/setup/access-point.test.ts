import dgram from "node:dgram";
import { readFileSync } from "node:fs";
import { BluetoothSetupState } from "@aquapilot/contract";
import {
  decodeHelloAnswer,
  encodeHelloPacket,
  encodeJoinPacket,
  fromHex,
  type HelloAnswer,
  isJoinAck,
  SETUP_AP_ADDRESS,
  WifiSecurity,
} from "@aquapilot/provisioning";
import { afterEach, describe, expect, it } from "vitest";
import { type AccessPointModule, AccessPointUdp, type JoinRequest } from "./access-point.ts";
import type { ModuleFirmware } from "./setup-device.ts";
import type { SetupStatus } from "./setup-status.ts";

/**
 * The access point and home-network sockets of the old module in both firmware modes, over real loopback UDP, with
 * join packets python-broadlink itself wrote (packages/provisioning/vectors/broadlink-python.json).
 */

const VECTORS = JSON.parse(
  readFileSync(new URL("../../../../packages/provisioning/vectors/broadlink-python.json", import.meta.url), "utf8"),
) as { join: { name: string; ssid: string; password: string; security: number; packet?: string }[] };

const TICKET = "AbCdEfGhIjKlMnOpQrSt_-";
const MAC = "02ABCDEF3F2A";

const OFFLINE: SetupStatus = {
  state: BluetoothSetupState.Awaiting,
  failure: 0,
  ssid: "",
  ip: "",
  gw: "",
  mask: "",
  bssid: "",
  pairingCode: null,
};

/** A module behind the sockets whose status the test sets and whose joins it records. */
function fakeModule(firmware: ModuleFirmware | undefined) {
  const joins: JoinRequest[] = [];
  const module: AccessPointModule & { status: SetupStatus } = {
    mac: MAC,
    name: "WiFi-BL3372",
    firmware,
    status: { ...OFFLINE },
    currentStatus: () => module.status,
    isStopped: () => false,
    silentOnHomeNetwork: () => false,
    onJoin: (join, acknowledge) => {
      joins.push(join);
      acknowledge();
    },
  };
  return { module, joins };
}

const opened: (AccessPointUdp | dgram.Socket)[] = [];
afterEach(async () => {
  for (const o of opened.splice(0)) {
    if (o instanceof AccessPointUdp) await o.close();
    else o.close();
  }
});

async function start(firmware: ModuleFirmware | undefined) {
  const fake = fakeModule(firmware);
  const udp = new AccessPointUdp(fake.module, { ap: 0, lan: 0 });
  opened.push(udp);
  await udp.openAccessPoint();
  await udp.openHomeNetwork();
  const phone = dgram.createSocket("udp4");
  opened.push(phone);
  await new Promise<void>((resolve) => phone.bind(0, "127.0.0.1", resolve));
  /** Sends `packet` to `port` and collects the first `expected` answers. */
  const exchange = (port: number, packet: Uint8Array, expected: number): Promise<Uint8Array[]> =>
    new Promise((resolve) => {
      const answers: Uint8Array[] = [];
      const onMessage = (msg: Buffer) => {
        answers.push(new Uint8Array(msg));
        if (answers.length < expected) return;
        phone.off("message", onMessage);
        resolve(answers);
      };
      phone.on("message", onMessage);
      phone.send(packet, port, "127.0.0.1");
    });
  /**
   * Sends a join packet to the access point, then a hello behind it; what arrived before the hello's answer is the
   * join's answer (the socket handles both in order).
   */
  const join = async (packet: Uint8Array): Promise<Uint8Array[]> => {
    const answers = new Promise<Uint8Array[]>((resolve) => {
      const got: Uint8Array[] = [];
      const onMessage = (msg: Buffer) => {
        const p = new Uint8Array(msg);
        if (p.length < 0x80) return void got.push(p);
        phone.off("message", onMessage);
        resolve(got);
      };
      phone.on("message", onMessage);
    });
    phone.send(packet, udp.apPort as number, "127.0.0.1");
    phone.send(
      encodeHelloPacket({ time: new Date(), utcOffsetMinutes: 0, localIp: "192.168.10.2", localPort: 0 }),
      udp.apPort as number,
      "127.0.0.1",
    );
    return answers;
  };
  const hello = async (port: number, localIp: string): Promise<HelloAnswer> => {
    const [answer] = await exchange(
      port,
      encodeHelloPacket({ time: new Date(), utcOffsetMinutes: 0, localIp, localPort: 0 }),
      1,
    );
    return decodeHelloAnswer(answer);
  };
  return { udp, ...fake, exchange, join, hello, ap: udp.apPort as number, lan: udp.lanPort as number };
}

describe("the access point's parser takes python-broadlink's join packets", () => {
  it("hands every join packet python-broadlink wrote to the module, as it was meant", async () => {
    const s = await start("stock");
    const sent = VECTORS.join.filter((v) => v.packet && v.ssid.length <= 32 && [...v.ssid].every((c) => c < "\u0080"));
    expect(sent.length).toBeGreaterThanOrEqual(9);
    for (const v of sent) {
      expect(await s.join(fromHex(v.packet ?? ""))).toEqual([]);
      expect(s.joins.at(-1)).toEqual({ ssid: v.ssid, password: v.password, security: v.security, setupTicket: null });
    }
  });
});

describe.each(["stock", undefined] as const)("firmware %s (stock, the default)", (firmware) => {
  it("answers hello with the stock 0x80 bytes only and never answers a join, which carries the ticket", async () => {
    const s = await start(firmware);
    const onAp = await s.hello(s.ap, "192.168.10.2");
    expect(onAp).toEqual({
      mac: MAC,
      deviceType: 0x3372,
      ip: SETUP_AP_ADDRESS,
      name: "WiFi-BL3372",
      locked: false,
      extension: null,
    });
    const join = encodeJoinPacket({
      ssid: "AquaHome",
      password: "softwater24",
      security: WifiSecurity.Wpa2,
      setupTicket: TICKET,
    });
    expect(await s.join(join)).toEqual([]);
    expect(s.joins).toEqual([{ ssid: "AquaHome", password: "softwater24", security: 3, setupTicket: TICKET }]);
    s.module.status = {
      ...OFFLINE,
      state: BluetoothSetupState.ServerConnected,
      ip: "192.168.1.57",
      pairingCode: `${MAC}:x`,
    };
    const [raw] = await s.exchange(
      s.lan,
      encodeHelloPacket({ time: new Date(), utcOffsetMinutes: 0, localIp: "192.168.1.23", localPort: 0 }),
      1,
    );
    expect(raw).toHaveLength(0x80);
    expect(decodeHelloAnswer(raw)).toMatchObject({ mac: MAC, ip: "192.168.1.57", extension: null });
  });
});

describe("firmware product", () => {
  it("adds the extension to hello answers and acknowledges a join", async () => {
    const s = await start("product");
    expect((await s.hello(s.ap, "192.168.10.2")).extension).toEqual({ cloudState: 0, failure: 0, pairingCode: null });
    const join = encodeJoinPacket({
      ssid: "AquaHome",
      password: "softwater24",
      security: WifiSecurity.Wpa2,
      setupTicket: TICKET,
    });
    const answers = await s.join(join);
    expect(answers).toHaveLength(1);
    expect(isJoinAck(answers[0])).toBe(true);
    expect(s.joins.map((j) => j.setupTicket)).toEqual([TICKET]);
    s.module.status = { ...OFFLINE, state: BluetoothSetupState.WifiConnected, ip: "192.168.1.57" };
    expect((await s.hello(s.lan, "192.168.1.23")).extension).toEqual({ cloudState: 1, failure: 0, pairingCode: null });
    s.module.status = { ...s.module.status, state: BluetoothSetupState.ServerConnected, pairingCode: `${MAC}:tok` };
    expect((await s.hello(s.lan, "192.168.1.23")).extension).toEqual({
      cloudState: 2,
      failure: 0,
      pairingCode: `${MAC}:tok`,
    });
    s.module.status = { ...s.module.status, state: BluetoothSetupState.WifiConnected, failure: 6, pairingCode: null };
    expect((await s.hello(s.lan, "192.168.1.23")).extension).toEqual({ cloudState: 3, failure: 6, pairingCode: null });
  });
});
