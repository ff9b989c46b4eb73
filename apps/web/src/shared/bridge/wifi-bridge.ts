import {
  ZDiscoverResult,
  ZJoinAccessPointResult,
  ZPhoneWifi,
  ZSendJoinPacketResult,
  ZWifiNetworkList,
} from "@aquapilot/contract";
import {
  DEV_BRIDGE_PATHS,
  type TDiscoverResult,
  type TJoinAccessPointResult,
  type TPhoneWifi,
  type TSendJoinPacketResult,
  type TWifiNetworkList,
} from "@aquapilot/contract/wire";
import type { z } from "zod";
import { apiBaseUrl } from "../api/api-host.ts";
import { startIntent } from "./index.ts";
import {
  discoverDevices,
  getCurrentWifi,
  getWifiNetworks,
  hasNativeWifi,
  joinAccessPoint,
  leaveAccessPoint,
  parseBridgeAnswer,
  sendJoinPacket,
} from "./native-wifi.ts";

/**
 * The phone's Wi-Fi for network setup (docs/device-protocol.md §13.6), whoever provides it:
 * - "native": a native shell injected `window.AquaPilotNative` with the Wi-Fi methods;
 * - "dev": the development bridge of the server (`/dev/bridge/…`, shapes of packages/contract/src/dev-bridge.ts),
 *   which plays a simulated phone against the simulator on loopback — only when no shell is there and
 *   `GET /dev/bridge/wifi` answers (never mounted in production);
 * - "none": a plain browser; the Bluetooth setup still works, the access-point setup needs the app.
 * Every operation answers null when it failed (fail-silent like the rest of the bridge).
 */
export type WifiBridgeKind = "native" | "dev" | "none";

/** The operations of a {@link WifiBridgeKind}; each resolves null on failure or when the kind cannot do it. */
export interface WifiBridge {
  kind: WifiBridgeKind;
  /** The phone's current network `{connected, ssid, band, ip}`. */
  getCurrentWifi(): Promise<TPhoneWifi | null>;
  /** Networks in range (the phone's Wi-Fi settings list). */
  getWifiNetworks(): Promise<TWifiNetworkList | null>;
  /** Joins an access point by name; `{ok, error: "not-found" | "failed" | null}`. */
  joinAccessPoint(ssid: string): Promise<TJoinAccessPointResult | null>;
  /** Back to the home network; the phone's Wi-Fi afterwards. */
  leaveAccessPoint(): Promise<TPhoneWifi | null>;
  /** Broadcasts the join packet (base64) on the module's access point; answers once it is out. */
  sendJoinPacket(packet: string): Promise<TSendJoinPacketResult | null>;
  /** Broadcasts hello (base64) and collects answers for `timeoutMs` ms (100–5000). */
  discoverDevices(packet: string, timeoutMs: number): Promise<TDiscoverResult | null>;
  /**
   * "Switch the network" (spec §2): "native" opens the phone's Wi-Fi settings (`startIntent("wifi-settings")`) and
   * resolves null (the page re-reads the Wi-Fi when it is shown again); "dev" makes the simulated phone join `ssid`
   * (`POST /dev/bridge/wifi/select`) and resolves its Wi-Fi; "none" resolves null.
   */
  switchNetwork(ssid?: string): Promise<TPhoneWifi | null>;
}

const nothing = async () => null;

/** The bridge of a plain browser: every operation answers null. */
export const NO_WIFI_BRIDGE: WifiBridge = {
  kind: "none",
  getCurrentWifi: nothing,
  getWifiNetworks: nothing,
  joinAccessPoint: nothing,
  leaveAccessPoint: nothing,
  sendJoinPacket: nothing,
  discoverDevices: nothing,
  switchNetwork: nothing,
};

/** The native shell's Wi-Fi operations (window.AquaPilotNative), validated against the contract's schemas. */
export const NATIVE_WIFI_BRIDGE: WifiBridge = {
  kind: "native",
  getCurrentWifi,
  getWifiNetworks,
  joinAccessPoint,
  leaveAccessPoint,
  sendJoinPacket,
  discoverDevices,
  switchNetwork: async () => {
    await startIntent("wifi-settings");
    return null;
  },
};

/** What {@link createDevWifiBridge} uses to talk HTTP (the global fetch by default; tests pass their own). */
export type FetchLike = (url: string, init?: RequestInit) => Promise<Response>;

/** Extra time over an operation's own wait before a dev-bridge request is given up, ms. */
const DEV_REQUEST_SLACK_MS = 5000;

/**
 * The development bridge over HTTP (docs/device-protocol.md §13.6): GET/POST JSON under `baseUrl`
 * (the API host, "" = same origin) with the paths of `DEV_BRIDGE_PATHS`. A request fails (null) on a network error,
 * a non-2xx status, a timeout or an answer that does not fit the contract.
 */
export function createDevWifiBridge(fetchFn: FetchLike = (u, i) => fetch(u, i), baseUrl = apiBaseUrl()): WifiBridge {
  async function request<S extends z.ZodType>(
    schema: S,
    path: string,
    body?: object,
    waitMs = 0,
  ): Promise<z.infer<S> | null> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), waitMs + DEV_REQUEST_SLACK_MS);
    try {
      const res = await fetchFn(`${baseUrl}${path}`, {
        method: body ? "POST" : "GET",
        headers: body
          ? { Accept: "application/json", "Content-Type": "application/json" }
          : { Accept: "application/json" },
        body: body ? JSON.stringify(body) : undefined,
        signal: controller.signal,
        cache: "no-store",
      });
      if (!res.ok) {
        console.warn(`[dev-bridge] ${path} answered ${res.status}`);
        return null;
      }
      return parseBridgeAnswer(schema, await res.text());
    } catch (err) {
      console.warn(`[dev-bridge] ${path} failed`, err);
      return null;
    } finally {
      clearTimeout(timer);
    }
  }
  return {
    kind: "dev",
    getCurrentWifi: () => request(ZPhoneWifi, DEV_BRIDGE_PATHS.wifi),
    getWifiNetworks: () => request(ZWifiNetworkList, DEV_BRIDGE_PATHS.networks),
    joinAccessPoint: (ssid) => request(ZJoinAccessPointResult, DEV_BRIDGE_PATHS.joinAccessPoint, { ssid }, 10_000),
    leaveAccessPoint: () => request(ZPhoneWifi, DEV_BRIDGE_PATHS.leaveAccessPoint, {}, 10_000),
    sendJoinPacket: (packet) => request(ZSendJoinPacketResult, DEV_BRIDGE_PATHS.sendJoinPacket, { packet }, 3000),
    discoverDevices: (packet, timeoutMs) =>
      request(ZDiscoverResult, DEV_BRIDGE_PATHS.discover, { packet, timeoutMs }, timeoutMs),
    switchNetwork: async (ssid) => (ssid ? request(ZPhoneWifi, DEV_BRIDGE_PATHS.select, { ssid }) : null),
  };
}

let chosen: Promise<WifiBridge> | null = null;

/**
 * Chooses the Wi-Fi bridge once per page load: native when the shell injected the
 * Wi-Fi methods, else the development bridge when `GET /dev/bridge/wifi` answers a phone Wi-Fi, else none.
 * `refresh` probes again (e.g. after the server restarted). Never rejects.
 */
export function resolveWifiBridge(options: { refresh?: boolean; fetchFn?: FetchLike } = {}): Promise<WifiBridge> {
  if (chosen && !options.refresh) return chosen;
  chosen = (async () => {
    if (hasNativeWifi()) return NATIVE_WIFI_BRIDGE;
    const dev = createDevWifiBridge(options.fetchFn);
    return (await dev.getCurrentWifi()) ? dev : NO_WIFI_BRIDGE;
  })();
  return chosen;
}
