/**
 * The simulated neighbourhood of Wi-Fi networks a setup-mode softener and the development bridge's phone share
 * (docs/device-protocol.md §13.5). One router serves AquaHome on both bands; the module sees only 2.4 GHz
 * (spec §9 "Wi-Fi band 2.4GHz only").
 */

/** A Wi-Fi band, as phones and the dev bridge name it. */
export type SimBand = "2.4GHz" | "5GHz";

/** One network in range. */
export interface SimNetwork {
  ssid: string;
  band: SimBand;
  /** WPA2 passphrase; every simulated network is secured (spec §5 needs a name and a password). */
  password: string;
  /** BSSID of the access point, "AA:BB:CC:DD:EE:FF". */
  bssid: string;
  /** Received signal at the house, dBm. */
  rssi: number;
  /** First three octets of the /24 subnet, e.g. "192.168.1". */
  subnet: string;
}

/** The default neighbourhood, strongest first (docs/device-protocol.md §13.5). */
export const NEIGHBOURHOOD: readonly SimNetwork[] = [
  {
    ssid: "AquaHome",
    band: "2.4GHz",
    password: "softwater24",
    bssid: "A0:B1:C2:D3:E4:01",
    rssi: -48,
    subnet: "192.168.1",
  },
  {
    ssid: "AquaHome-5G",
    band: "5GHz",
    password: "softwater24",
    bssid: "A0:B1:C2:D3:E4:02",
    rssi: -55,
    subnet: "192.168.1",
  },
  {
    ssid: "Café Corner",
    band: "2.4GHz",
    password: "espresso42",
    bssid: "5C:6D:7E:8F:90:11",
    rssi: -70,
    subnet: "10.0.0",
  },
  {
    ssid: "Neighbour-WiFi",
    band: "2.4GHz",
    password: "n3ighb0ur-24",
    bssid: "3A:4B:5C:6D:7E:21",
    rssi: -79,
    subnet: "192.168.0",
  },
];

/** The network the development bridge's phone is on when it starts. */
export const DEFAULT_PHONE_NETWORK = "AquaHome";

/** Host part of addresses on every simulated /24: the router (gateway), a phone, a module. */
export const SIM_HOST = { gateway: 1, phone: 23, module: 57 } as const;
/** Subnet mask of every simulated network. */
export const SIM_NETMASK = "255.255.255.0";

/** The network named `ssid` on `band` (any band when omitted; 2.4 GHz first), or undefined. Names match exactly. */
export function findNetwork(
  ssid: string,
  band?: SimBand,
  networks: readonly SimNetwork[] = NEIGHBOURHOOD,
): SimNetwork | undefined {
  const same = networks.filter((n) => n.ssid === ssid && (band === undefined || n.band === band));
  return same.find((n) => n.band === "2.4GHz") ?? same[0];
}

/** The address of host `host` (see {@link SIM_HOST}) on `network`, e.g. "192.168.1.57". */
export function addressOn(network: SimNetwork, host: number): string {
  return `${network.subnet}.${host}`;
}

/** Whether two IPv4 addresses are on the same simulated /24. */
export function sameSubnet(a: string, b: string): boolean {
  return a.split(".").slice(0, 3).join(".") === b.split(".").slice(0, 3).join(".");
}
