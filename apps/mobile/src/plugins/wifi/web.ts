import type {
  TDiscoverResult,
  TJoinAccessPointResult,
  TPhoneWifi,
  TSendJoinPacketResult,
  TWifiNetworkList,
} from "@aquapilot/contract/wire";
import { WebPlugin } from "@capacitor/core";
import type { AquaWifiPlugin } from "./definitions.ts";

/**
 * AquaWifi in a browser: a page can neither read nor join Wi-Fi networks nor open UDP sockets, so every
 * operation rejects with Capacitor's "unavailable" error (the bridge turns that into the contract's null, and the
 * network setup offers the Bluetooth setup or the development bridge instead).
 */
export class AquaWifiWeb extends WebPlugin implements AquaWifiPlugin {
  private no(): never {
    throw this.unavailable("Wi-Fi control is not available in a browser");
  }
  /** Rejects: unavailable in a browser. */
  async getCurrentNetwork(): Promise<TPhoneWifi> {
    return this.no();
  }
  /** Rejects: unavailable in a browser. */
  async getNetworks(): Promise<TWifiNetworkList> {
    return this.no();
  }
  /** Rejects: unavailable in a browser. */
  async joinAccessPoint(_options: { ssid: string }): Promise<TJoinAccessPointResult> {
    return this.no();
  }
  /** Rejects: unavailable in a browser. */
  async leaveAccessPoint(): Promise<TPhoneWifi> {
    return this.no();
  }
  /** Rejects: unavailable in a browser. */
  async sendJoinPacket(_options: { packet: string }): Promise<TSendJoinPacketResult> {
    return this.no();
  }
  /** Rejects: unavailable in a browser. */
  async discover(_options: { packet: string; timeoutMs: number }): Promise<TDiscoverResult> {
    return this.no();
  }
}
