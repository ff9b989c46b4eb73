import type { TDiscoverResult, TJoinAccessPointResult, TPhoneWifi, TWifiNetworkList } from "@aquapilot/contract";
import {
  addressOn,
  DEFAULT_PHONE_NETWORK,
  findNetwork,
  NEIGHBOURHOOD,
  SIM_HOST,
  type SimNetwork,
} from "@aquapilot/device-sim";
import { decodeHelloAnswer, encodeHelloPacket, isJoinAck, toBase64 } from "@aquapilot/provisioning";
import { loopbackExchange } from "./udp.ts";

/** The module's access point as the phone sees it once joined (docs/device-protocol.md §13.3, §13.1). */
export const MODULE_ACCESS_POINT = { ssid: "WiFi-BL3372", band: "2.4GHz", phoneIp: "192.168.10.2" } as const;

/** Where the simulated phone sends UDP and how long it waits (docs/device-protocol.md §13.6). */
export interface SimulatedPhoneOptions {
  /** 127.0.0.1 port of the module's access point side (SIM_AP_UDP_PORT). */
  apPort: number;
  /** 127.0.0.1 port of the module's home-network side (SIM_LAN_UDP_PORT). */
  lanPort: number;
  /** Wait for a hello answer when joining the access point, ms (default 1000). */
  apProbeMs?: number;
  /** How long to listen for a product module's join acknowledgement after sending, ms (default 500, §13.3). */
  joinAckMs?: number;
  /** The networks in range (default the simulated neighbourhood, §13.5). */
  networks?: readonly SimNetwork[];
  /** The home network the phone starts on (default {@link DEFAULT_PHONE_NETWORK}). */
  startOn?: string;
  /** The phone's clock (hello packets carry it). */
  now?: () => Date;
}

/** Why the phone refused to discover: it is on the module's access point, or on no network. */
export class NotOnHomeNetwork extends Error {
  constructor() {
    super("the phone is not on a home network");
    this.name = "NotOnHomeNetwork";
  }
}

/**
 * The development bridge's simulated phone (docs/device-protocol.md §13.6): one per server process, in
 * memory. It is on a home network of the neighbourhood (or on the module's access point) and talks UDP only to the
 * simulator's two loopback ports — never to an address from a request. Results have the shapes of
 * packages/contract/src/dev-bridge.ts.
 */
export class SimulatedPhone {
  private home: SimNetwork | null;
  private onAccessPoint = false;
  private readonly networks: readonly SimNetwork[];
  private readonly now: () => Date;

  private readonly options: SimulatedPhoneOptions;
  constructor(options: SimulatedPhoneOptions) {
    this.options = options;
    this.networks = options.networks ?? NEIGHBOURHOOD;
    this.home = findNetwork(options.startOn ?? DEFAULT_PHONE_NETWORK, undefined, this.networks) ?? null;
    this.now = options.now ?? (() => new Date());
  }

  /**
   * The phone's current Wi-Fi: on the module's access point "WiFi-BL3372", 2.4GHz, 192.168.10.2; on a home network
   * its name, band and the phone's address `.23` of its subnet; else not connected (all null).
   */
  wifi(): TPhoneWifi {
    if (this.onAccessPoint) {
      const ap = MODULE_ACCESS_POINT;
      return { connected: true, ssid: ap.ssid, band: ap.band, ip: ap.phoneIp };
    }
    if (!this.home) return { connected: false, ssid: null, band: null, ip: null };
    return { connected: true, ssid: this.home.ssid, band: this.home.band, ip: addressOn(this.home, SIM_HOST.phone) };
  }

  /** The networks in range (the neighbourhood), strongest first: name, band, secured, signal (dBm). */
  listNetworks(): TWifiNetworkList {
    return {
      networks: this.networks.map((n) => ({
        ssid: n.ssid,
        band: n.band,
        secured: n.password.length > 0,
        rssi: n.rssi,
      })),
    };
  }

  /**
   * Joins the home network named `ssid` (as in the phone's Wi-Fi settings; leaves the access point).
   * @returns the new Wi-Fi, or null (nothing changes) when no network of that name is in range.
   */
  select(ssid: string): TPhoneWifi | null {
    const network = findNetwork(ssid, undefined, this.networks);
    if (!network) return null;
    this.home = network;
    this.onAccessPoint = false;
    return this.wifi();
  }

  /**
   * Joins the module's access point `ssid` (§13.3 step 2): only "WiFi-BL3372" exists, and only while the module is
   * in setup mode, which the phone learns by sending a hello packet (its address on the access point, 192.168.10.2)
   * to the access-point port and waiting up to `apProbeMs` for an answer that decodes as a hello answer. Found → the
   * phone is on the access point (its home network is remembered for {@link leaveAccessPoint}); not found → it stays
   * where it was, `{ok: false, error: "not-found"}`; a socket failure → `"failed"`.
   */
  async joinAccessPoint(ssid: string): Promise<TJoinAccessPointResult> {
    if (ssid !== MODULE_ACCESS_POINT.ssid) return { ok: false, error: "not-found" };
    let answers: Awaited<ReturnType<typeof loopbackExchange>>;
    try {
      answers = await loopbackExchange({
        port: this.options.apPort,
        packet: (localPort) =>
          encodeHelloPacket({ time: this.now(), utcOffsetMinutes: 0, localIp: MODULE_ACCESS_POINT.phoneIp, localPort }),
        timeoutMs: this.options.apProbeMs ?? 1000,
        until: (a) => isHelloAnswer(a.packet),
      });
    } catch {
      return { ok: false, error: "failed" };
    }
    if (!answers.some((a) => isHelloAnswer(a.packet))) return { ok: false, error: "not-found" };
    this.onAccessPoint = true;
    return { ok: true, error: null };
  }

  /** Leaves the module's access point: back on the home network it was on before (no change when not on it). */
  leaveAccessPoint(): TPhoneWifi {
    this.onAccessPoint = false;
    return this.wifi();
  }

  /**
   * Broadcasts the join packet (`packet`, bytes as the app built them) on the module's access point — sent to the
   * access-point port, which stands for 255.255.255.255:80 there, as python-broadlink `setup()` sends it — and
   * listens up to `joinAckMs` for a product module's acknowledgement (§13.3 step 2; a stock module sends none). Only
   * on the access point: elsewhere the module is unreachable and nothing is sent.
   * @returns whether a valid acknowledgement (kind 0x15) arrived.
   * @throws the socket's error when the datagram cannot be sent.
   */
  async sendJoinPacket(packet: Uint8Array): Promise<{ acknowledged: boolean }> {
    if (!this.onAccessPoint) return { acknowledged: false };
    const answers = await loopbackExchange({
      port: this.options.apPort,
      packet: () => packet,
      timeoutMs: this.options.joinAckMs ?? 500,
      until: (a) => isJoinAck(a.packet),
    });
    return { acknowledged: answers.some((a) => isJoinAck(a.packet)) };
  }

  /**
   * Broadcasts `packet` (a hello packet as the app built it) on the home network — sent to the home-network port —
   * and collects every answer for `timeoutMs` (§13.3 step 4), as base64 with the sender's address (127.0.0.1 on
   * loopback; the module's own address is inside the answer).
   * @throws NotOnHomeNetwork on the access point or without a network; the socket's error when sending fails.
   */
  async discover(packet: Uint8Array, timeoutMs: number): Promise<TDiscoverResult> {
    if (this.onAccessPoint || !this.home) throw new NotOnHomeNetwork();
    const answers = await loopbackExchange({ port: this.options.lanPort, packet: () => packet, timeoutMs });
    // Datagrams the contract's base64 field cannot carry (under 3 or over 3072 bytes) are not answers of a module.
    const fit = answers.filter((a) => a.packet.length >= 3 && a.packet.length <= 3072);
    return { answers: fit.map((a) => ({ address: a.address, packet: toBase64(a.packet) })) };
  }
}

function isHelloAnswer(packet: Uint8Array): boolean {
  try {
    decodeHelloAnswer(packet);
    return true;
  } catch {
    return false;
  }
}
