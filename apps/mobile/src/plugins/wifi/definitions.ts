import type {
  TDiscoverResult,
  TJoinAccessPointResult,
  TPhoneWifi,
  TSendJoinPacketResult,
  TWifiNetworkList,
} from "@aquapilot/contract/wire";

/**
 * AquaWifi, our own Capacitor plugin (docs/device-protocol.md §13.6): the phone's Wi-Fi for the old
 * module's access-point setup (spec §2 "Old version"). Native code: Android `AquaWifiPlugin.java`
 * (WifiManager, WifiNetworkSpecifier, Network.bindSocket), iOS `AquaWifiPlugin.swift` (NEHotspotNetwork,
 * NEHotspotConfiguration, Network framework). Every answer has the contract's shape, so the bridge passes it through.
 */
export interface AquaWifiPlugin {
  /** The phone's current Wi-Fi `{connected, ssid, band, ip}`; needs the location permission (both platforms). */
  getCurrentNetwork(): Promise<TPhoneWifi>;
  /** Networks in range (Android's last scan; iOS cannot list them and answers an empty list). */
  getNetworks(): Promise<TWifiNetworkList>;
  /**
   * Joins an open access point by name, for this app only (Android 10+: a WifiNetworkSpecifier request, the phone asks
   * the user; iOS: NEHotspotConfiguration with joinOnce). `{ok, error: "not-found" | "failed" | null}`.
   */
  joinAccessPoint(options: { ssid: string }): Promise<TJoinAccessPointResult>;
  /** Releases the access point (the phone goes back to its home network); the phone's Wi-Fi afterwards. */
  leaveAccessPoint(): Promise<TPhoneWifi>;
  /**
   * Broadcasts `packet` (standard base64) over UDP to 255.255.255.255:80 from a socket bound to the access point's
   * network, as python-broadlink `setup()` does, and answers once it is out: `{acknowledged}` (a product module's
   * acknowledgement within 0.5 s; stock modules send none).
   */
  sendJoinPacket(options: { packet: string }): Promise<TSendJoinPacketResult>;
  /**
   * Broadcasts `packet` (base64) to 255.255.255.255:80 on the home network and collects every answer for `timeoutMs`
   * (100–5000) ms on the same socket: `{answers: [{address, packet}]}`.
   */
  discover(options: { packet: string; timeoutMs: number }): Promise<TDiscoverResult>;
}
