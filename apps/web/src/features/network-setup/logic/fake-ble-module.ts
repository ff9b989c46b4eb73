import { BluetoothSetupState } from "@aquapilot/contract/wire";
import {
  answerFrames,
  BLSYNC_VERSION,
  type BleSetupFailure,
  BlsyncCommand,
  BlsyncData,
  BlsyncFrameType,
  BlsyncReceiver,
  BlsyncResult,
  encodeSdkWifiState,
  encodeStatusExtension,
  fromUtf8,
  parseSetupCustomData,
  SdkWifiState,
  utf8,
} from "@aquapilot/provisioning";
import type { BleTransport } from "./ble-flow.ts";

/**
 * A simulated WIFI-BL3372 module in Bluetooth setup mode for the flow's unit tests, frames in and frames out with
 * the real codecs of @aquapilot/provisioning, following the module rules of docs/device-protocol.md §13.2: every
 * frame goes through the SDK's transfer layer as `BlsyncReceiver` models it (a fragment sent twice, or a new message
 * over a half-received one, crashes the module: it drops the link and forgets everything), every write prepares one
 * answer (a read with nothing prepared fails like ATT error 0x04), SSID/PASSWORD → state 1, CONNECT_WIFI → state 2
 * and then the planned outcome on the (fake) timers. `firmware` "product" answers the status extension, "stock"
 * refuses it with 2 (both take the setup ticket). Fault injection: failing reads, dropped links, failing connects.
 * Test support only; the app never imports it.
 */

/** How the module's connection attempt ends, and when (ms after CONNECT_WIFI). */
export interface FakeModulePlan {
  /** "ok": state 4 with a pairing code; a failure code 1–8; "never": stays connecting to Wi-Fi. */
  outcome: "ok" | BleSetupFailure | "never";
  /** Association time (state 2 → 3), default 1500. */
  associateMs?: number;
  /** From Wi-Fi connected to server connected (or to a cloud failure 5–8), default 1500. */
  cloudMs?: number;
}

/** What the fake records for assertions. */
export interface FakeModuleLog {
  /** Every whole request message: command name or data name, in order. */
  requests: string[];
  /** Frames the SDK refused (0xfe), the discard frame among them. */
  refused: number;
  /** Frames that crashed the SDK's transfer layer (a fragment sent twice, a message over a held one). */
  crashes: number;
  connects: number;
  writes: number;
  reads: number;
}

const COMMAND_NAMES: Record<number, string> = {
  [BlsyncCommand.ConnectWifi]: "CONNECT_WIFI",
  [BlsyncCommand.DisconnectWifi]: "DISCONNECT_WIFI",
  [BlsyncCommand.GetVersion]: "GET_VERSION",
  [BlsyncCommand.ProvStop]: "PROV_STOP",
  [BlsyncCommand.WifiStateGet]: "WIFI_STATE_GET",
};

/** The module's own view of its setup (spec §3 state, §4 failure, addresses, pairing code). */
export interface FakeModuleState {
  state: number;
  failure: number;
  ip: string;
  gw: string;
  mask: string;
  ssid: string;
  bssid: string;
  pairingCode?: string;
}

/** The simulated module; {@link FakeBleModule.transport} is what the flow talks to. */
export class FakeBleModule {
  readonly log: FakeModuleLog = { requests: [], refused: 0, crashes: 0, connects: 0, writes: 0, reads: 0 };
  ssid: string | null = null;
  password: string | null = null;
  /** The setup ticket the phone handed over. */
  ticket: string | null = null;
  /** "product" answers the status extension; "stock" answers it with the SDK's error 2. */
  firmware: "stock" | "product" = "product";
  state: FakeModuleState = { state: 0, ip: "", gw: "", mask: "", ssid: "", bssid: "", failure: 0 };
  /** Whether the module still advertises (false after PROV_STOP). */
  advertising = true;
  connected = false;
  /** Reads that fail from now on (the answer stays prepared), then reads work again. */
  failReads = 0;
  /** Connects that fail from now on. */
  failConnects = 0;
  /** Drop the link when a request with this name arrives (before answering), once per entry. */
  dropOn: string[] = [];
  /** Never answer these requests (the write succeeds, nothing is prepared). */
  silentOn: string[] = [];
  /** When true, the module answers a CONNECT_WIFI with result 2 as if no SSID was stored. */
  refuseConnect = false;
  /**
   * The ATT MTU the link negotiates, bytes (23 unless set): a write longer than it less 3 fails as on a real link,
   * and the module answers in frames of that size (`bt_gatt_get_mtu() - 3`).
   */
  mtu = 23;
  /** Whether the transport can tell the MTU (the native shells can; Web Bluetooth cannot: null). */
  mtuKnown = false;
  private prepared: Uint8Array[] = [];
  private readonly receiver = new BlsyncReceiver();
  private readonly listeners = new Set<() => void>();
  private timers: ReturnType<typeof setTimeout>[] = [];

  plan: FakeModulePlan;
  readonly mac: string;
  readonly pairingCode: string;
  constructor(
    plan: FakeModulePlan = { outcome: "ok" },
    mac = "0211AABB3372",
    pairingCode = "0211AABB3372:tok3n-Abc_123",
  ) {
    this.plan = plan;
    this.mac = mac;
    this.pairingCode = pairingCode;
  }

  /** The GATT link to this module as the flow sees it. */
  readonly transport: BleTransport = {
    connect: async () => {
      this.log.connects += 1;
      if (this.failConnects > 0) {
        this.failConnects -= 1;
        throw new Error("NetworkError: Connection attempt failed.");
      }
      if (!this.advertising) throw new Error("NotFoundError: device out of range");
      this.connected = true;
      this.prepared = [];
    },
    write: async (frame) => {
      this.log.writes += 1;
      if (!this.connected) throw new Error("NetworkError: GATT Server is disconnected.");
      if (frame.length > this.mtu - 3) throw new Error(`InvalidModificationError: ${frame.length} bytes over the MTU`);
      this.receive(frame);
    },
    read: async () => {
      this.log.reads += 1;
      if (!this.connected) throw new Error("NetworkError: GATT Server is disconnected.");
      if (this.failReads > 0) {
        this.failReads -= 1;
        throw new Error("NotSupportedError: GATT operation failed for unknown reason.");
      }
      const next = this.prepared.shift();
      if (!next) throw new Error("ATT error 0x04: Invalid PDU (nothing prepared)");
      return next;
    },
    disconnect: async () => {
      this.drop();
    },
    onDisconnect: (listener) => {
      this.listeners.add(listener);
      return () => this.listeners.delete(listener);
    },
    negotiatedMtu: async () => (this.connected && this.mtuKnown ? this.mtu : null),
  };

  /** Drops the link (out of range, module reset); the flow's listeners hear it. */
  drop(): void {
    if (!this.connected) return;
    this.connected = false;
    this.prepared = [];
    for (const l of [...this.listeners]) l();
  }

  /** Stops the module's timers (end of a test). */
  dispose(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers = [];
  }

  private later(ms: number, fn: () => void): void {
    this.timers.push(setTimeout(fn, ms));
  }

  private receive(bytes: Uint8Array): void {
    const got = this.receiver.receive(bytes);
    if (got.kind === "crash") {
      // The SDK wrote through NULL: the module restarts with nothing configured and the link drops.
      this.log.crashes += 1;
      this.dispose();
      this.ssid = null;
      this.password = null;
      this.ticket = null;
      this.state = { state: 0, ip: "", gw: "", mask: "", ssid: "", bssid: "", failure: 0 };
      this.drop();
      return;
    }
    if (!got.answer) {
      this.prepared = [];
      return;
    }
    if (got.kind === "refused") {
      this.log.refused += 1;
      this.prepared = answerFrames(got.seq, BlsyncResult.FrameError, undefined, this.mtu - 3);
      return;
    }
    if (got.kind === "fragment") {
      this.prepared = answerFrames(got.seq, BlsyncResult.Ok, undefined, this.mtu - 3);
      return;
    }
    const name =
      got.type === BlsyncFrameType.Command
        ? (COMMAND_NAMES[got.id] ?? `CMD_${got.id}`)
        : got.id === BlsyncData.StaWifiSsid
          ? "SSID"
          : got.id === BlsyncData.StaWifiPassword
            ? "PASSWORD"
            : got.id === BlsyncData.CustomData
              ? customName(got.data)
              : `DATA_${got.id}`;
    this.log.requests.push(name);
    const dropAt = this.dropOn.indexOf(name);
    if (dropAt >= 0) {
      this.dropOn.splice(dropAt, 1);
      this.handle(name, got.data);
      this.drop();
      return;
    }
    if (this.silentOn.includes(name)) {
      this.handle(name, got.data);
      this.prepared = [];
      return;
    }
    const [result, data] = this.handle(name, got.data);
    this.prepared = answerFrames(got.seq, result, data, this.mtu - 3);
  }

  /** Acts on a whole request; answers [result, data]. */
  private handle(name: string, data: Uint8Array): [number, Uint8Array?] {
    switch (name) {
      case "GET_VERSION":
        return [BlsyncResult.Ok, utf8(`${BLSYNC_VERSION}\0`)];
      case "SSID":
        this.ssid = fromUtf8(data);
        this.configured();
        return [BlsyncResult.Ok];
      case "PASSWORD":
        this.password = fromUtf8(data);
        this.configured();
        return [BlsyncResult.Ok];
      case "SETUP_TICKET": {
        const asked = parseSetupCustomData(data);
        this.ticket = asked?.tag === "ticket" ? asked.ticket : null;
        return [BlsyncResult.Ok];
      }
      case "STATUS_EXTENSION": {
        if (this.firmware === "stock") return [BlsyncResult.Error];
        const { state, failure, pairingCode } = this.state;
        const withCode = state === BluetoothSetupState.ServerConnected && pairingCode ? { pairingCode } : {};
        return [BlsyncResult.Ok, encodeStatusExtension({ state, failure, ...withCode })];
      }
      case "CONNECT_WIFI":
        if (!this.ssid || this.refuseConnect) return [BlsyncResult.Error];
        this.connectWifi();
        return [BlsyncResult.Ok];
      case "DISCONNECT_WIFI":
        this.dispose();
        this.state = { ...this.state, state: BluetoothSetupState.ConfigReceived };
        return [BlsyncResult.Ok];
      case "WIFI_STATE_GET": {
        const s = this.state;
        const sdk = {
          state: s.ip ? SdkWifiState.Address : SdkWifiState.NoAddress,
          ip: s.ip || "0.0.0.0",
          gw: s.gw || "0.0.0.0",
          mask: s.mask || "0.0.0.0",
          ssid: s.ssid,
          bssid: s.bssid || "00:00:00:00:00:00",
        };
        return [BlsyncResult.Ok, encodeSdkWifiState(sdk)];
      }
      case "PROV_STOP":
        this.advertising = false;
        this.later(50, () => this.drop());
        return [BlsyncResult.Ok];
      default:
        return [BlsyncResult.Error];
    }
  }

  private configured(): void {
    this.dispose();
    this.state = { ...this.state, state: BluetoothSetupState.ConfigReceived, failure: 0 };
    delete this.state.pairingCode;
  }

  private connectWifi(): void {
    const { outcome, associateMs = 1500, cloudMs = 1500 } = this.plan;
    this.state = { ...this.state, state: BluetoothSetupState.ConnectingToWifi, failure: 0, ssid: this.ssid ?? "" };
    const failWith = (code: number) => {
      this.state = { ...this.state, failure: code };
    };
    if (outcome === 1) {
      failWith(1);
      return;
    }
    if (outcome === "never") return;
    if (outcome === 3 || outcome === 4) {
      this.later(outcome === 3 ? 5000 : 2500, () => failWith(outcome));
      return;
    }
    this.later(associateMs, () => {
      this.state = {
        ...this.state,
        state: BluetoothSetupState.WifiConnected,
        ip: "192.168.1.57",
        gw: "192.168.1.1",
        mask: "255.255.255.0",
        bssid: "02:aa:bb:cc:dd:01",
      };
      this.later(cloudMs, () => {
        if (outcome === "ok") {
          this.state = { ...this.state, state: BluetoothSetupState.ServerConnected, pairingCode: this.pairingCode };
        } else {
          failWith(outcome);
        }
      });
    });
  }
}

/** The name of a custom-data request in the log. */
function customName(data: Uint8Array): string {
  const asked = parseSetupCustomData(data);
  if (asked?.tag === "ticket") return "SETUP_TICKET";
  if (asked?.tag === "status-extension") return "STATUS_EXTENSION";
  return "CUSTOM_DATA";
}
