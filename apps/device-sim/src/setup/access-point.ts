/**
 * The old generation's setup over UDP (docs/device-protocol.md §13.3, docs/device-sim.md §13.1 "Access point and UDP
 * (old)"): two sockets on 127.0.0.1 that stand for the module's radio. The access point side (the open network
 * `WiFi-BL3372`, address 192.168.10.1; a datagram to it stands for the phone's broadcast to 255.255.255.255:80, as
 * python-broadlink `setup()` sends the join packet) answers hello packets and hands valid join packets, with the setup
 * ticket they carry, to the module; the home-network side answers hello, once the module has an address, only from a
 * phone on its own subnet. The packets are `@aquapilot/provisioning`'s broadlink codecs.
 *
 * What the module's firmware does differently:
 * - `stock` (default): the BroadLink component as python-broadlink knows it: hello answers are the 0x80 bytes
 *   python-broadlink `scan()` reads, and a join packet is never answered.
 * - `product`: hello answers carry the product's extension (cloud state 0 on the access point; 1, 2 with the pairing
 *   code, or 3 with the failure on the home network), and a join packet is acknowledged (kind 0x15).
 */
import dgram from "node:dgram";
import { BluetoothSetupState } from "@aquapilot/contract";
import {
  BL3372_DEVICE_TYPE,
  BroadlinkPacketKind,
  CloudState,
  decodeHelloPacket,
  decodeJoinPacket,
  encodeHelloAnswer,
  encodeJoinAck,
  SETUP_AP_ADDRESS,
} from "@aquapilot/provisioning";
import { sameSubnet } from "./neighbourhood.ts";
import type { ModuleFirmware } from "./setup-failures.ts";
import type { SetupStatus } from "./setup-status.ts";

/** Default loopback UDP port of the old module's access point side (SIM_AP_UDP_PORT, §13.6). */
export const DEFAULT_AP_UDP_PORT = 48880;
/** Default loopback UDP port of the old module's home-network side (SIM_LAN_UDP_PORT, §13.6). */
export const DEFAULT_LAN_UDP_PORT = 48881;

/**
 * A join packet's content: the home network's name and password (never log the password) and the phone's one-time
 * setup ticket (22 characters of base64url; null when the packet carries none, as python-broadlink's do), which the
 * module's handler passes to its activation with the cloud.
 */
export interface JoinRequest {
  ssid: string;
  password: string;
  setupTicket: string | null;
}

/** What the UDP sides need from the module behind them. */
export interface AccessPointModule {
  /** The Wi-Fi MAC, 12 upper-case hex digits (in hello answers and log lines). */
  readonly mac: string;
  /** The name the module announces in hello answers. */
  readonly name: string;
  /** What runs on the module (default `stock`): whether hello answers carry the extension and joins are answered. */
  readonly firmware?: ModuleFirmware;
  /** The module's current status (state, failure, address, pairing code). */
  currentStatus(): Readonly<SetupStatus>;
  /** Whether the module has left setup mode (a socket bound afterwards is closed at once). */
  isStopped(): boolean;
  /** Whether the module stays silent on the home network (failure "not-found"). */
  silentOnHomeNetwork(): boolean;
  /**
   * A valid join packet arrived on the access point: the module decides, and calls `acknowledge` to answer it with
   * the join acknowledgement (or never, to ignore it); with `stock` firmware `acknowledge` sends nothing.
   */
  onJoin(join: JoinRequest, acknowledge: () => void): void;
  /** Diagnostics (never passwords or pairing codes). */
  log?: (message: string) => void;
}

/** The access point and home-network sockets of one old-generation module. */
export class AccessPointUdp {
  private readonly module: AccessPointModule;
  private readonly ports: { ap: number; lan: number };
  private ap: dgram.Socket | null = null;
  private lan: dgram.Socket | null = null;
  private apBoundPort: number | null = null;
  private lanBoundPort: number | null = null;

  /**
   * @param module the module behind the sockets.
   * @param ports the loopback UDP ports to bind: `ap` (default {@link DEFAULT_AP_UDP_PORT}) and `lan` (default
   *   {@link DEFAULT_LAN_UDP_PORT}); 0 picks a free port.
   */
  constructor(module: AccessPointModule, ports: { ap?: number; lan?: number }) {
    this.module = module;
    this.ports = { ap: ports.ap ?? DEFAULT_AP_UDP_PORT, lan: ports.lan ?? DEFAULT_LAN_UDP_PORT };
  }

  /** The access point's UDP port once bound (also while the access point is closed), else null. */
  get apPort(): number | null {
    return this.apBoundPort;
  }

  /** Whether the access point is up. */
  get apOpen(): boolean {
    return this.ap !== null;
  }

  /** The home-network side's UDP port once bound, else null. */
  get lanPort(): number | null {
    return this.lanBoundPort;
  }

  /**
   * Brings the access point up (again on the port it had before, when it was up once). Does nothing while it is up
   * or once the module stopped. @throws dgram's error when the port is taken (EADDRINUSE).
   */
  async openAccessPoint(): Promise<void> {
    if (this.ap || this.module.isStopped()) return;
    const port = this.apBoundPort ?? this.ports.ap;
    const ap = await this.bind(port, (msg, rinfo) => this.onApPacket(msg, rinfo));
    if (this.module.isStopped()) return closeUdp(ap); // stopped while binding
    this.ap = ap;
    this.apBoundPort = ap.address().port;
  }

  /** Takes the access point down (its socket is closed); does nothing when it is down. */
  async closeAccessPoint(): Promise<void> {
    const ap = this.ap;
    this.ap = null;
    if (ap) await closeUdp(ap);
  }

  /** Binds the home-network side. @throws dgram's error when the port is taken (EADDRINUSE). */
  async openHomeNetwork(): Promise<void> {
    this.lan = await this.bind(this.ports.lan, (msg, rinfo) => this.onLanPacket(msg, rinfo));
    this.lanBoundPort = this.lan.address().port;
  }

  /** Closes both sockets (leaving setup mode). */
  async close(): Promise<void> {
    for (const s of [this.ap, this.lan]) if (s) await closeUdp(s);
    this.ap = this.lan = null;
  }

  private bind(port: number, onMessage: (msg: Buffer, rinfo: dgram.RemoteInfo) => void): Promise<dgram.Socket> {
    return new Promise((resolve, reject) => {
      const socket = dgram.createSocket("udp4");
      socket.once("error", reject);
      socket.bind(port, "127.0.0.1", () => {
        socket.off("error", reject);
        socket.on("error", (err) => this.log(`UDP ${err.message}`));
        socket.on("message", onMessage);
        resolve(socket);
      });
    });
  }

  private log(message: string): void {
    this.module.log?.(`${this.module.mac}: ${message}`);
  }

  private send(socket: dgram.Socket | null, packet: Uint8Array, rinfo: dgram.RemoteInfo): void {
    socket?.send(packet, rinfo.port, rinfo.address, (err) => {
      if (err) this.log(`UDP send failed: ${err.message}`);
    });
  }

  /** Whether the module runs the product's firmware (hello extension, join acknowledgement). */
  private get product(): boolean {
    return this.module.firmware === "product";
  }

  /**
   * The hello answer from `ip`: the stock 0x80 bytes, and with the product's firmware the extension in `cloudState`
   * with the failure code (state 3) or the pairing code (state 2).
   */
  private helloAnswer(ip: string, cloudState: CloudState): Uint8Array {
    const status = this.module.currentStatus();
    return encodeHelloAnswer({
      mac: this.module.mac,
      deviceType: BL3372_DEVICE_TYPE,
      ip,
      name: this.module.name,
      locked: false,
      extension: this.product
        ? {
            cloudState,
            failure: cloudState === CloudState.Failed ? status.failure : 0,
            pairingCode: cloudState === CloudState.Connected ? status.pairingCode : null,
          }
        : null,
    });
  }

  private onApPacket(msg: Buffer, rinfo: dgram.RemoteInfo): void {
    const packet = new Uint8Array(msg.buffer, msg.byteOffset, msg.length);
    if (packet[0x26] === BroadlinkPacketKind.Hello) {
      try {
        decodeHelloPacket(packet);
      } catch (err) {
        this.log(`access point ignored a packet: ${(err as Error).message}`);
        return;
      }
      this.send(this.ap, this.helloAnswer(SETUP_AP_ADDRESS, CloudState.Setup), rinfo);
      return;
    }
    let join: ReturnType<typeof decodeJoinPacket>;
    try {
      join = decodeJoinPacket(packet);
    } catch (err) {
      this.log(`access point ignored a packet: ${(err as Error).message}`);
      return;
    }
    this.module.onJoin(join, () => {
      if (this.product) this.send(this.ap, encodeJoinAck(), rinfo);
    });
  }

  private onLanPacket(msg: Buffer, rinfo: dgram.RemoteInfo): void {
    if (this.module.silentOnHomeNetwork()) return;
    let hello: ReturnType<typeof decodeHelloPacket>;
    try {
      hello = decodeHelloPacket(new Uint8Array(msg.buffer, msg.byteOffset, msg.length));
    } catch {
      return;
    }
    const s = this.module.currentStatus();
    if (s.state < BluetoothSetupState.WifiConnected || !s.ip) return; // not on the network
    if (!sameSubnet(hello.localIp, s.ip)) return; // a phone on another network does not reach it
    const cloudState =
      s.failure !== 0
        ? CloudState.Failed
        : s.state === BluetoothSetupState.ServerConnected
          ? CloudState.Connected
          : CloudState.Connecting;
    this.send(this.lan, this.helloAnswer(s.ip, cloudState), rinfo);
  }
}

function closeUdp(socket: dgram.Socket): Promise<void> {
  return new Promise((resolve) => {
    try {
      socket.close(() => resolve());
    } catch {
      resolve(); // already closed
    }
  });
}
